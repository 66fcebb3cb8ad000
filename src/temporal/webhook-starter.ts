import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import type { RetryPolicy } from '../domain/webhook-retry';
import type { DeliveryRef, EmailRunRef } from '../usecases/webhooks/deliveries';
import type { TemporalHandle } from './connection';
import { searchAttributes } from './search-attributes';

export const webhookWorkflowId = (deliveryId: string) => `webhook:${deliveryId}`;
export const emailWorkflowId = (eventId: string) => `email:${eventId}`;

/** Starts the workflows events fan out to; each method answers the ids now known to run (started now or earlier). */
export interface WebhookStarter {
  start(deliveries: readonly DeliveryRef[]): Promise<string[]>;
  /** Subscriber-email runs (one per event); without it they wait for a starter that has it. */
  startEmailRuns?(runs: readonly EmailRunRef[]): Promise<string[]>;
}

/**
 * `eager`: the client shares a worker's NativeConnection, so the server hands the first workflow
 * task straight back in the start response (eager workflow start) instead of queueing it: the
 * relay in the worker process uses this, which is most of a first attempt's latency under load.
 */
export function temporalWebhookStarter(temporal: Pick<TemporalHandle, 'client' | 'taskQueue'>, policy: RetryPolicy, opts: { eager?: boolean } = {}): WebhookStarter {
  const startOne = async (d: DeliveryRef): Promise<string | null> => {
    try {
      await temporal.client.workflow.start('webhookDeliveryWorkflow', {
        workflowId: webhookWorkflowId(d.deliveryId),
        taskQueue: temporal.taskQueue,
        args: [{ organizationId: d.organizationId, deliveryId: d.deliveryId, policy }],
        // A delivery runs once: a second start (relay and sweep racing) must not send it again.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        requestEagerStart: opts.eager === true,
        memo: { title: `${d.eventType} → ${d.url}` },
        typedSearchAttributes: searchAttributes(d.organizationId, 'webhook_delivery', d.deliveryId),
      });
      return d.deliveryId;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return d.deliveryId;
      return null;
    }
  };
  const startEmailRun = async (r: EmailRunRef): Promise<string | null> => {
    try {
      await temporal.client.workflow.start('subscriberEmailWorkflow', {
        workflowId: emailWorkflowId(r.eventId),
        taskQueue: temporal.taskQueue,
        args: [{ organizationId: r.organizationId, eventId: r.eventId }],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        memo: { title: `${r.eventType} → subscribers` },
        typedSearchAttributes: searchAttributes(r.organizationId, 'subscriber_email', r.eventId),
      });
      return r.eventId;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return r.eventId;
      return null;
    }
  };
  return {
    async startEmailRuns(runs) {
      const out: string[] = [];
      for (let i = 0; i < runs.length; i += 16) {
        for (const id of await Promise.all(runs.slice(i, i + 16).map(startEmailRun))) if (id) out.push(id);
      }
      return out;
    },
    async start(deliveries) {
      const out: string[] = [];
      // A few in flight at once: fast for bursts, gentle on the frontend.
      for (let i = 0; i < deliveries.length; i += 16) {
        const started = await Promise.all(deliveries.slice(i, i + 16).map(startOne));
        for (const id of started) if (id) out.push(id);
      }
      return out;
    },
  };
}
