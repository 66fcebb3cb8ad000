import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AlertSignalSchema,
  NotificationRunSchema,
  WebhookDeliverySchema,
  WebhookSubscriptionSchema,
} from '../../db/entities';
import type { AlertSignalRef, DeliveryRef, EmailRunRef } from './ports';

/** Records that these deliveries' workflows run, so the sweep leaves them alone. */
export async function markDeliveriesStarted(em: EntityManager, ids: string[], now: Date): Promise<void> {
  if (ids.length)
    await em.nativeUpdate(
      WebhookDeliverySchema,
      { id: { $in: ids }, workflowStartedAt: null },
      { workflowStartedAt: now },
    );
}

/** Deliveries created before `before` whose workflow was never confirmed started (a relay died between commit and start). */
export async function unstartedDeliveries(em: EntityManager, before: Date, limit = 500): Promise<DeliveryRef[]> {
  const rows = await em.find(
    WebhookDeliverySchema,
    { workflowStartedAt: null, createdAt: { $lt: before } },
    { orderBy: { createdAt: 'asc' }, limit },
  );
  if (!rows.length) return [];
  const subs = await em.find(
    WebhookSubscriptionSchema,
    { id: { $in: [...new Set(rows.map((d) => d.subscription))] } },
    { fields: ['id', 'url'] },
  );
  const url = new Map(subs.map((s) => [s.id, s.url]));
  return rows.map((d) => ({
    organizationId: d.organization,
    deliveryId: d.id,
    eventType: d.eventType,
    url: url.get(d.subscription) ?? '',
  }));
}

export async function markEmailRunsStarted(em: EntityManager, eventIds: string[], now: Date): Promise<void> {
  if (eventIds.length)
    await em.nativeUpdate(
      NotificationRunSchema,
      { event: { $in: eventIds }, workflowStartedAt: null },
      { workflowStartedAt: now },
    );
}

/** Email runs committed before `before` whose workflow was never confirmed started. */
export async function unstartedEmailRuns(em: EntityManager, before: Date, limit = 500): Promise<EmailRunRef[]> {
  const rows = await em.find(
    NotificationRunSchema,
    { workflowStartedAt: null, createdAt: { $lt: before } },
    { orderBy: { createdAt: 'asc' }, limit },
  );
  return rows.map((r) => ({ organizationId: r.organization, eventId: r.event, eventType: r.eventType }));
}

export async function markAlertSignalsSent(em: EntityManager, ids: string[], now: Date): Promise<void> {
  if (ids.length)
    await em.nativeUpdate(AlertSignalSchema, { id: { $in: ids }, signalledAt: null }, { signalledAt: now });
}

/** Alert signals committed before `before` that no alert workflow was confirmed to have heard. */
export async function unsentAlertSignals(em: EntityManager, before: Date, limit = 500): Promise<AlertSignalRef[]> {
  const rows = await em.find(
    AlertSignalSchema,
    { signalledAt: null, createdAt: { $lt: before } },
    { orderBy: { createdAt: 'asc' }, limit },
  );
  return rows.map((r) => ({
    signalId: r.id,
    organizationId: r.organization,
    ruleId: r.rule,
    subjectId: r.subjectId,
    firing: r.firing,
  }));
}
