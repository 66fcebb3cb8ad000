import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { type ProberDeps, runCloudProbe } from '../probes/cloud-run';
import { expireJob, loadJob, storeCloudOutcome } from '../usecases/probe-tests/jobs';
import type { LocalProbeJobs } from '../usecases/probe-tests/local-jobs';

export type { ProberDeps } from '../probes/cloud-run';

export function createProbeTestActivities(deps: { orm: Orm; prober?: ProberDeps; localProbeJobs?: LocalProbeJobs }) {
  const em = () => deps.orm.em.fork();
  return {
    /** Runs a cloud probe test once and stores its outcome; a job already final is left alone. */
    async runCloudProbeTest(input: { jobId: string }): Promise<void> {
      if (!deps.prober)
        throw ApplicationFailure.nonRetryable('This worker was started without the cloud prober', 'not_configured');
      // A request waiting in this process hands the job over and takes the result back directly.
      // A retry reads the row: the first attempt may have stored the outcome after all.
      const local = Context.current().info.attempt === 1 ? deps.localProbeJobs?.take(input.jobId) : undefined;
      const job = local ?? (await loadJob(em(), input.jobId));
      if (!job || job.state !== 'running') return;
      const outcome = await runCloudProbe(deps.prober, job.sourceType, job.sourceConfig);
      const change = await storeCloudOutcome(em(), input.jobId, outcome, new Date());
      if (change && local) deps.localProbeJobs!.finish({ ...local, ...change });
    },
    async expireProbeTest(input: { jobId: string }): Promise<void> {
      await expireJob(em(), input.jobId, new Date());
    },
  };
}
