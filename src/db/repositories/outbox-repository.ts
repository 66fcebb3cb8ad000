import type { EntityManager } from '@mikro-orm/postgresql';
import { EMAIL_EVENT_TYPES } from '../../domain/status-page/notify-events';
import { ALERT_FANOUT_SQL } from '../alert-fanout-sql';
import { pgArray, rawRows } from '../raw-sql';

/** What starting a delivery's workflow needs. */
export interface DeliveryRef {
  organizationId: string;
  deliveryId: string;
  eventType: string;
  url: string;
}

/** An event that a rule watches: what signalling its alert workflow needs. */
export interface AlertSignalRef {
  signalId: string;
  organizationId: string;
  ruleId: string;
  subjectId: string;
  /** The event's new state fires the rule: start the alert workflow if none runs; otherwise only tell a running one. */
  firing: boolean;
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
 * workflows. The CTEs: `taken_events` (the batch, locked), `dispatched` (marked), `new_deliveries`
 * and `stored_deliveries` (the webhook fan-out), `email_runs` (the runs that owe email). The rules
 * it encodes are listed in docs/hot-paths.md.
 */
export async function dispatchOutbox(
  em: EntityManager,
  now: Date,
  batch = 500,
): Promise<{ events: number; deliveries: DeliveryRef[]; emailRuns: EmailRunRef[]; alertSignals: AlertSignalRef[] }> {
  const [row] = await rawRows<{
    events: number;
    deliveries: DeliveryRef[];
    emailRuns: EmailRunRef[];
    alertSignals: AlertSignalRef[];
  }>(
    em,
    `with taken_events as (
       select id, organization_id, type, created_at, resource_id, payload from outbox_events
        where dispatched_at is null order by created_at limit ? for update skip locked
     ), dispatched as (
       update outbox_events event set dispatched_at = ? from taken_events where event.id = taken_events.id returning event.id
     ), new_deliveries as (
       select gen_random_uuid() as id, event.organization_id, subscription.id as subscription_id, subscription.url, event.id as event_id, event.type, event.created_at
         from taken_events event join webhook_subscriptions subscription
           on subscription.organization_id = event.organization_id and subscription.deleted_at is null and subscription.disabled_at is null
          and event.type = any(subscription.event_types)
     ), stored_deliveries as (
       insert into webhook_deliveries (id, organization_id, subscription_id, event_id, event_type, state, attempt_count, created_at, updated_at)
       select id, organization_id, subscription_id, event_id, type, 'pending', 0, ?, ? from new_deliveries
     ), email_runs as (
       insert into notification_runs (event_id, organization_id, event_type, created_at)
       select event.id, event.organization_id, event.type, ? from taken_events event
        where event.type = any(?::text[]) and event.created_at > ?::timestamptz - interval '2 days'
          and (event.type like 'subscriber.%'
               or exists (select 1 from status_page_subscribers subscriber where subscriber.organization_id = event.organization_id and subscriber.state = 'confirmed'))
       on conflict (event_id) do nothing
       returning event_id
     ), alert_fanout as (
${ALERT_FANOUT_SQL}     )
     select (select count(*) from dispatched)::int as events,
            coalesce((select json_agg(json_build_object('deliveryId', id, 'organizationId', organization_id, 'eventType', type, 'url', url)
                                      order by created_at, event_id, subscription_id) from new_deliveries), '[]') as deliveries,
            coalesce((select json_agg(json_build_object('eventId', event.id, 'organizationId', event.organization_id, 'eventType', event.type)
                                      order by event.created_at, event.id) from email_runs join taken_events event on event.id = email_runs.event_id), '[]') as "emailRuns",
            coalesce((select json_agg(json_build_object('signalId', id, 'organizationId', organization_id, 'ruleId', rule_id, 'subjectId', subject_id, 'firing', firing)
                                      order by created_at, id) from alert_fanout), '[]') as "alertSignals"`,
    [batch, now, now, now, now, pgArray([...EMAIL_EVENT_TYPES]), now, now],
  );
  return row ?? { events: 0, deliveries: [], emailRuns: [], alertSignals: [] };
}
