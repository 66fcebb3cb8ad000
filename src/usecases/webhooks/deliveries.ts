import { randomUUID } from 'node:crypto';
import {
  WebhookAttemptSchema,
  type WebhookDelivery,
  WebhookDeliverySchema,
  WebhookSubscriptionSchema,
} from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import type { DeliveryRef, OutboxWorkflowStarter } from '../events/ports';
import { markDeliveriesStarted } from '../events/workflow-starts';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { findLive } from '../shared/org-resources';
import { type DeliveryState, type DeliveryView, deliveryView } from './views';

async function withAttempts(ctx: OrgContext, rows: WebhookDelivery[]): Promise<DeliveryView[]> {
  if (!rows.length) return [];
  const attempts = await ctx.em.find(WebhookAttemptSchema, { delivery: { $in: rows.map((d) => d.id) } });
  return rows.map((d) => deliveryView(d, attempts));
}

export async function listDeliveries(
  ctx: OrgContext,
  webhookId: string,
  q: { limit: number; cursor?: string; state?: DeliveryState; event_type?: string },
) {
  await findLive(ctx, WebhookSubscriptionSchema, webhookId, 'Webhook');
  const rows = await ctx.em.find(
    WebhookDeliverySchema,
    {
      organization: ctx.org.id,
      subscription: webhookId,
      ...(q.state ? { state: q.state } : {}),
      ...(q.event_type ? { eventType: q.event_type } : {}),
      ...afterCursor(q.cursor),
    },
    { orderBy: NEWEST_FIRST, limit: q.limit + 1 },
  );
  const page = pageOf(rows, q.limit);
  return { items: await withAttempts(ctx, page.items), nextCursor: page.nextCursor };
}

async function findDelivery(ctx: OrgContext, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
  await findLive(ctx, WebhookSubscriptionSchema, webhookId, 'Webhook');
  const d = isUuid(deliveryId)
    ? await ctx.em.findOne(WebhookDeliverySchema, { id: deliveryId, subscription: webhookId, organization: ctx.org.id })
    : null;
  if (!d) throw notFound('Delivery');
  return d;
}

export async function getDelivery(ctx: OrgContext, webhookId: string, deliveryId: string): Promise<DeliveryView> {
  const [view] = await withAttempts(ctx, [await findDelivery(ctx, webhookId, deliveryId)]);
  return view!;
}

/**
 * Starts a committed delivery's workflow; a start that fails, or a caller without a starter,
 * leaves it to the outbox sweep within a minute.
 */
export async function startDeliveryNow(
  ctx: OrgContext,
  ports: { starter?: OutboxWorkflowStarter },
  ref: DeliveryRef,
): Promise<void> {
  if (!ports.starter) return;
  try {
    await markDeliveriesStarted(ctx.em, await ports.starter.start([ref]), new Date());
  } catch (err) {
    ctx.log?.error(
      { err, delivery_id: ref.deliveryId },
      'could not start the delivery workflow; the outbox sweep starts it within a minute',
    );
  }
}

/**
 * Sends a finished delivery again as a new delivery (same event, same `webhook-id`, so a
 * receiver that already processed it can recognise it), 202, started after commit (startDeliveryNow).
 * Refused while the original still retries.
 */
export async function redeliver(
  ctx: OrgContext,
  ports: { starter?: OutboxWorkflowStarter },
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const { view, ref } = await queueRedelivery(ctx, webhookId, deliveryId);
  await startDeliveryNow(ctx, ports, ref);
  return view;
}

async function queueRedelivery(
  ctx: OrgContext,
  webhookId: string,
  deliveryId: string,
): Promise<{ view: DeliveryView; ref: DeliveryRef }> {
  const original = await findDelivery(ctx, webhookId, deliveryId);
  const sub = await findLive(ctx, WebhookSubscriptionSchema, webhookId, 'Webhook');
  if (original.state === 'pending')
    throw new ProblemError(
      'delivery_in_progress',
      'This delivery is still being attempted; redeliver it once it has succeeded or failed.',
    );
  if (sub.disabledAt)
    throw new ProblemError('webhook_disabled', 'The webhook is disabled; enable it before redelivering.');
  const d = ctx.em.create(WebhookDeliverySchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    subscription: webhookId,
    event: original.event,
    eventType: original.eventType,
    state: 'pending',
    attemptCount: 0,
    lastStatusCode: null,
    lastError: null,
    nextAttemptAt: null,
    workflowStartedAt: null,
    redeliveryOf: original.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    completedAt: null,
  });
  await ctx.em.flush();
  return {
    view: deliveryView(d, []),
    ref: { organizationId: ctx.org.id, deliveryId: d.id, eventType: d.eventType, url: sub.url },
  };
}
