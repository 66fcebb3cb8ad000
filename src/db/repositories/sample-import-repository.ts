import type { EntityManager } from '@mikro-orm/postgresql';
import { AGENT_LOCATION_PREFIX } from '../../domain/confirmation';
import { readingReasonClass } from '../../domain/reason-class';
import { pgArray, rawRows } from '../raw-sql';
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
export async function storeImportedSamples(
  em: EntityManager,
  organizationId: string,
  metricId: string,
  samples: readonly NewSample[],
  now: Date,
): Promise<StoredImport> {
  if (!samples.length) return { stored: 0, earliest: null, newest: null };
  const records = samples.map((s) => ({
    t: s.sampledAt.toISOString(),
    v: s.value,
    s: s.status,
    r: s.reason,
    c: readingReasonClass(s.status, s.reason),
  }));
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
 * Rebuilds metrics' status flips from a point on out of their stored samples, in one statement
 * for every metric given, by the live rule (storeSamples): each metric's samples are walked in
 * time order with its confirmation (`vigil_confirm`) from the state the last flip before
 * the walk left (none: `no_data`, a measurement gap). The walk starts at `from`, or earlier at
 * the start of the metric's pending confirmation (its rounds still count). The flips from there
 * on are replaced; a rebuilt flip at the same instant and status as a replaced one keeps that
 * one's votes (a cloud round's evidence lives only on its flip); an agent metric's rounds are
 * its samples, so their votes are rebuilt from them. None is an event (it is history). The
 * metrics' latest outcome and pending confirmation come from the walk when it reaches their
 * latest sample; `status_since` follows the rebuilt flips. The caller holds the metrics' row
 * locks (lockMetrics) in the same transaction, taken before this statement so that its snapshot
 * sees every sample committed before the locks. Answers how many flips each rebuilt span holds.
 */
export async function rebuildFlips(
  em: EntityManager,
  organizationId: string,
  starts: readonly { metricId: string; from: Date }[],
  now: Date,
): Promise<Map<string, number>> {
  if (!starts.length) return new Map();
  const given = starts.map((x) => ({ m: x.metricId, f: x.from.toISOString() }));
  const rows = await rawRows<{ metric_id: string; flips: number }>(
    em,
    `with given as (select m as metric_id, f as from_at from json_to_recordset(?::json) as g(m uuid, f timestamptz)),
     walk_start as (
       select metric.id as metric_id, least(given.from_at, coalesce(metric.pending_since, given.from_at)) as start_at, metric.agent_id,
              coalesce((metric.confirmation->>'failures')::int, 1) as failures, coalesce((metric.confirmation->>'recoveries')::int, 1) as recoveries
       from given join metrics metric on metric.id = given.metric_id and metric.organization_id = ?::uuid
     ),
     start_state as (
       select w.metric_id, coalesce(${FLIP_KEY('last')}, 'no_data/measurement') as flip_key, last.reason
       from walk_start w left join lateral (
         select to_status as status, reason_class, reason from metric_status_flips f where f.metric_id = w.metric_id and f.at < w.start_at order by f.at desc, f.id desc limit 1
       ) last on true
     ),
     history as (
       select sample.metric_id, sample.sampled_at, sample.value, sample.status, sample.reason, sample.reason_class, ${FLIP_KEY('sample')} as flip_key,
              case when w.agent_id is null then null else '${AGENT_LOCATION_PREFIX}' || w.agent_id end as voter
       from walk_start w join metric_samples sample on sample.metric_id = w.metric_id and sample.sampled_at >= w.start_at
     ),
     walked as (
       select history.*, vigil_confirm(history.flip_key, history.sampled_at, history.reason, null::jsonb, history.voter, history.value, history.status, st.flip_key, st.reason, null, 0, null, null, w.failures, w.recoveries)
                over in_time as c,
              lead(history.sampled_at) over in_time is null as newest
       from history join walk_start w using (metric_id) join start_state st using (metric_id)
       window in_time as (partition by history.metric_id order by history.sampled_at rows between unbounded preceding and current row)
     ),
     flips as (
       select metric_id, split_part((c).flip_from, '/', 1) as from_status, status as to_status, value, reason, reason_class, (c).flip_at as at, sampled_at as confirmed_at,
              (c).rounds as confirmations, (c).flip_evidence as votes
       from walked where (c).flipped
     ),
     replaced as (
       delete from metric_status_flips f using walk_start w where f.metric_id = w.metric_id and f.at >= w.start_at
       returning f.metric_id, f.at, f.to_status, f.votes, f.confirmed_at, f.confirmations
     ),
     stored_flips as (
       insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, reason_class, at, votes, confirmations, confirmed_at)
       select gen_random_uuid(), ?::uuid, flip.metric_id, flip.from_status, flip.to_status, flip.value, flip.reason, flip.reason_class, flip.at,
              coalesce(old.votes, flip.votes), coalesce(old.confirmations, flip.confirmations), coalesce(old.confirmed_at, flip.confirmed_at)
       from flips flip left join replaced old on old.metric_id = flip.metric_id and old.at = flip.at and old.to_status = flip.to_status and old.votes is not null
       returning 1
     ),
     outcome as (
       update metrics metric set
         status = case when ${ADVANCES} then split_part((newest.c).confirmed, '/', 1) else metric.status end,
         current_value = case when ${ADVANCES} then newest.value else metric.current_value end,
         reason = case when ${ADVANCES} then (newest.c).reason else metric.reason end,
         reason_class = case when ${ADVANCES} then nullif(split_part((newest.c).confirmed, '/', 2), '') else metric.reason_class end,
         pending_key = case when ${ADVANCES} then (newest.c).pending else metric.pending_key end,
         pending_count = case when ${ADVANCES} then (newest.c).count else metric.pending_count end,
         pending_since = case when ${ADVANCES} then (newest.c).since else metric.pending_since end,
         pending_evidence = case when ${ADVANCES} then (case when (newest.c).pending is null then null else (newest.c).evidence end) else metric.pending_evidence end,
         last_sample_at = greatest(newest.sampled_at, metric.last_sample_at),
         status_since = coalesce(
           (select max(f.at) from flips f where f.metric_id = metric.id and f.from_status <> f.to_status),
           (select max(f.at) from metric_status_flips f join walk_start w on w.metric_id = f.metric_id where f.metric_id = metric.id and f.at < w.start_at and f.from_status <> f.to_status),
           metric.status_since),
         updated_at = case when newest.sampled_at > coalesce(metric.last_sample_at, '-infinity') then greatest(metric.updated_at, ?::timestamptz) else metric.updated_at end
       from walked newest where newest.newest and metric.id = newest.metric_id
       returning 1
     )
     select w.metric_id, (select count(*)::int from flips f where f.metric_id = w.metric_id) as flips,
            (select count(*) from replaced) + (select count(*) from stored_flips) + (select count(*) from outcome) as touched
     from walk_start w`,
    [JSON.stringify(given), organizationId, organizationId, now.toISOString()],
  );
  return new Map(rows.map((r) => [r.metric_id, Number(r.flips)]));
}

/** rebuildFlips for one metric. */
export async function rebuildFlipsFrom(
  em: EntityManager,
  organizationId: string,
  metricId: string,
  from: Date,
  now: Date,
): Promise<number> {
  return (await rebuildFlips(em, organizationId, [{ metricId, from }], now)).get(metricId) ?? 0;
}

/**
 * Whether the walk's newest sample is the metric's latest outcome (or newer): then the walk's
 * state is the metric's. SET expressions read the row before the update.
 */
const ADVANCES = `newest.sampled_at >= coalesce(metric.last_sample_at, '-infinity')`;

/** Takes the row locks of these live metrics for the caller's transaction, in id order (as live ingest takes them); answers the ids locked. */
export async function lockMetrics(em: EntityManager, metricIds: readonly string[]): Promise<string[]> {
  if (!metricIds.length) return [];
  const rows = await rawRows<{ id: string }>(
    em,
    `select id from metrics where id = any(?::uuid[]) and deleted_at is null order by id for update`,
    [pgArray(metricIds)],
  );
  return rows.map((r) => r.id);
}

/** Takes the metric's row lock for the caller's transaction (the lock live ingest queues on). */
export async function lockMetric(em: EntityManager, metricId: string): Promise<boolean> {
  return (
    (await rawRows(em, `select id from metrics where id = ?::uuid and deleted_at is null for update`, [metricId]))
      .length > 0
  );
}
