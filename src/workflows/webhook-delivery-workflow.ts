import { patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RetryPolicy } from '../domain/webhook-retry';

const options = {
  // One POST (bounded by WEBHOOK_TIMEOUT_MS) plus two small transactions.
  startToCloseTimeout: '2 minutes',
  // Only for our own failures (database down): what the receiver answers is handled below.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const remote = proxyActivities<Activities>(options);
// A local activity runs inside the workflow task: no round trip through the server per attempt,
// which is what first-attempt latency under load is made of.
const local = proxyLocalActivities<Activities>(options);

export interface WebhookDeliveryInput {
  organizationId: string;
  deliveryId: string;
  policy: RetryPolicy;
  /** Set by every start since attempts became local activities (see below); absent in older histories. */
  localAttempts?: true;
}

/**
 * One per delivery (id `webhook:<delivery uuid>`): a signed POST per attempt, each attempt an
 * activity of its own in the history, with the backoff the activity chose slept in between.
 * Ends with the delivery's final state: succeeded, failed or canceled.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<string> {
  const firstAttemptAt = Date.now();
  // Histories recorded before attempts became local activities replay with the remote ones.
  // Deliveries started since say so in their input: asking patched() would also make the SDK
  // upsert the TemporalChangeVersion search attribute, a visibility write per delivery. Those
  // started between the two carry the patch marker, and patched() still finds it.
  const { attemptWebhookDelivery } = (input.localAttempts ?? patched('attempt-as-local-activity')) ? local : remote;
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptWebhookDelivery({
      deliveryId: input.deliveryId,
      attempt,
      policy: input.policy,
      elapsedMs: Date.now() - firstAttemptAt,
      jitter: Math.random(),
    });
    if (outcome.retryInMs === null) return outcome.state;
    await sleep(outcome.retryInMs);
  }
}
