import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray, rawRows } from '../raw-sql';

/** Which of these cloud location ids have ever registered (probe_locations, any installation). */
export async function registeredLocationIds(em: EntityManager, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await rawRows<{ id: string }>(em, `select distinct id from probe_locations where id = any(?::text[])`, [
    pgArray(ids),
  ]);
  return new Set(rows.map((r) => r.id));
}

/** Labels of these locations (cloud ids, `agent:<id>` of the organization) and which cloud ones are offline now. */
export async function locationDirectory(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
  now: Date,
): Promise<{ labels: Map<string, string>; offline: Set<string> }> {
  const labels = new Map<string, string>();
  const offline = new Set<string>();
  if (!ids.length) return { labels, offline };
  const cloud = ids.filter((id) => !id.startsWith('agent:'));
  const agents = ids.filter((id) => id.startsWith('agent:')).map((id) => id.slice('agent:'.length));
  if (cloud.length) {
    const rows = await rawRows<{ id: string; label: string; online: boolean }>(
      em,
      `select distinct on (id) id, label, last_seen_at > ?::timestamptz - make_interval(secs => 3 * heartbeat_seconds) as online
       from probe_locations where id = any(?::text[]) order by id, last_seen_at desc`,
      [now.toISOString(), pgArray(cloud)],
    );
    for (const r of rows) {
      labels.set(r.id, r.label);
      if (!r.online) offline.add(r.id);
    }
  }
  if (agents.length) {
    const rows = await rawRows<{ id: string; name: string }>(
      em,
      `select id::text, name from agents where organization_id = ? and id::text = any(?::text[])`,
      [organizationId, pgArray(agents)],
    );
    for (const r of rows) labels.set(`agent:${r.id}`, r.name);
  }
  return { labels, offline };
}

export interface FlipRow {
  id: string;
  metric_id: string;
  from_status: string;
  to_status: string;
  value: number | null;
  reason: string | null;
  reason_class: string | null;
  at: Date;
  confirmed_at: Date | null;
  confirmations: number | null;
  votes: unknown[] | null;
}

/** A metric's flips, newest first, keyset-paged on (at, id). */
export async function metricFlipsPage(
  em: EntityManager,
  organizationId: string,
  metricId: string,
  limit: number,
  after: { at: string; id: string } | null,
): Promise<FlipRow[]> {
  return rawRows<FlipRow>(
    em,
    `select id, metric_id, from_status, to_status, value, reason, reason_class, at, confirmed_at, confirmations, votes from metric_status_flips
     where organization_id = ? and metric_id = ?${after ? ' and (at, id) < (?::timestamptz, ?::uuid)' : ''}
     order by at desc, id desc limit ?`,
    [organizationId, metricId, ...(after ? [after.at, after.id] : []), limit],
  );
}
