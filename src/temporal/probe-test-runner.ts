import type { TemporalHandle } from './connection';
import { searchAttributes } from './search-attributes';

export const probeTestWorkflowId = (jobId: string) => `probe-test:${jobId}`;

export interface ProbeTestJobRef {
  id: string;
  organization: string;
  mode: string;
  sourceType: string;
  expiresAt: Date;
}

/** How the API reaches probe-test workflows. */
export interface ProbeTestRunner {
  /** Starts the job's workflow; for a cloud test, resolves once the probe has run. */
  run(job: ProbeTestJobRef): Promise<void>;
  /** Tells an agent test's workflow that the result is in. */
  finished(jobId: string): Promise<void>;
}

export function temporalProbeTestRunner(temporal: TemporalHandle): ProbeTestRunner {
  return {
    async run(job) {
      const handle = await temporal.client.workflow.start('probeTestWorkflow', {
        workflowId: probeTestWorkflowId(job.id),
        taskQueue: temporal.taskQueue,
        args: [{ organizationId: job.organization, jobId: job.id, mode: job.mode, expiresAt: job.expiresAt.getTime() }],
        memo: { title: `${job.mode} ${job.sourceType} probe test` },
        typedSearchAttributes: searchAttributes(job.organization, 'probe_test', job.id),
      });
      if (job.mode === 'cloud') await handle.result();
    },
    async finished(jobId) {
      await temporal.client.workflow.getHandle(probeTestWorkflowId(jobId)).signal('probeTestFinished');
    },
  };
}
