import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Knex } from '@mikro-orm/knex';
import { NotificationRunSchema, OutboxEventSchema, WebhookDeliverySchema, WebhookSubscriptionSchema } from '../../db/entities';
import { EMAIL_EVENT_TYPES } from '../../domain/status-page/notify-events';
import type { DeliveryRef, EmailRunRef } from './deliveries';

/**
 * Takes up to `batch` undispatched events from the outbox (rows other relays hold are skipped),
 * creates one pending delivery per enabled subscription that chose the event's type, and marks
 * the events dispatched, all in one transaction. The caller then starts the deliveries' workflows.
 */
export async function dispatchOutbox(em: EntityManager, now: Date, batch = 500): Promise<{ events: number; deliveries: DeliveryRef[] }> {
  return em.transactional(async (tx) => {
    const events = await tx.find(
      OutboxEventSchema,
      { dispatchedAt: null },
      { orderBy: { createdAt: 'asc' }, limit: batch, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, fields: ['id', 'organization', 'type', 'createdAt', 'dispatchedAt'] },
    );
    if (!events.length) return { events: 0, deliveries: [] };
    const orgs = [...new Set(events.map((e) => e.organization))];
    const subs = await tx.find(WebhookSubscriptionSchema, { organization: { $in: orgs }, deletedAt: null, disabledAt: null }, { fields: ['id', 'organization', 'url', 'eventTypes'] });
    const deliveries: DeliveryRef[] = [];
    for (const e of events) {
      for (const s of subs) {
        if (s.organization !== e.organization || !s.eventTypes.includes(e.type)) continue;
        const id = randomUUID();
        tx.create(WebhookDeliverySchema, {
          id,
          organization: e.organization,
          subscription: s.id,
          event: e.id,
          eventType: e.type,
          state: 'pending',
          attemptCount: 0,
          lastStatusCode: null,
          lastError: null,
          nextAttemptAt: null,
          workflowStartedAt: null,
          redeliveryOf: null,
          createdAt: now,
          updatedAt: now,
          completedAt: null,
        });
        deliveries.push({ organizationId: e.organization, deliveryId: id, eventType: e.type, url: s.url });
      }
      e.dispatchedAt = now;
    }
    await tx.flush();
    return { events: events.length, deliveries };
  });
}

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

/** Matches the partial index outbox_events_email_index, so claiming never scans other events. */
const EMAIL_TYPES_PREDICATE = `(e.type like 'incident.%' or e.type like 'maintenance.%' or e.type like 'subscriber.%')`;

/**
 * Claims subscriber-email runs for recent events that have none yet (one run per event; the
 * primary key settles races between relays), in organizations that have confirmed subscribers. Separate from webhook fan-out, so only relays that
 * can send email take these events.
 */
export async function claimEmailRuns(em: EntityManager, now: Date, limit = 500): Promise<EmailRunRef[]> {
  const knex = (em.getTransactionContext() as Knex.Transaction | undefined) ?? em.getConnection().getKnex();
  const res = (await knex.raw(
    `insert into notification_runs (event_id, organization_id, event_type, created_at)
     select e.id, e.organization_id, e.type, ? from outbox_events e
      where ${EMAIL_TYPES_PREDICATE} and e.type in (select jsonb_array_elements_text(?::jsonb)) and e.created_at > ?::timestamptz - interval '2 days'
        and not exists (select 1 from notification_runs r where r.event_id = e.id)
        -- Only organizations with someone to tell: no workflow for an event nobody subscribed to.
        and (e.type like 'subscriber.%' or exists (select 1 from status_page_subscribers s where s.organization_id = e.organization_id and s.state = 'confirmed'))
      order by e.created_at limit ?
     on conflict (event_id) do nothing
     returning event_id, organization_id, event_type`,
    [now, JSON.stringify([...EMAIL_EVENT_TYPES]), now, limit],
  )) as { rows: { event_id: string; organization_id: string; event_type: string }[] };
  return res.rows.map((r) => ({ organizationId: r.organization_id, eventId: r.event_id, eventType: r.event_type }));
}

export async function markEmailRunsStarted(em: EntityManager, eventIds: string[], now: Date): Promise<void> {
  if (eventIds.length) await em.nativeUpdate(NotificationRunSchema, { event: { $in: eventIds }, workflowStartedAt: null }, { workflowStartedAt: now });
}

/** Email runs committed before `before` whose workflow was never confirmed started. */
export async function unstartedEmailRuns(em: EntityManager, before: Date, limit = 500): Promise<EmailRunRef[]> {
  const rows = await em.find(NotificationRunSchema, { workflowStartedAt: null, createdAt: { $lt: before } }, { orderBy: { createdAt: 'asc' }, limit });
  return rows.map((r) => ({ organizationId: r.organization, eventId: r.event, eventType: r.eventType }));
}
