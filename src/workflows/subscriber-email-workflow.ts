import { continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';

const retry = { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' } as const;
const { planSubscriberEmails, finishSubscriberEmails } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry,
});
// A batch heartbeats while it sends: one whose completion was lost (the server unreachable for
// longer than the worker retries reporting it) is re-run after 30 s, not after 5 minutes. Re-running
// sends nothing twice: each outcome is recorded as it happens.
const { sendSubscriberEmails } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry,
});

export interface SubscriberEmailInput {
  organizationId: string;
  eventId: string;
  /** Set when continued as new: the plan is already written. */
  planned?: boolean;
  totals?: EmailTotals;
}

export interface EmailTotals {
  recipients: number;
  sent: number;
  failed: number;
  skipped: number;
}

/**
 * `email:<event>`: the email one event owes a page's subscribers (or one confirmation link).
 * Plans the recipients once, then sends in batches; emails that fail wait out their backoff
 * here (a durable timer) and are retried, and every outcome is recorded per recipient.
 */
export async function subscriberEmailWorkflow(input: SubscriberEmailInput): Promise<EmailTotals> {
  const totals: EmailTotals = input.totals ?? { recipients: 0, sent: 0, failed: 0, skipped: 0 };
  if (!input.planned) totals.recipients = (await planSubscriberEmails(input.eventId)).recipients;
  for (;;) {
    const r = await sendSubscriberEmails(input.eventId);
    totals.sent += r.sent;
    totals.failed += r.failed;
    totals.skipped += r.skipped;
    if (r.pending === 0) break;
    if (r.nextDueInMs !== null && r.nextDueInMs > 0) await sleep(r.nextDueInMs);
    // Very large lists: start a fresh history rather than grow one without bound.
    if (workflowInfo().historyLength > 5_000)
      await continueAsNew<typeof subscriberEmailWorkflow>({ ...input, planned: true, totals });
  }
  await finishSubscriberEmails(input.eventId);
  return totals;
}
