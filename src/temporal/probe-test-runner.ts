import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
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
  /** Tells an agent test's workflow that the result is in (starting it, if the agent was faster than the API). */
  finished(job: ProbeTestJobRef): Promise<void>;
}

const args = (job: ProbeTestJobRef) => [{ organizationId: job.organization, jobId: job.id, mode: job.mode, expiresAt: job.expiresAt.getTime() }];

export function temporalProbeTestRunner(temporal: TemporalHandle): ProbeTestRunner {
  const options = (job: ProbeTestJobRef) => ({
    workflowId: probeTestWorkflowId(job.id),
    taskQueue: temporal.taskQueue,
    // One run per job: a late result must not start a second one.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    memo: { title: `${job.mode} ${job.sourceType} probe test` },
    typedSearchAttributes: searchAttributes(job.organization, 'probe_test', job.id),
  });
  return {
    async run(job) {
      try {
        const handle = await temporal.client.workflow.start('probeTestWorkflow', { ...options(job), args: args(job) });
        if (job.mode === 'cloud') await handle.result();
      } catch (err) {
        // An agent can claim, run and answer a job before this start: its result then started the workflow.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError && job.mode === 'agent')) throw err;
      }
    },
    async finished(job) {
      await temporal.client.workflow.signalWithStart('probeTestWorkflow', { ...options(job), args: args(job), signal: 'probeTestFinished', signalArgs: [] });
    },
  };
}
