import { randomUUID } from 'node:crypto';
import { OutboxEventSchema, WebhookDeliverySchema, WebhookSubscriptionSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { WEBHOOK_TEST_EVENT } from '../../domain/event-types';
import type { OrgContext } from '../shared/context';
import { findLive } from '../shared/org-resources';
import { startDeliveryNow } from './deliveries';
import type { OutboxWorkflowStarter } from '../events/ports';
import { type DeliveryView, deliveryView } from './views';

export const TEST_MESSAGE = 'A test delivery from Vigil';

/**
 * A `webhook.test` event for one webhook (the API's testWebhook, the console's Send test): its
 * delivery is created here, for that webhook alone, in the transaction of the event, and the event
 * is stored already dispatched, so the outbox fan-out never takes it: no other webhook, no
 * subscriber email, no alert. The delivery then runs as any other (signed, retried). A test is
 * deliverable whatever the webhook's event_types; a disabled webhook refuses it.
 * `requestedBy` is `api_key:<id>` or `console:<user id>`.
 */
export async function sendTestDelivery(
  ctx: OrgContext,
  ports: { starter?: OutboxWorkflowStarter },
  webhookId: string,
  requestedBy: string,
): Promise<DeliveryView> {
  const { view, url } = await ctx.em.transactional(async (tx) => {
    const em = tx;
    const sub = await findLive({ ...ctx, em }, WebhookSubscriptionSchema, webhookId, 'Webhook');
    if (sub.disabledAt)
      throw new ProblemError('webhook_disabled', 'The webhook is disabled; enable it before sending a test.');
    const event = em.create(OutboxEventSchema, {
      id: randomUUID(),
      organization: ctx.org.id,
      type: WEBHOOK_TEST_EVENT,
      resourceKind: 'webhook',
      resourceId: sub.id,
      payload: { webhook_id: sub.id, message: TEST_MESSAGE, requested_by: requestedBy },
      createdAt: ctx.now,
      dispatchedAt: ctx.now,
    });
    const d = em.create(WebhookDeliverySchema, {
      id: randomUUID(),
      organization: ctx.org.id,
      subscription: sub.id,
      event: event.id,
      eventType: WEBHOOK_TEST_EVENT,
      state: 'pending',
      attemptCount: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: null,
      workflowStartedAt: null,
      redeliveryOf: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      completedAt: null,
    });
    await em.flush();
    return { view: deliveryView(d, []), url: sub.url };
  });
  await startDeliveryNow(ctx, ports, {
    organizationId: ctx.org.id,
    deliveryId: view.id,
    eventType: view.event_type,
    url,
  });
  return view;
}
