import type { EntityManager } from '@mikro-orm/postgresql';
import { CLOUD_SOURCE_TYPES } from '../../domain/source-types';
import { type LocationHeartbeat, MISSED_HEARTBEATS_OFFLINE, heartbeatSeenAt } from '../../domain/locations';
import { pgArray, rawRows, rawRun } from '../raw-sql';

/**
 * The probe locations of an installation (its main Temporal task queue), as their heartbeats
 * left them (table probe_locations), and what GET /v1/locations reads.
 */

/**
 * One heartbeat: the location's row is created or refreshed. `last_seen_at` is the time the
 * heartbeat was sent, never later than `now` and never moving back (a late, replayed heartbeat
 * cannot make a location look younger or older than it is). A stopping heartbeat marks it stopped.
 */
export async function recordHeartbeat(
  em: EntityManager,
  taskQueue: string,
  hb: LocationHeartbeat,
  now: Date,
): Promise<void> {
  const seen = heartbeatSeenAt(hb.at, now);
  const started = hb.startedAt ? heartbeatSeenAt(hb.startedAt, now) : seen;
  await rawRun(
    em,
    `insert into probe_locations (task_queue, id, label, version, heartbeat_seconds, started_at, last_seen_at, stopped_at)
     values (?, ?, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz)
     on conflict (task_queue, id) do update set
       label = excluded.label, version = excluded.version, heartbeat_seconds = excluded.heartbeat_seconds,
       started_at = case when excluded.last_seen_at >= probe_locations.last_seen_at then excluded.started_at else probe_locations.started_at end,
       stopped_at = case when excluded.last_seen_at >= probe_locations.last_seen_at then excluded.stopped_at else probe_locations.stopped_at end,
       last_seen_at = greatest(probe_locations.last_seen_at, excluded.last_seen_at)`,
    [
      taskQueue,
      hb.id,
      hb.label,
      hb.version,
      hb.heartbeatSeconds,
      started.toISOString(),
      seen.toISOString(),
      hb.stopping ? seen.toISOString() : null,
    ],
  );
}

/** The installation's cloud locations online at `now` (last heartbeat younger than 3 heartbeats, not stopped), by id. */
export async function onlineLocations(
  em: EntityManager,
  taskQueue: string,
  now: Date,
): Promise<{ id: string; label: string }[]> {
  return rawRows<{ id: string; label: string }>(
    em,
    `select id, label from probe_locations
     where task_queue = ? and stopped_at is null and last_seen_at > ?::timestamptz - make_interval(secs => ? * heartbeat_seconds)
     order by id`,
    [taskQueue, now.toISOString(), MISSED_HEARTBEATS_OFFLINE],
  );
}

export interface LocationRow {
  kind: 'cloud' | 'agent';
  /** A cloud location's id, or `agent:<agent id>`. */
  id: string;
  label: string;
  version: string | null;
  /** Cloud locations only. */
  heartbeatSeconds: number | null;
  lastSeenAt: Date | null;
  stoppedAt: Date | null;
}

/**
 * One page of the locations an organization sees, by id: the installation's cloud locations and
 * the organization's agents that are not revoked (as `agent:<id>`, labelled with their name).
 */
export async function locationPage(
  em: EntityManager,
  q: { taskQueue: string; organizationId: string; afterId: string | null; limit: number },
): Promise<LocationRow[]> {
  const rows = await rawRows<{
    kind: 'cloud' | 'agent';
    id: string;
    label: string;
    version: string | null;
    heartbeat_seconds: number | null;
    last_seen_at: Date | string | null;
    stopped_at: Date | string | null;
  }>(
    em,
    `select * from (
       select 'cloud' as kind, id, label, version, heartbeat_seconds, last_seen_at, stopped_at from probe_locations where task_queue = ?
       union all
       select 'agent', 'agent:' || id::text, name, version, null, last_seen_at, null from agents where organization_id = ? and revoked_at is null
     ) l
     where ?::text is null or l.id collate "C" > ?::text
     order by l.id collate "C"
     limit ?`,
    [q.taskQueue, q.organizationId, q.afterId, q.afterId, q.limit],
  );
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return rows.map((r) => ({
    kind: r.kind,
    id: r.id,
    label: r.label,
    version: r.version,
    heartbeatSeconds: r.heartbeat_seconds,
    lastSeenAt: date(r.last_seen_at),
    stoppedAt: date(r.stopped_at),
  }));
}

/** How many of an organization's live metrics name each location, and how many cloud metrics leave it to the default (`cloudDefault`). */
export interface LocationMetricCounts {
  /** Metrics naming the location in `locations`, and agent metrics with the default (keyed `agent:<id>`). */
  named: Map<string, number>;
  /** Cloud metrics without `locations`: measured by every online cloud location. */
  cloudDefault: number;
}

export async function locationMetricCounts(em: EntityManager, organizationId: string): Promise<LocationMetricCounts> {
  const rows = await rawRows<{ loc: string; n: number }>(
    em,
    `select loc, count(*)::int as n from (
       select unnest(locations) as loc from metrics where organization_id = ? and deleted_at is null and locations is not null
       union all
       select 'agent:' || agent_id::text from metrics where organization_id = ? and deleted_at is null and locations is null and agent_id is not null
       union all
       select '*' from metrics where organization_id = ? and deleted_at is null and locations is null and agent_id is null and source_type = any(?::text[])
     ) t group by loc`,
    [organizationId, organizationId, organizationId, pgArray([...CLOUD_SOURCE_TYPES])],
  );
  const named = new Map(rows.filter((r) => r.loc !== '*').map((r) => [r.loc, r.n]));
  return { named, cloudDefault: rows.find((r) => r.loc === '*')?.n ?? 0 };
}
