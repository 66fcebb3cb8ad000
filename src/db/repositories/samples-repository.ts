import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray, rawRows, rawRun } from '../raw-sql';

/** A sample to store, its status already evaluated. */
export interface NewSample {
  metricId: string;
  sampledAt: Date;
  value: number | null;
  status: string;
  reason: string | null;
}

/** A change of status a stored batch made. */
export interface StoredFlip {
  metric_id: string;
  at: Date;
}

/** What a flip's `metric.status_changed` event needs besides the rows (see storeSamples). */
export interface FlipEventTerms {
  /** Source types whose metrics have `mode` push. */
  pushSourceTypes: readonly string[];
  /** reason, reason_label and reason_hint of each no_data reason in the batch (with `no_data`). */
  reasons: Record<string, { reason: string | null; reason_label: string | null; reason_hint: string | null }>;
}

const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The metric as GET /v1/metrics/{id} shows it (metricView), right after the flip, plus
 * `previous_status`: the flip's event payload, built here so the whole batch is one statement.
 * test/api/ingest.test.ts holds it equal to the API's view.
 */
const FLIP_EVENT_PAYLOAD = `jsonb_build_object(
  'id', l.id, 'service_id', l.service_id, 'name', l.name, 'source_type', l.source_type, 'source_config', l.source_config, 'thresholds', l.thresholds,
  'interval_seconds', l.interval_seconds, 'agent_id', l.agent_id,
  'mode', case when l.source_type = any(?::text[]) then 'push' when l.agent_id is not null then 'agent' else 'cloud' end,
  'unit', l.unit, 'status', f.to_status, 'current_value', case when f.to_status = 'no_data' then null else f.value end,
  'reason', d.reason, 'reason_label', d.reason_label, 'reason_hint', d.reason_hint,
  'last_sample_at', ${iso('f.at')}, 'status_since', ${iso('f.at')}, 'created_at', ${iso('l.created_at')},
  'updated_at', ${iso('greatest(l.updated_at, ?::timestamptz)')}, 'deleted_at', ${iso('l.deleted_at')}, 'previous_status', f.from_status)`;

/**
 * Stores a batch of one organization's samples in one statement, so that outside a transaction
 * it commits on its own and the metrics' row locks are never held across a round trip:
 *  - `ins`: the samples, minus those already stored for the same metric and instant (a retried
 *    batch changes nothing);
 *  - `roll`: their per-day status counts into metric_daily_rollups. `locked` reads its count so
 *    that it runs first, before the metric locks are taken (unread, it would run last);
 *  - `locked`: the metrics that got new samples, locked in id order (concurrent batches of one
 *    metric queue here, then read what the other committed; id order never deadlocks);
 *  - `seq` / `flip`: each metric's new samples from its latest one on, in time order: every
 *    change of status from the stored one is a flip (older samples are kept and counted, but
 *    change nothing);
 *  - `upd`: the newest sample becomes the metric's latest outcome;
 *  - `fl`: the flips into metric_status_flips, and `ev` each as a `metric.status_changed` event
 *    into the outbox (the same rows recordEvent writes).
 * Answers the flips.
 */
export async function storeSamples(em: EntityManager, organizationId: string, samples: readonly NewSample[], now: Date, terms: FlipEventTerms): Promise<StoredFlip[]> {
  if (!samples.length) return [];
  const index = new Map<string, number>();
  const records = samples.map((s) => {
    let i = index.get(s.metricId);
    if (i === undefined) index.set(s.metricId, (i = index.size + 1));
    return { m: i, t: s.sampledAt.toISOString(), v: s.value, s: s.status, r: s.reason };
  });
  const at = now.toISOString();
  const params = [pgArray([...index.keys()]), organizationId, JSON.stringify(records), organizationId, at, organizationId, organizationId, pgArray(terms.pushSourceTypes), at, at, JSON.stringify(terms.reasons)];
  let rows: { metric_id: string; at: string }[];
  // `on conflict do nothing` costs PostgreSQL a third more per row, and only retried batches need
  // it: on its own, the statement first runs without it and again with it when a sample is
  // already there. In the caller's transaction a failed statement would abort it, so it runs
  // with it there.
  if (em.getTransactionContext()) rows = await rawRows(em, STORE_SKIPPING_STORED, params);
  else {
    try {
      rows = await rawRows(em, STORE, params);
    } catch (err) {
      if (!isSampleKeyViolation(err)) throw err;
      rows = await rawRows(em, STORE_SKIPPING_STORED, params);
    }
  }
  // The driver answers timestamps as text.
  return rows.map((r) => ({ metric_id: r.metric_id, at: new Date(r.at) }));
}

/** A sample already stored for the metric at that instant (PostgreSQL unique_violation on a metric_samples partition). */
function isSampleKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; table?: string };
  return e?.code === '23505' && typeof e.table === 'string' && e.table.startsWith('metric_samples');
}

function storeSql(skipStored: boolean): string {
  return `with ins as (
       insert into metric_samples (metric_id, organization_id, sampled_at, value, status, reason)
       select (?::uuid[])[x.m], ?::uuid, x.t, x.v, x.s, x.r from json_to_recordset(?::json) as x(m int, t timestamptz, v float8, s text, r text)
       ${skipStored ? 'on conflict do nothing' : ''}
       returning metric_id, sampled_at, value, status, reason
     ),
     roll as (
       insert into metric_daily_rollups as r (metric_id, organization_id, day, samples, healthy, degraded, unhealthy, no_data)
       select metric_id, ?::uuid, (sampled_at at time zone 'UTC')::date, count(*), count(*) filter (where status = 'healthy'), count(*) filter (where status = 'degraded'),
              count(*) filter (where status = 'unhealthy'), count(*) filter (where status = 'no_data')
       from ins group by 1, 3 order by 1, 3
       on conflict (metric_id, day) do update set samples = r.samples + excluded.samples, healthy = r.healthy + excluded.healthy,
         degraded = r.degraded + excluded.degraded, unhealthy = r.unhealthy + excluded.unhealthy, no_data = r.no_data + excluded.no_data
       returning 1
     ),
     locked as (
       select id, status, last_sample_at, service_id, name, source_type, source_config, thresholds, interval_seconds, agent_id, unit, created_at, updated_at, deleted_at
       from metrics where id in (select metric_id from ins) and (select count(*) from roll) >= 0 order by id for update
     ),
     seq as (
       select i.metric_id, i.sampled_at, i.value, i.status, i.reason, coalesce(lag(i.status) over w, l.status) as before, lead(i.sampled_at) over w is null as newest
       from ins i join locked l on l.id = i.metric_id
       where l.last_sample_at is null or i.sampled_at >= l.last_sample_at
       window w as (partition by i.metric_id order by i.sampled_at)
     ),
     flip as (select metric_id, before as from_status, status as to_status, value, reason, sampled_at as at from seq where status <> before),
     upd as (
       update metrics m set status = s.status, current_value = s.value, reason = s.reason, last_sample_at = s.sampled_at,
         status_since = coalesce((select max(f.at) from flip f where f.metric_id = s.metric_id), m.status_since), updated_at = greatest(m.updated_at, ?::timestamptz)
       from seq s where s.newest and m.id = s.metric_id
     ),
     fl as (
       insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, at)
       select gen_random_uuid(), ?::uuid, metric_id, from_status, to_status, value, reason, at from flip
     ),
     ev as (
       insert into outbox_events (id, organization_id, type, resource_kind, resource_id, payload, created_at, dispatched_at)
       select gen_random_uuid(), ?::uuid, 'metric.status_changed', 'metric', f.metric_id, ${FLIP_EVENT_PAYLOAD}, ?::timestamptz, null
       from flip f join locked l on l.id = f.metric_id
       left join json_to_record(coalesce(?::json -> (case when f.to_status = 'no_data' then coalesce(f.reason, 'no_data') end), '{}')) as d(reason text, reason_label text, reason_hint text) on true
       order by f.metric_id, f.at
     )
     select metric_id, at from flip`;
}

const STORE = storeSql(false);
const STORE_SKIPPING_STORED = storeSql(true);

/** What evaluation needs of a metric (no lock: thresholds only change through the API); `agentId` keeps only the metrics that agent runs. */
export async function metricsForIngest(em: EntityManager, organizationId: string, ids: readonly string[], agentId?: string): Promise<{ id: string; thresholds: Record<string, unknown> | null }[]> {
  if (!ids.length) return [];
  return rawRows(
    em,
    `select id, thresholds from metrics where id = any(?::uuid[]) and organization_id = ? and deleted_at is null${agentId ? ' and agent_id = ?' : ''}`,
    [pgArray(ids), organizationId, ...(agentId ? [agentId] : [])],
  );
}

export interface StoredSample {
  sampled_at: Date;
  value: number | null;
  status: string;
  reason: string | null;
}

export async function recentSamples(em: EntityManager, metricId: string, limit: number): Promise<StoredSample[]> {
  return rawRows(em, `select sampled_at, value, status, reason from metric_samples where metric_id = ? order by sampled_at desc limit ?`, [metricId, limit]);
}

export interface RollupRow {
  metric_id: string;
  day: string;
  samples: number;
  healthy: number;
  degraded: number;
  unhealthy: number;
  no_data: number;
}

/** Per-day counts of the metrics since `fromDay` (YYYY-MM-DD, UTC). */
export async function dailyRollups(em: EntityManager, metricIds: readonly string[], fromDay: string): Promise<RollupRow[]> {
  if (!metricIds.length) return [];
  const rows: (Omit<RollupRow, 'day'> & { day: string | Date })[] = await rawRows(
    em,
    `select metric_id, to_char(day, 'YYYY-MM-DD') as day, samples, healthy, degraded, unhealthy, no_data from metric_daily_rollups where metric_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and day >= ?::date order by day`,
    [JSON.stringify(metricIds), fromDay],
  );
  return rows.map((r) => ({ ...r, day: String(r.day) }));
}

const partitionName = (day: Date) => `metric_samples_${day.toISOString().slice(0, 10).replace(/-/g, '')}`;

/**
 * Makes the daily partitions for `days` days from `from` (UTC) exist. Rows already in the default
 * partition for such a day would block creating it, so they are moved into it first.
 */
export async function ensureSamplePartitions(em: EntityManager, from: Date, days: number): Promise<string[]> {
  const made: string[] = [];
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let i = 0; i < days; i++) {
    const day = new Date(start + i * 86_400_000);
    const next = new Date(day.getTime() + 86_400_000);
    const name = partitionName(day);
    const exists: unknown[] = await rawRows(em, `select 1 from pg_class where relname = ?`, [name]);
    if (exists.length) continue;
    await em.transactional(async (tx) => {
      const t = tx as EntityManager;
      await rawRun(t, `create temporary table moving on commit drop as select * from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`, [day.toISOString(), next.toISOString()]);
      await rawRun(t, `delete from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`, [day.toISOString(), next.toISOString()]);
      await rawRun(t, `create table ${name} partition of metric_samples for values from ('${day.toISOString()}') to ('${next.toISOString()}')`, []);
      await rawRun(t, `insert into metric_samples select * from moving`, []);
    });
    made.push(name);
  }
  return made;
}

/** Drops the daily partitions that end before `before` (sample retention). */
export async function dropSamplePartitionsBefore(em: EntityManager, before: Date): Promise<string[]> {
  const rows: { relname: string }[] = await rawRows(
    em,
    `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'metric_samples' and c.relname ~ '^metric_samples_[0-9]{8}$'`,
    [],
  );
  const cutoff = partitionName(new Date(before.getTime() - 86_400_000));
  const dropped: string[] = [];
  for (const { relname } of rows) {
    if (relname <= cutoff) {
      await rawRun(em, `drop table ${relname}`, []);
      dropped.push(relname);
    }
  }
  return dropped;
}
