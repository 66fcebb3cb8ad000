import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { type ProberDeps, runCloudProbe } from '../probes/cloud-run';
import { expireJob, loadJob, storeCloudOutcome } from '../usecases/probe-tests/jobs';

export type { ProberDeps } from '../probes/cloud-run';

export function createProbeTestActivities(deps: { orm: Orm; prober?: ProberDeps }) {
  const em = () => deps.orm.em.fork() as EntityManager;
  return {
    /** Runs a cloud probe test once and stores its outcome; a job already final is left alone. */
    async runCloudProbeTest(input: { jobId: string }): Promise<void> {
      if (!deps.prober) throw ApplicationFailure.nonRetryable('This worker was started without the cloud prober', 'not_configured');
      const job = await loadJob(em(), input.jobId);
      if (!job || job.state !== 'running') return;
      const outcome = await runCloudProbe(deps.prober, job.sourceType, job.sourceConfig);
      await storeCloudOutcome(em(), input.jobId, outcome, new Date());
    },
    async expireProbeTest(input: { jobId: string }): Promise<void> {
      await expireJob(em(), input.jobId, new Date());
    },
  };
}
