import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows, rawRun } from '../raw-sql';

/** One pending email per subscriber for the event; rows that exist stay (idempotent). */
export async function insertPendingEmails(em: EntityManager, e: { organizationId: string; eventId: string; subscriberIds: readonly string[]; now: Date }): Promise<number> {
  if (!e.subscriberIds.length) return 0;
  return rawRun(
    em,
    `insert into subscriber_emails (id, organization_id, event_id, subscriber_id, state, attempts, next_attempt_at, created_at)
     select gen_random_uuid(), ?, ?, s::uuid, 'pending', 0, ?, ? from jsonb_array_elements_text(?::jsonb) as s
     on conflict (event_id, subscriber_id) do nothing`,
    [e.organizationId, e.eventId, e.now, e.now, JSON.stringify(e.subscriberIds)],
  );
}

/** Matches the partial index outbox_events_email_index, so claiming never scans other events. */
const EMAIL_TYPES_PREDICATE = `(e.type like 'incident.%' or e.type like 'maintenance.%' or e.type like 'subscriber.%')`;

/**
 * Inserts a notification run for each recent event of these types that has none yet (the
 * primary key settles races between relays), in organizations with a confirmed subscriber
 * (`subscriber.*` events always); returns the runs claimed.
 */
export async function claimNotificationRuns(
  em: EntityManager,
  types: readonly string[],
  now: Date,
  limit: number,
): Promise<{ event_id: string; organization_id: string; event_type: string }[]> {
  return rawRows(
    em,
    `insert into notification_runs (event_id, organization_id, event_type, created_at)
     select e.id, e.organization_id, e.type, ? from outbox_events e
      where ${EMAIL_TYPES_PREDICATE} and e.type in (select jsonb_array_elements_text(?::jsonb)) and e.created_at > ?::timestamptz - interval '2 days'
        and not exists (select 1 from notification_runs r where r.event_id = e.id)
        and (e.type like 'subscriber.%' or exists (select 1 from status_page_subscribers s where s.organization_id = e.organization_id and s.state = 'confirmed'))
      order by e.created_at limit ?
     on conflict (event_id) do nothing
     returning event_id, organization_id, event_type`,
    [now, JSON.stringify(types), now, limit],
  );
}

/** Live pages of the organization whose layout shows any of these components. */
export async function pageIdsShowing(em: EntityManager, organizationId: string, refs: readonly { kind: string; id: string }[]): Promise<string[]> {
  if (!refs.length) return [];
  const rows = await rawRows<{ id: string }>(
    em,
    `select id from status_pages where organization_id = ? and deleted_at is null
       and layout @> any (select jsonb_build_object('groups', jsonb_build_array(jsonb_build_object('components', jsonb_build_array(c)))) from jsonb_array_elements(?::jsonb) c)`,
    [organizationId, JSON.stringify(refs.map((r) => ({ kind: r.kind, id: r.id })))],
  );
  return rows.map((r) => r.id);
}
