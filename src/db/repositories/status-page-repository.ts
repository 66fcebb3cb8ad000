import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows, rawRun } from '../raw-sql';

/** One pending email per subscriber for the event; rows that exist stay (idempotent). */
export async function insertPendingEmails(
  em: EntityManager,
  e: { organizationId: string; eventId: string; subscriberIds: readonly string[]; now: Date },
): Promise<number> {
  if (!e.subscriberIds.length) return 0;
  return rawRun(
    em,
    `insert into subscriber_emails (id, organization_id, event_id, subscriber_id, state, attempts, next_attempt_at, created_at)
     select gen_random_uuid(), ?, ?, s::uuid, 'pending', 0, ?, ? from jsonb_array_elements_text(?::jsonb) as s
     on conflict (event_id, subscriber_id) do nothing`,
    [e.organizationId, e.eventId, e.now, e.now, JSON.stringify(e.subscriberIds)],
  );
}

/** Live pages of the organization whose layout shows any of these components. */
export async function pageIdsShowing(
  em: EntityManager,
  organizationId: string,
  refs: readonly { kind: string; id: string }[],
): Promise<string[]> {
  if (!refs.length) return [];
  const rows = await rawRows<{ id: string }>(
    em,
    `select id from status_pages where organization_id = ? and deleted_at is null
       and layout @> any (select jsonb_build_object('groups', jsonb_build_array(jsonb_build_object('components', jsonb_build_array(c)))) from jsonb_array_elements(?::jsonb) c)`,
    [organizationId, JSON.stringify(refs.map((r) => ({ kind: r.kind, id: r.id })))],
  );
  return rows.map((r) => r.id);
}
