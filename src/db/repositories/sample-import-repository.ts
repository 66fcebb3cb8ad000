import type { EntityManager } from '@mikro-orm/postgresql';
import { readingReasonClass } from '../../domain/reason-class';
import { rawRows } from '../raw-sql';
import { FLIP_KEY, type NewSample } from './samples-repository';

/** What storing an import changed: how many samples were new, and the span they cover. */
export interface StoredImport {
  stored: number;
  earliest: Date | null;
  newest: Date | null;
}

/**
 * Stores one metric's imported samples (`imported = true`, `received_at` = `now`, each with its
 * reason class) in one statement. A sample already stored for the metric at that instant, by an
 * earlier import or live, is skipped, so a re-import stores nothing and counts nothing twice: only
 * the new rows are counted into metric_daily_rollups. Status flips are rebuilt afterwards
 * (rebuildFlipsFrom), within the same transaction.
 */
export async function storeImportedSamples(em: EntityManager, organizationId: string, metricId: string, samples: readonly NewSample[], now: Date): Promise<StoredImport> {
  if (!samples.length) return { stored: 0, earliest: null, newest: null };
  const records = samples.map((s) => ({ t: s.sampledAt.toISOString(), v: s.value, s: s.status, r: s.reason, c: readingReasonClass(s.status, s.reason) }));
  const [row] = await rawRows<{ stored: number; earliest: string | Date | null; newest: string | Date | null }>(
    em,
    `with new_samples as (
       insert into metric_samples (metric_id, organization_id, sampled_at, value, status, reason, reason_class, received_at, imported)
       select ?::uuid, ?::uuid, sample.t, sample.v, sample.s, sample.r, sample.c, ?::timestamptz, true
       from json_to_recordset(?::json) as sample(t timestamptz, v float8, s text, r text, c text)
       on conflict do nothing
       returning sampled_at, status
     ),
     day_rollups as (
       insert into metric_daily_rollups as rollup (metric_id, organization_id, day, samples, healthy, degraded, unhealthy, no_data)
       select ?::uuid, ?::uuid, (sampled_at at time zone 'UTC')::date, count(*), count(*) filter (where status = 'healthy'), count(*) filter (where status = 'degraded'),
              count(*) filter (where status = 'unhealthy'), count(*) filter (where status = 'no_data')
       from new_samples group by 3 order by 3
       on conflict (metric_id, day) do update set samples = rollup.samples + excluded.samples, healthy = rollup.healthy + excluded.healthy,
         degraded = rollup.degraded + excluded.degraded, unhealthy = rollup.unhealthy + excluded.unhealthy, no_data = rollup.no_data + excluded.no_data
       returning 1
     )
     select count(*)::int as stored, min(sampled_at) as earliest, max(sampled_at) as newest from new_samples`,
    [metricId, organizationId, now.toISOString(), JSON.stringify(records), metricId, organizationId],
  );
  const date = (v: string | Date | null) => (v === null ? null : new Date(v));
  return { stored: Number(row!.stored), earliest: date(row!.earliest), newest: date(row!.newest) };
}

/**
 * Rebuilds a metric's status flips from `from` on out of its stored samples, in one statement,
 * by the live rule (storeSamples): walked in time order from the state the last flip before
 * `from` left (none: `no_data`, a measurement gap), every change of status, or of reason class
 * within `no_data`, is a flip. The flips from `from` on are replaced; none of them is an event
 * (it is history). The metric's latest outcome moves only when a sample is newer than its
 * `last_sample_at`; `status_since` follows the rebuilt flips. The caller holds the metric's row
 * lock (lockMetric) in the same transaction, taken before this statement so that its snapshot
 * sees every sample committed before the lock. Answers how many flips the rebuilt span holds.
 */
export async function rebuildFlipsFrom(em: EntityManager, organizationId: string, metricId: string, from: Date, now: Date): Promise<number> {
  const at = from.toISOString();
  const [row] = await rawRows<{ flips: number }>(
    em,
    `with start_state as (
       select to_status as status, reason_class from metric_status_flips where metric_id = ?::uuid and at < ?::timestamptz order by at desc, id desc limit 1
     ),
     history as (
       select sample.sampled_at, sample.value, sample.status, sample.reason, sample.reason_class, ${FLIP_KEY('sample')} as flip_key
       from metric_samples sample where sample.metric_id = ?::uuid and sample.sampled_at >= ?::timestamptz
     ),
     walked as (
       select history.*, coalesce(lag(history.status) over in_time, (select status from start_state), 'no_data') as before,
              coalesce(lag(history.flip_key) over in_time, (select ${FLIP_KEY('start_state')} from start_state), 'no_data/measurement') as key_before
       from history window in_time as (order by history.sampled_at)
     ),
     flips as (select before as from_status, status as to_status, value, reason, reason_class, sampled_at as at from walked where flip_key <> key_before),
     replaced as (delete from metric_status_flips where metric_id = ?::uuid and at >= ?::timestamptz returning 1),
     stored_flips as (
       insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, reason_class, at)
       select gen_random_uuid(), ?::uuid, ?::uuid, from_status, to_status, value, reason, reason_class, at from flips
       returning 1
     ),
     newest as (select * from history order by sampled_at desc limit 1),
     outcome as (
       update metrics metric set
         status = case when ${ADVANCES} then newest.status else metric.status end,
         current_value = case when ${ADVANCES} then newest.value else metric.current_value end,
         reason = case when ${ADVANCES} then newest.reason else metric.reason end,
         reason_class = case when ${ADVANCES} then newest.reason_class else metric.reason_class end,
         last_sample_at = case when ${ADVANCES} then newest.sampled_at else metric.last_sample_at end,
         status_since = coalesce(
           (select max(at) from flips where from_status <> to_status),
           (select max(at) from metric_status_flips where metric_id = ?::uuid and at < ?::timestamptz and from_status <> to_status),
           metric.status_since),
         updated_at = case when ${ADVANCES} then greatest(metric.updated_at, ?::timestamptz) else metric.updated_at end
       from newest where metric.id = ?::uuid
       returning 1
     )
     select (select count(*)::int from flips) as flips, (select count(*) from replaced) as replaced, (select count(*) from stored_flips) as stored, (select count(*) from outcome) as outcome`,
    [metricId, at, metricId, at, metricId, at, organizationId, metricId, metricId, at, now.toISOString(), metricId],
  );
  return Number(row!.flips);
}

/** Whether the import's newest sample is newer than the metric's latest outcome (SET expressions read the row before the update). */
const ADVANCES = `newest.sampled_at > coalesce(metric.last_sample_at, '-infinity')`;

/** Takes the metric's row lock for the caller's transaction (the lock live ingest queues on). */
export async function lockMetric(em: EntityManager, metricId: string): Promise<boolean> {
  return (await rawRows(em, `select id from metrics where id = ?::uuid and deleted_at is null for update`, [metricId])).length > 0;
}
