import type { EntityManager } from '@mikro-orm/postgresql';
import { EMAIL_EVENT_TYPES } from '../../domain/status-page/notify-events';
import { pgArray, rawRows } from '../raw-sql';

/** What starting a delivery's workflow needs. */
export interface DeliveryRef {
  organizationId: string;
  deliveryId: string;
  eventType: string;
  url: string;
}

/** What starting an event's subscriber-email workflow needs. */
export interface EmailRunRef {
  organizationId: string;
  eventId: string;
  eventType: string;
}

/**
 * One statement: takes up to `batch` undispatched events, oldest first (rows another relay holds
 * are skipped), marks them dispatched, creates one pending delivery per enabled subscription
 * that chose the event's type, and one subscriber-email run per event of EMAIL_EVENT_TYPES less
 * than 2 days old (no stale news after an outage) whose organization has a confirmed subscriber
 * (`subscriber.*` events always: they write to the one address that asked). Answers how many
 * events it took, the deliveries and the runs, in event order; the caller then starts their
 * workflows.
 */
export async function dispatchOutbox(em: EntityManager, now: Date, batch = 500): Promise<{ events: number; deliveries: DeliveryRef[]; emailRuns: EmailRunRef[] }> {
  const [row] = await rawRows<{ events: number; deliveries: DeliveryRef[]; emailRuns: EmailRunRef[] }>(
    em,
    `with ev as (
       select id, organization_id, type, created_at from outbox_events
        where dispatched_at is null order by created_at limit ? for update skip locked
     ), marked as (
       update outbox_events o set dispatched_at = ? from ev where o.id = ev.id returning o.id
     ), fan as (
       select gen_random_uuid() as id, ev.organization_id, s.id as subscription_id, s.url, ev.id as event_id, ev.type, ev.created_at
         from ev join webhook_subscriptions s
           on s.organization_id = ev.organization_id and s.deleted_at is null and s.disabled_at is null and ev.type = any(s.event_types)
     ), ins as (
       insert into webhook_deliveries (id, organization_id, subscription_id, event_id, event_type, state, attempt_count, created_at, updated_at)
       select id, organization_id, subscription_id, event_id, type, 'pending', 0, ?, ? from fan
     ), runs as (
       insert into notification_runs (event_id, organization_id, event_type, created_at)
       select ev.id, ev.organization_id, ev.type, ? from ev
        where ev.type = any(?::text[]) and ev.created_at > ?::timestamptz - interval '2 days'
          and (ev.type like 'subscriber.%'
               or exists (select 1 from status_page_subscribers s where s.organization_id = ev.organization_id and s.state = 'confirmed'))
       on conflict (event_id) do nothing
       returning event_id
     )
     select (select count(*) from marked)::int as events,
            coalesce((select json_agg(json_build_object('deliveryId', id, 'organizationId', organization_id, 'eventType', type, 'url', url)
                                      order by created_at, event_id, subscription_id) from fan), '[]') as deliveries,
            coalesce((select json_agg(json_build_object('eventId', ev.id, 'organizationId', ev.organization_id, 'eventType', ev.type)
                                      order by ev.created_at, ev.id) from runs join ev on ev.id = runs.event_id), '[]') as "emailRuns"`,
    [batch, now, now, now, now, pgArray([...EMAIL_EVENT_TYPES]), now],
  );
  return row ?? { events: 0, deliveries: [], emailRuns: [] };
}
