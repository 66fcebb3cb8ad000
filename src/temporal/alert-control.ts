import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ProblemError } from '../domain/error-catalog';
import type { DeliverInput, DeliverResult } from '../activities/alerts';
import type { AlertControl, ChannelTester } from '../usecases/alerting/alerts';
import type { TemporalHandle } from './connection';
import { searchAttributes } from './search-attributes';
import { channelTestWorkflowId } from '../domain/workflow-ids';

const ANSWER_WITHIN_MS = 10_000;
/** A test send waits for the receiver (WEBHOOK_TIMEOUT_MS, 10 s by default) and a little more. */
const TEST_ANSWER_WITHIN_MS = 20_000;

function busy(): ProblemError {
  return new ProblemError(
    'alert_busy',
    "The alert's workflow did not answer in time; retry.",
    {},
    { 'retry-after': '5' },
  );
}

async function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(busy()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Acknowledge, resolve and snooze as updates of the alert's workflow; a refused update (resolved, not open yet) is 409 alert_closed. */
export function temporalAlertControl(temporal: Pick<TemporalHandle, 'client'>): AlertControl {
  return {
    async act(workflowId, action, args) {
      const handle = temporal.client.workflow.getHandle(workflowId);
      try {
        return await within(
          handle.executeUpdate<{ state: string }, [typeof args]>(action, { args: [args] }),
          ANSWER_WITHIN_MS,
        );
      } catch (err) {
        if (err instanceof ProblemError) throw err;
        if (err instanceof WorkflowNotFoundError)
          throw new ProblemError('alert_closed', "The alert's workflow has ended: the alert is resolved.");
        if (err instanceof WorkflowUpdateFailedError)
          throw new ProblemError('alert_closed', err.cause?.message ?? err.message);
        throw err;
      }
    },
  };
}

/** "Send test" of a channel: one attempt through the worker (where the vendor endpoints and the SSRF guard live), recorded as a send. */
export function temporalChannelTester(temporal: Pick<TemporalHandle, 'client' | 'taskQueue'>): ChannelTester {
  return {
    async test(organizationId: string, channelId: string): Promise<DeliverResult> {
      const key = `test:${randomUUID()}`;
      const input: DeliverInput = {
        organizationId,
        alertId: null,
        spec: { key, channelId, recipient: null, action: 'test', level: 0, label: 'test' },
        test: { channelId },
      };
      try {
        // The send itself is bounded by the worker's receiver timeout; a worker that does not take it in time is "busy".
        return await within(
          temporal.client.workflow.execute<(i: DeliverInput) => Promise<DeliverResult>>('channelTestWorkflow', {
            workflowId: channelTestWorkflowId(key),
            taskQueue: temporal.taskQueue,
            args: [input],
            workflowExecutionTimeout: '2 minutes',
            typedSearchAttributes: searchAttributes(organizationId, 'notification_channel', channelId),
          }),
          TEST_ANSWER_WITHIN_MS,
        );
      } catch (err) {
        if (err instanceof ProblemError) throw err;
        throw new ProblemError(
          'alert_busy',
          `The worker could not run the test: ${(err as Error).message}`.slice(0, 300),
          {},
          { 'retry-after': '5' },
        );
      }
    },
  };
}
