import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../raw-sql';

/** What starting a delivery's workflow needs. */
export interface DeliveryRef {
  organizationId: string;
  deliveryId: string;
  eventType: string;
  url: string;
}

/**
 * One statement: takes up to `batch` undispatched events, oldest first (rows another relay holds
 * are skipped), creates one pending delivery per enabled subscription that chose the event's
 * type, and marks the events dispatched. Answers how many events it took and the deliveries, in
 * event order. The caller then starts the deliveries' workflows.
 */
export async function dispatchOutbox(em: EntityManager, now: Date, batch = 500): Promise<{ events: number; deliveries: DeliveryRef[] }> {
  const rows = await rawRows<{ events: string; deliveryId: string | null; organizationId: string; eventType: string; url: string }>(
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
     )
     select (select count(*) from marked) as events, fan.id as "deliveryId", fan.organization_id as "organizationId",
            fan.type as "eventType", fan.url
       from (select 1) one left join fan on true
      order by fan.created_at, fan.event_id, fan.subscription_id`,
    [batch, now, now, now],
  );
  return {
    events: Number(rows[0]?.events ?? 0),
    deliveries: rows.filter((r) => r.deliveryId !== null).map((r) => ({ deliveryId: r.deliveryId!, organizationId: r.organizationId, eventType: r.eventType, url: r.url })),
  };
}
