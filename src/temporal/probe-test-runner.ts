import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import type { ProbeTestJobRef, ProbeTestRunner } from '../usecases/probe-tests/ports';
import type { TemporalHandle } from './connection';
import { searchAttributes } from './search-attributes';
import { probeTestWorkflowId } from '../domain/workflow-ids';

export { probeTestWorkflowId };

const args = (job: ProbeTestJobRef) => [
  { organizationId: job.organization, jobId: job.id, mode: job.mode, expiresAt: job.expiresAt.getTime() },
];

/**
 * `eagerClient`: a client on the connection of a worker in this process (polling the same task
 * queue). Cloud tests start through it with `requestEagerStart`: the server hands the first
 * workflow task back in the start response, so the probe runs on that worker at once instead of
 * waiting to be matched to a poll. Without one (an API running alone), they start as usual.
 */
export function temporalProbeTestRunner(
  temporal: TemporalHandle,
  opts: { eagerClient?: Client } = {},
): ProbeTestRunner {
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
        const eager = job.mode === 'cloud' ? opts.eagerClient : undefined;
        const handle = await (eager ?? temporal.client).workflow.start('probeTestWorkflow', {
          ...options(job),
          args: args(job),
          requestEagerStart: eager !== undefined,
        });
        return { completion: job.mode === 'cloud' ? () => handle.result().then(() => undefined) : null };
      } catch (err) {
        // An agent can claim, run and answer a job before this start: its result then started the workflow.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError && job.mode === 'agent')) throw err;
        return { completion: null };
      }
    },
    async finished(job) {
      await temporal.client.workflow.signalWithStart('probeTestWorkflow', {
        ...options(job),
        args: args(job),
        signal: 'probeTestFinished',
        signalArgs: [],
      });
    },
  };
}
