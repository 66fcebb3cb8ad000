import type { EntityManager } from '@mikro-orm/postgresql';
import { NotificationRunSchema, WebhookDeliverySchema, WebhookSubscriptionSchema } from '../../db/entities';
import { EMAIL_EVENT_TYPES } from '../../domain/status-page/notify-events';
import { claimNotificationRuns } from '../../db/repositories/status-page-repository';
import type { DeliveryRef, EmailRunRef } from './deliveries';

/** Records that these deliveries' workflows run, so the sweep leaves them alone. */
export async function markDeliveriesStarted(em: EntityManager, ids: string[], now: Date): Promise<void> {
  if (ids.length) await em.nativeUpdate(WebhookDeliverySchema, { id: { $in: ids }, workflowStartedAt: null }, { workflowStartedAt: now });
}

/** Deliveries created before `before` whose workflow was never confirmed started (a relay died between commit and start). */
export async function unstartedDeliveries(em: EntityManager, before: Date, limit = 500): Promise<DeliveryRef[]> {
  const rows = await em.find(WebhookDeliverySchema, { workflowStartedAt: null, createdAt: { $lt: before } }, { orderBy: { createdAt: 'asc' }, limit });
  if (!rows.length) return [];
  const subs = await em.find(WebhookSubscriptionSchema, { id: { $in: [...new Set(rows.map((d) => d.subscription))] } }, { fields: ['id', 'url'] });
  const url = new Map(subs.map((s) => [s.id, s.url]));
  return rows.map((d) => ({ organizationId: d.organization, deliveryId: d.id, eventType: d.eventType, url: url.get(d.subscription) ?? '' }));
}

/**
 * Claims subscriber-email runs for recent events that have none yet, in organizations that
 * have confirmed subscribers. Separate from webhook fan-out, so only relays that can send email
 * take these events.
 */
export async function claimEmailRuns(em: EntityManager, now: Date, limit = 500): Promise<EmailRunRef[]> {
  const rows = await claimNotificationRuns(em, [...EMAIL_EVENT_TYPES], now, limit);
  return rows.map((r) => ({ organizationId: r.organization_id, eventId: r.event_id, eventType: r.event_type }));
}

export async function markEmailRunsStarted(em: EntityManager, eventIds: string[], now: Date): Promise<void> {
  if (eventIds.length) await em.nativeUpdate(NotificationRunSchema, { event: { $in: eventIds }, workflowStartedAt: null }, { workflowStartedAt: now });
}

/** Email runs committed before `before` whose workflow was never confirmed started. */
export async function unstartedEmailRuns(em: EntityManager, before: Date, limit = 500): Promise<EmailRunRef[]> {
  const rows = await em.find(NotificationRunSchema, { workflowStartedAt: null, createdAt: { $lt: before } }, { orderBy: { createdAt: 'asc' }, limit });
  return rows.map((r) => ({ organizationId: r.organization, eventId: r.event, eventType: r.eventType }));
}
