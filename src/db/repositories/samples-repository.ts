import type { EntityManager } from '@mikro-orm/postgresql';

/** Runs SQL in the EntityManager's transaction when it has one (a bare execute would not). */
function run<T>(em: EntityManager, sql: string, params: unknown[], method: 'all' | 'run'): Promise<T> {
  return em.getConnection().execute(sql, params, method, em.getTransactionContext()) as Promise<T>;
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

/** The batch as one JSON parameter (knex would expand a JS array into a list of parameters). */
const asJson = (rows: readonly SampleRow[]) =>
  JSON.stringify(rows.map((r) => ({ metric_id: r.metricId, organization_id: r.organizationId, sampled_at: r.sampledAt.toISOString(), value: r.value, status: r.status, reason: r.reason })));

const RECORDS = `jsonb_to_recordset(?::jsonb) as s(metric_id uuid, organization_id uuid, sampled_at timestamptz, value float8, status text, reason text)`;

/**
 * Inserts samples in one statement (the batch travels as one JSON parameter and is unpacked
 * server-side: one round trip whatever the batch size). A sample already stored for the same metric and instant is kept (idempotent
 * retries). Returns how many rows were new.
 */
export async function insertSamples(em: EntityManager, rows: readonly SampleRow[]): Promise<number> {
  if (!rows.length) return 0;
  const res = await run<{ affectedRows: number }>(em, 
    `insert into metric_samples (metric_id, organization_id, sampled_at, value, status, reason)
     select metric_id, organization_id, sampled_at, value, status, reason from ${RECORDS}
     on conflict do nothing`,
    [asJson(rows)],
    'run',
  );
  return res.affectedRows;
}

/** Adds the batch's per-day status counts to metric_daily_rollups (UTC days). */
export async function addToRollups(em: EntityManager, rows: readonly SampleRow[]): Promise<void> {
  if (!rows.length) return;
  await run(em, 
    `insert into metric_daily_rollups as r (metric_id, organization_id, day, samples, healthy, degraded, unhealthy, no_data)
     select metric_id, organization_id, (sampled_at at time zone 'UTC')::date, count(*),
            count(*) filter (where status = 'healthy'), count(*) filter (where status = 'degraded'),
            count(*) filter (where status = 'unhealthy'), count(*) filter (where status = 'no_data')
     from ${RECORDS}
     group by 1, 2, 3
     on conflict (metric_id, day) do update set samples = r.samples + excluded.samples, healthy = r.healthy + excluded.healthy,
       degraded = r.degraded + excluded.degraded, unhealthy = r.unhealthy + excluded.unhealthy, no_data = r.no_data + excluded.no_data`,
    [asJson(rows)],
    'run',
  );
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
  await run(em, 
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
  const rows: (Omit<RollupRow, 'day'> & { day: string | Date })[] = await run(em, 
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
      await run(tx as EntityManager, `create temporary table moving on commit drop as select * from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`, [day.toISOString(), next.toISOString()], 'run');
      await run(tx as EntityManager, `delete from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`, [day.toISOString(), next.toISOString()], 'run');
      await run(tx as EntityManager, `create table ${name} partition of metric_samples for values from ('${day.toISOString()}') to ('${next.toISOString()}')`, [], 'run');
      await run(tx as EntityManager, `insert into metric_samples select * from moving`, [], 'run');
    });
    made.push(name);
  }
  return made;
}

/** Drops the daily partitions that end before `before` (sample retention). */
export async function dropSamplePartitionsBefore(em: EntityManager, before: Date): Promise<string[]> {
  const rows: { relname: string }[] = await run(em, `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'metric_samples' and c.relname ~ '^metric_samples_[0-9]{8}$'`, [], 'all');
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
