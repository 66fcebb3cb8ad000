import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/client';
import { alertWorkflowId, emailWorkflowId, webhookWorkflowId } from '../domain/workflow-ids';
import { alertSearchAttributes } from '../workflows/search-attribute-keys';
import type { RetryPolicy } from '../domain/webhook-retry';
import type { WebhookDeliveryInput } from '../workflows/webhook-delivery-workflow';
import type { OutboxWorkflowStarter } from '../usecases/events/ports';
import type { TemporalHandle } from './connection';
import { searchAttributes } from './search-attributes';

/** `onStartError` for a process's log: a start that failed is retried by the outbox sweep. */
export const logStartErrors =
  (log: { warn(obj: object, msg: string): void }) =>
  (err: unknown, workflowId: string): void =>
    log.warn({ err, workflowId }, 'could not start the workflow; the outbox sweep starts it again within a minute');

/** Workflow starts one relay keeps in flight at once. */
const START_WINDOW = 16;

export { emailWorkflowId, webhookWorkflowId };

/**
 * `eager`: the client shares a worker's NativeConnection, so the server hands the first workflow
 * task straight back in the start response (eager workflow start) instead of queueing it: the
 * relay in the worker process uses this, which is most of a first attempt's latency under load.
 */
export function temporalOutboxWorkflowStarter(
  temporal: Pick<TemporalHandle, 'client' | 'taskQueue'>,
  policy: RetryPolicy,
  opts: {
    eager?: boolean;
    /** A start that failed (the outbox sweep starts it again later): for the log. */
    onStartError?: (err: unknown, workflowId: string) => void;
  } = {},
): OutboxWorkflowStarter {
  type StartOptions = Omit<Parameters<typeof temporal.client.workflow.start>[1], 'taskQueue' | 'workflowIdReusePolicy'>;
  /** Starts one workflow at most once (relay and sweep may race): answers `id` once it runs, null if the start failed. */
  const startOnce = async (id: string, workflowType: string, options: StartOptions): Promise<string | null> => {
    try {
      await temporal.client.workflow.start(workflowType, {
        ...options,
        taskQueue: temporal.taskQueue,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
      return id;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return id;
      opts.onStartError?.(err, options.workflowId);
      return null;
    }
  };
  /**
   * At most START_WINDOW starts in flight, the next one sent as soon as any returns (not in
   * chunks that wait for their slowest start): fast for bursts, gentle on the frontend.
   */
  const startAll = async <T>(items: readonly T[], one: (item: T) => Promise<string | null>): Promise<string[]> => {
    const ids = Array.from<string | null>({ length: items.length }).fill(null);
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const i = next++;
        ids[i] = await one(items[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(START_WINDOW, items.length) }, lane));
    return ids.filter((id): id is string => id !== null);
  };
  return {
    start: (deliveries) =>
      startAll(deliveries, (d) =>
        startOnce(d.deliveryId, 'webhookDeliveryWorkflow', {
          workflowId: webhookWorkflowId(d.deliveryId),
          args: [
            {
              organizationId: d.organizationId,
              deliveryId: d.deliveryId,
              policy,
              localAttempts: true,
            } satisfies WebhookDeliveryInput,
          ],
          requestEagerStart: opts.eager === true,
          memo: { title: `${d.eventType} → ${d.url}` },
          typedSearchAttributes: searchAttributes(d.organizationId, 'webhook_delivery', d.deliveryId),
        }),
      ),
    startEmailRuns: (runs) =>
      startAll(runs, (r) =>
        startOnce(r.eventId, 'subscriberEmailWorkflow', {
          workflowId: emailWorkflowId(r.eventId),
          args: [{ organizationId: r.organizationId, eventId: r.eventId }],
          memo: { title: `${r.eventType} → subscribers` },
          typedSearchAttributes: searchAttributes(r.organizationId, 'subscriber_email', r.eventId),
        }),
      ),
    // A firing change starts the rule's alert workflow for the subject (or tells the one running);
    // a recovery only tells a running one: with none running there is nothing to resolve. Signals
    // for one workflow in one batch (five metrics of a service flipping together) go as one.
    signalAlerts: async (signals) => {
      const groups = new Map<string, (typeof signals)[number][]>();
      for (const s of signals) {
        const id = alertWorkflowId(s.ruleId, s.subjectId);
        groups.set(id, [...(groups.get(id) ?? []), s]);
      }
      const sent = await startAll([...groups.entries()], async ([workflowId, group]) => {
        const first = group[0]!;
        const change = { signalId: first.signalId, firing: group.some((s) => s.firing) };
        try {
          if (change.firing) {
            await temporal.client.workflow.signalWithStart('alertWorkflow', {
              workflowId,
              taskQueue: temporal.taskQueue,
              args: [{ organizationId: first.organizationId, ruleId: first.ruleId, subjectId: first.subjectId }],
              signal: 'subjectChanged',
              signalArgs: [change],
              memo: { title: `alert: rule ${first.ruleId} on ${first.subjectId}` },
              typedSearchAttributes: alertSearchAttributes(first.organizationId, first.ruleId, first.subjectId),
            });
          } else {
            await temporal.client.workflow.getHandle(workflowId).signal('subjectChanged', change);
          }
          return workflowId;
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) return workflowId;
          opts.onStartError?.(err, workflowId);
          return null;
        }
      });
      const done = new Set(sent);
      return [...groups.entries()].filter(([id]) => done.has(id)).flatMap(([, group]) => group.map((s) => s.signalId));
    },
  };
}
