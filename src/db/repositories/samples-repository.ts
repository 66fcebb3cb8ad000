import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows, rawRun } from '../raw-sql';

async function run<T>(em: EntityManager, sql: string, params: unknown[], method: 'all' | 'run'): Promise<T> {
  return (method === 'all' ? await rawRows(em, sql, params) : { affectedRows: await rawRun(em, sql, params) }) as T;
}

/** One stored measurement (metric_samples). */
export interface SampleRow {
  metricId: string;
  organizationId: string;
  sampledAt: Date;
  value: number | null;
  status: string;
  reason: string | null;
}

const RECORDS = `jsonb_to_recordset(?::jsonb) as s(metric_id uuid, organization_id uuid, sampled_at timestamptz, value float8, status text, reason text)`;

const sampleKey = (metricId: string, at: Date | string) => `${metricId}|${new Date(at).getTime()}`;

/**
 * Inserts samples in one statement and answers the ones that were new: a sample already stored
 * for the same metric and instant is kept as it was (a retried batch changes nothing).
 */
export async function insertSamples(em: EntityManager, rows: readonly SampleRow[]): Promise<SampleRow[]> {
  if (!rows.length) return [];
  const json = JSON.stringify(rows.map((r) => ({ metric_id: r.metricId, organization_id: r.organizationId, sampled_at: r.sampledAt.toISOString(), value: r.value, status: r.status, reason: r.reason })));
  const inserted = await run<{ metric_id: string; sampled_at: Date }[]>(
    em,
    `insert into metric_samples (metric_id, organization_id, sampled_at, value, status, reason)
     select metric_id, organization_id, sampled_at, value, status, reason from ${RECORDS}
     on conflict do nothing returning metric_id, sampled_at`,
    [json],
    'all',
  );
  const fresh = new Set(inserted.map((r) => sampleKey(r.metric_id, r.sampled_at)));
  return rows.filter((r) => fresh.has(sampleKey(r.metricId, r.sampledAt)));
}

/** Adds the samples' per-day status counts (UTC days, summed here first) to metric_daily_rollups. */
export async function addToRollups(em: EntityManager, rows: readonly SampleRow[]): Promise<void> {
  if (!rows.length) return;
  const days = new Map<string, { metric_id: string; organization_id: string; day: string; samples: number; healthy: number; degraded: number; unhealthy: number; no_data: number }>();
  for (const r of rows) {
    const day = r.sampledAt.toISOString().slice(0, 10);
    const key = `${r.metricId}|${day}`;
    let d = days.get(key);
    if (!d) days.set(key, (d = { metric_id: r.metricId, organization_id: r.organizationId, day, samples: 0, healthy: 0, degraded: 0, unhealthy: 0, no_data: 0 }));
    d.samples++;
    if (r.status === 'healthy' || r.status === 'degraded' || r.status === 'unhealthy' || r.status === 'no_data') d[r.status]++;
  }
  await run(
    em,
    `insert into metric_daily_rollups as r (metric_id, organization_id, day, samples, healthy, degraded, unhealthy, no_data)
     select * from jsonb_to_recordset(?::jsonb) as x(metric_id uuid, organization_id uuid, day date, samples int, healthy int, degraded int, unhealthy int, no_data int)
     order by 1, 3
     on conflict (metric_id, day) do update set samples = r.samples + excluded.samples, healthy = r.healthy + excluded.healthy,
       degraded = r.degraded + excluded.degraded, unhealthy = r.unhealthy + excluded.unhealthy, no_data = r.no_data + excluded.no_data`,
    [JSON.stringify([...days.values()])],
    'run',
  );
}

/** What evaluation needs of a metric (no lock: thresholds only change through the API). */
export async function metricsForIngest(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<{ id: string; thresholds: Record<string, unknown> | null }[]> {
  if (!ids.length) return [];
  return run(em, `select id, thresholds from metrics where id in (select jsonb_array_elements_text(?::jsonb)::uuid) and organization_id = ? and deleted_at is null`, [JSON.stringify(ids), organizationId], 'all');
}

/** Locks the metrics' rows (in id order, so concurrent batches never deadlock) and reads their latest outcome. */
export async function lockLatest(em: EntityManager, ids: readonly string[]): Promise<{ id: string; status: string; last_sample_at: Date | null }[]> {
  if (!ids.length) return [];
  return run(em, `select id, status, last_sample_at from metrics where id in (select jsonb_array_elements_text(?::jsonb)::uuid) order by id for update`, [JSON.stringify(ids)], 'all');
}

export interface LatestRow {
  metricId: string;
  status: string;
  value: number | null;
  reason: string | null;
  sampledAt: Date;
  /** Set when the status changed with this sample. */
  statusSince: Date | null;
}

/** Moves each metric's latest outcome forward (never backwards: an older sample changes nothing). */
export async function updateLatest(em: EntityManager, rows: readonly LatestRow[], now: Date): Promise<void> {
  if (!rows.length) return;
  await run(
    em,
    `update metrics m set status = u.status, current_value = u.value, reason = u.reason, last_sample_at = u.sampled_at,
       status_since = coalesce(u.status_since, m.status_since), updated_at = greatest(m.updated_at, ?::timestamptz)
     from jsonb_to_recordset(?::jsonb) as u(id uuid, status text, value float8, reason text, sampled_at timestamptz, status_since timestamptz)
     where m.id = u.id and (m.last_sample_at is null or m.last_sample_at <= u.sampled_at)`,
    [
      now.toISOString(),
      JSON.stringify(rows.map((r) => ({ id: r.metricId, status: r.status, value: r.value, reason: r.reason, sampled_at: r.sampledAt.toISOString(), status_since: r.statusSince?.toISOString() ?? null }))),
    ],
    'run',
  );
}

export interface FlipRow {
  id: string;
  organizationId: string;
  metricId: string;
  fromStatus: string;
  toStatus: string;
  value: number | null;
  reason: string | null;
  at: Date;
}

export async function insertFlips(em: EntityManager, flips: readonly FlipRow[]): Promise<void> {
  if (!flips.length) return;
  await run(
    em,
    `insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, at)
     select * from jsonb_to_recordset(?::jsonb) as f(id uuid, organization_id uuid, metric_id uuid, from_status text, to_status text, value float8, reason text, at timestamptz)`,
    [JSON.stringify(flips.map((f) => ({ id: f.id, organization_id: f.organizationId, metric_id: f.metricId, from_status: f.fromStatus, to_status: f.toStatus, value: f.value, reason: f.reason, at: f.at.toISOString() })))],
    'run',
  );
}

export interface StoredSample {
  sampled_at: Date;
  value: number | null;
  status: string;
  reason: string | null;
}

export async function recentSamples(em: EntityManager, metricId: string, limit: number): Promise<StoredSample[]> {
  return run(em, `select sampled_at, value, status, reason from metric_samples where metric_id = ? order by sampled_at desc limit ?`, [metricId, limit], 'all');
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
  const rows: (Omit<RollupRow, 'day'> & { day: string | Date })[] = await run(
    em,
    `select metric_id, to_char(day, 'YYYY-MM-DD') as day, samples, healthy, degraded, unhealthy, no_data from metric_daily_rollups where metric_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and day >= ?::date order by day`,
    [JSON.stringify(metricIds), fromDay],
    'all',
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
    const exists: unknown[] = await run(em, `select 1 from pg_class where relname = ?`, [name], 'all');
    if (exists.length) continue;
    await em.transactional(async (tx) => {
      const t = tx as EntityManager;
      await run(t, `create temporary table moving on commit drop as select * from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`, [day.toISOString(), next.toISOString()], 'run');
      await run(t, `delete from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`, [day.toISOString(), next.toISOString()], 'run');
      await run(t, `create table ${name} partition of metric_samples for values from ('${day.toISOString()}') to ('${next.toISOString()}')`, [], 'run');
      await run(t, `insert into metric_samples select * from moving`, [], 'run');
    });
    made.push(name);
  }
  return made;
}

/** Drops the daily partitions that end before `before` (sample retention). */
export async function dropSamplePartitionsBefore(em: EntityManager, before: Date): Promise<string[]> {
  const rows: { relname: string }[] = await run(
    em,
    `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'metric_samples' and c.relname ~ '^metric_samples_[0-9]{8}$'`,
    [],
    'all',
  );
  const cutoff = partitionName(new Date(before.getTime() - 86_400_000));
  const dropped: string[] = [];
  for (const { relname } of rows) {
    if (relname <= cutoff) {
      await run(em, `drop table ${relname}`, [], 'run');
      dropped.push(relname);
    }
  }
  return dropped;
}
