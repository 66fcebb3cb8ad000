import type { EntityManager } from '@mikro-orm/postgresql';
import { type ReasonClass, readingReasonClass } from '../../domain/reason-class';
import type { Vote } from '../../domain/confirmation';
import { pgArray, pgTextArray, rawRows, rawRun } from '../raw-sql';

/** A sample to store, its status already evaluated. */
export interface NewSample {
  metricId: string;
  sampledAt: Date;
  value: number | null;
  status: string;
  reason: string | null;
  /** The locations' votes of the round this sample stands for (flip evidence, per-location readings). */
  votes?: readonly Vote[] | null;
  /**
   * Or the one location whose own answer the sample is (an agent on its metric): its vote and its
   * reading are the sample's, built by the statement where needed (not sent with every sample).
   */
  voter?: string | null;
}

/** What a stored batch changed: its flips, and per metric the earliest sample older than the metric's latest outcome before the batch (a late sample). */
export interface StoredBatch {
  flips: StoredFlip[];
  late: { metric_id: string; from: Date }[];
}

/** A change of status a stored batch made: `at` is the sample that made it (the confirming round; the flip itself is dated at the first failing one). */
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
/** availabilityOf (domain/reason-class.ts) of a FLIP_KEY. */
const AVAILABILITY = (key: string) =>
  `case when ${key} in ('healthy', 'degraded') then 'up' when ${key} in ('unhealthy', 'no_data/target') then 'down' else 'unmeasured' end`;

/** The metric's status_since right after the flip: it moves with a change of status only, not with a change of class within no_data. */
const STATUS_SINCE_AT_FLIP = `case when flip.from_status <> flip.to_status then flip.at else coalesce((select max(earlier.at) from flips earlier where earlier.metric_id = flip.metric_id and earlier.at < flip.at and earlier.from_status <> earlier.to_status), metric.status_since) end`;

const FLIP_EVENT_PAYLOAD = `jsonb_build_object(
  'id', metric.id, 'service_id', metric.service_id, 'name', metric.name, 'source_type', metric.source_type, 'source_config', metric.source_config, 'thresholds', metric.thresholds,
  'interval_seconds', metric.interval_seconds, 'agent_id', metric.agent_id,
  'mode', case when metric.source_type = any(?::text[]) then 'push' when metric.agent_id is not null then 'agent' else 'cloud' end,
  'unit', metric.unit, 'locations', to_jsonb(metric.locations), 'confirmation', metric.confirmation, 'status', flip.to_status, 'current_value', case when flip.to_status = 'no_data' then null else flip.value end,
  'reason', reason_text.reason, 'reason_label', reason_text.reason_label, 'reason_hint', reason_text.reason_hint, 'reason_class', flip.reason_class,
  'availability', ${AVAILABILITY('flip.flip_key')}, 'previous_availability', ${AVAILABILITY('flip.key_before')},
  'last_sample_at', ${iso('flip.sampled_at')}, 'status_since', ${iso(STATUS_SINCE_AT_FLIP)}, 'created_at', ${iso('metric.created_at')},
  'updated_at', ${iso('greatest(metric.updated_at, ?::timestamptz)')}, 'deleted_at', ${iso('metric.deleted_at')}, 'previous_status', flip.from_status,
  'flip', jsonb_build_object('at', ${iso('flip.at')}, 'confirmed_at', ${iso('flip.sampled_at')}, 'confirmations', flip.confirmations, 'rounds', coalesce(flip.votes, '[]'::jsonb)))`;

/**
 * Stores a batch of one organization's samples in one statement, so that outside a transaction
 * it commits on its own and the metrics' row locks are never held across a round trip
 * (docs/hot-paths.md lists the rules it encodes):
 *  - `batch_metrics` / `incoming`: the batch's metrics with their voter (the location whose own
 *    answer their samples are, an agent), and the samples as sent;
 *  - `new_samples`: the samples, minus those already stored for the same metric and instant (a
 *    retried batch changes nothing);
 *  - `day_rollups`: their per-day status counts into metric_daily_rollups. `locked_metrics` reads
 *    its count so that it runs first, before the metric locks are taken (unread, it would run last);
 *  - `locked_metrics`: the metrics that got new samples, locked in id order (concurrent batches of
 *    one metric queue here, then read what the other committed; id order never deadlocks);
 *  - `arrived` / `samples_in_order` / `flips`: each metric's new samples from its latest one on, in time
 *    order, each with the state before it: every change of status, or of the reason class within
 *    `no_data` (measurement ↔ target: an outage starting or ending), from the stored one is a flip
 *    (older samples are kept and counted here, and answered as `late`: the caller rebuilds that
 *    metric's flips from them, see commitSamples), confirmed by `vigil_confirm` unless the metric
 *    is `steady` (every new sample agrees with its status, nothing pending);
 *  - `latest_outcome`: the newest sample becomes the metric's latest outcome (`status_since`
 *    moves with a change of status only);
 *  - `stored_flips`: the flips into metric_status_flips, and `flip_events` each of them as a
 *    `metric.status_changed` event into the outbox (the same rows recordEvent writes), a change
 *    of class within `no_data` too: its availability changed (an outage starting or ending).
 * Every sample is stored with its reason class (readingReasonClass) and `received_at` = `now`.
 * Answers the flips and the late samples.
 */
export async function storeSamples(
  em: EntityManager,
  organizationId: string,
  samples: readonly NewSample[],
  now: Date,
  terms: FlipEventTerms,
): Promise<StoredBatch> {
  if (!samples.length) return { flips: [], late: [] };
  const index = new Map<string, number>();
  // Only a metric's newest sample of the batch sets its per-location readings.
  const newest = new Map<string, NewSample>();
  // A metric's voter goes once per metric (an agent's batch has one); where its samples differ, each sample's own.
  const voterOf = new Map<string, string | null | typeof MIXED>();
  for (const s of samples) {
    const seen = newest.get(s.metricId);
    if (!seen || seen.sampledAt < s.sampledAt) newest.set(s.metricId, s);
    const voter = voterOf.get(s.metricId);
    if (voter === undefined) voterOf.set(s.metricId, s.voter ?? null);
    else if (voter !== (s.voter ?? null)) voterOf.set(s.metricId, MIXED);
  }
  const voters: (string | null)[] = [];
  const records = samples.map((s) => {
    let i = index.get(s.metricId);
    if (i === undefined) {
      index.set(s.metricId, (i = index.size + 1));
      const voter = voterOf.get(s.metricId);
      voters.push(voter === MIXED || voter === undefined ? null : voter);
    }
    const votes = s.votes?.length ? s.votes : undefined;
    // Absent keys are NULL columns to json_to_recordset: the usual agent sample sends none of them.
    return {
      m: i,
      t: s.sampledAt.toISOString(),
      v: s.value,
      s: s.status,
      r: s.reason,
      c: readingReasonClass(s.status, s.reason),
      vt: votes,
      l: voterOf.get(s.metricId) === MIXED ? (s.voter ?? undefined) : undefined,
      lr: votes && newest.get(s.metricId) === s ? readingsOf(votes) : undefined,
    };
  });
  const at = now.toISOString();
  const ids = pgArray([...index.keys()]);
  const params = [
    ids,
    pgTextArray(voters),
    ids,
    JSON.stringify(records),
    organizationId,
    at,
    organizationId,
    at,
    organizationId,
    organizationId,
    pgArray(terms.pushSourceTypes),
    at,
    at,
    JSON.stringify(terms.reasons),
  ];
  let rows: { metric_id: string; at: string; late: boolean }[];
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
  return {
    flips: rows.filter((r) => !r.late).map((r) => ({ metric_id: r.metric_id, at: new Date(r.at) })),
    late: rows.filter((r) => r.late).map((r) => ({ metric_id: r.metric_id, from: new Date(r.at) })),
  };
}

const MIXED = Symbol('mixed voters');

/** Each location's own answer (before any recheck), as GET /v1/metrics/{id} shows it per location. */
function readingsOf(votes: readonly Vote[]): Record<string, LocationReading> {
  return Object.fromEntries(votes.map((v) => [v.location, locationReading(v)]));
}

/** A location's latest reading as metrics.location_readings keeps it (the statement builds an agent's the same way). */
type LocationReading = { value: number | null; status: string; reason: string | null; at: string };
const locationReading = (v: LocationReading): LocationReading => ({
  value: v.value,
  status: v.status,
  reason: v.reason,
  at: v.at,
});

/** A sample already stored for the metric at that instant (PostgreSQL unique_violation on a metric_samples partition). */
function isSampleKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; table?: string };
  return e?.code === '23505' && typeof e.table === 'string' && e.table.startsWith('metric_samples');
}

/**
 * What a flip compares (see readingReasonClass): the status, and within `no_data` the reason
 * class. A metric's `no_data` before any class was stored (a new metric) is a measurement gap.
 */
export const FLIP_KEY = (row: string) =>
  `case when ${row}.status = 'no_data' then 'no_data/' || coalesce(${row}.reason_class, 'measurement') else ${row}.status end`;

function storeSql(skipStored: boolean): string {
  // Without `on conflict`, every incoming sample was inserted (or the statement failed): the walk
  // reads them as given, with no join back from what the insert returned.
  const stored = skipStored
    ? `(select given.* from new_samples inserted join incoming given on given.metric_id = inserted.metric_id and given.sampled_at = inserted.sampled_at)`
    : 'incoming';
  return `with batch_metrics as (select * from unnest(?::uuid[], ?::text[]) as given(id, voter)),
     incoming as (
       select (?::uuid[])[sample.m] as metric_id, sample.t as sampled_at, sample.v as value, sample.s as status, sample.r as reason, sample.c as reason_class,
              sample.vt as votes, sample.l as voter, sample.lr as readings
       from json_to_recordset(?::json) as sample(m int, t timestamptz, v float8, s text, r text, c text, vt jsonb, l text, lr jsonb)
     ),
     new_samples as (
       insert into metric_samples (metric_id, organization_id, sampled_at, value, status, reason, reason_class, received_at)
       select metric_id, ?::uuid, sampled_at, value, status, reason, reason_class, ?::timestamptz from incoming
       ${skipStored ? 'on conflict do nothing' : ''}
       returning metric_id, sampled_at, value, status, reason, reason_class
     ),
     day_rollups as (
       insert into metric_daily_rollups as rollup (metric_id, organization_id, day, samples, healthy, degraded, unhealthy, no_data)
       select metric_id, ?::uuid, (sampled_at at time zone 'UTC')::date, count(*), count(*) filter (where status = 'healthy'), count(*) filter (where status = 'degraded'),
              count(*) filter (where status = 'unhealthy'), count(*) filter (where status = 'no_data')
       from new_samples group by 1, 3 order by 1, 3
       on conflict (metric_id, day) do update set samples = rollup.samples + excluded.samples, healthy = rollup.healthy + excluded.healthy,
         degraded = rollup.degraded + excluded.degraded, unhealthy = rollup.unhealthy + excluded.unhealthy, no_data = rollup.no_data + excluded.no_data
       returning 1
     ),
     locked_metrics as (
       select metrics.id, status, ${FLIP_KEY('metrics')} as flip_key, reason, last_sample_at, status_since, service_id, name, source_type, source_config, thresholds, interval_seconds, agent_id, unit,
              locations, confirmation, coalesce((confirmation->>'failures')::int, 1) as failures, coalesce((confirmation->>'recoveries')::int, 1) as recoveries,
              pending_key, pending_count, pending_since, pending_evidence, created_at, updated_at, deleted_at, batch_metrics.voter
       from metrics join batch_metrics on batch_metrics.id = metrics.id
       where metrics.id in (select metric_id from new_samples) and (select count(*) from day_rollups) >= 0 order by metrics.id for update of metrics
     ),
     arrived as (
       select sample.metric_id, sample.sampled_at, sample.value, sample.status, sample.reason, sample.reason_class, sample.votes, coalesce(sample.voter, metric.voter) as voter,
              sample.readings, ${FLIP_KEY('sample')} as flip_key, metric.flip_key as stored_key, metric.reason as stored_reason, metric.pending_key, metric.pending_count,
              metric.pending_since, metric.pending_evidence, metric.failures, metric.recoveries,
              -- (ordered as the walk is, so that both windows share one sort)
              metric.pending_key is null and bool_and(${FLIP_KEY('sample')} = metric.flip_key)
                over (partition by sample.metric_id order by sample.sampled_at rows between unbounded preceding and unbounded following) as steady
       from ${stored} sample join locked_metrics metric on metric.id = sample.metric_id
       where metric.last_sample_at is null or sample.sampled_at >= metric.last_sample_at
     ),
     samples_in_order as (
       select sample.metric_id, sample.sampled_at, sample.value, sample.status, sample.reason, sample.reason_class, sample.flip_key, sample.readings, sample.voter,
              -- A metric whose new samples all agree with its status, with nothing pending, stays as it is: only the
              -- others are walked through vigil_confirm (one PL/pgSQL call per sample).
              coalesce(vigil_confirm(sample.flip_key, sample.sampled_at, sample.reason, sample.votes, sample.voter, sample.value, sample.status, sample.stored_key, sample.stored_reason,
                                     sample.pending_key, sample.pending_count, sample.pending_since, sample.pending_evidence, sample.failures, sample.recoveries)
                         filter (where not sample.steady) over per_metric,
                       row(sample.stored_key, sample.reason, null, 0, null, '[]'::jsonb, false, null, null, null, 0)::vigil_confirm_state) as c,
              lead(sample.sampled_at) over per_metric is null as newest
       from arrived sample
       window per_metric as (partition by sample.metric_id order by sample.sampled_at rows between unbounded preceding and current row)
     ),
     flips as (
       select metric_id, split_part((c).flip_from, '/', 1) as from_status, status as to_status, value, reason, reason_class, flip_key, (c).flip_from as key_before,
              (c).flip_at as at, sampled_at, (c).flip_evidence as votes, (c).rounds as confirmations
       from samples_in_order where (c).flipped
     ),
     latest_outcome as (
       update metrics metric set status = split_part((latest.c).confirmed, '/', 1),
         current_value = case when (latest.c).pending is null then latest.value else coalesce(latest.value, metric.current_value) end,
         reason = (latest.c).reason, reason_class = nullif(split_part((latest.c).confirmed, '/', 2), ''), last_sample_at = latest.sampled_at,
         status_since = coalesce((select max(flip.at) from flips flip where flip.metric_id = latest.metric_id and flip.from_status <> flip.to_status), metric.status_since),
         pending_key = (latest.c).pending, pending_count = (latest.c).count, pending_since = (latest.c).since,
         pending_evidence = case when (latest.c).pending is null then null else (latest.c).evidence end,
         location_readings = case when latest.readings is not null then coalesce(metric.location_readings, '{}'::jsonb) || latest.readings
                                  when latest.voter is not null then coalesce(metric.location_readings, '{}'::jsonb) || jsonb_build_object(latest.voter,
                                    jsonb_build_object('value', latest.value, 'status', latest.status, 'reason', latest.reason, 'at', ${iso('latest.sampled_at')}))
                                  else metric.location_readings end,
         updated_at = greatest(metric.updated_at, ?::timestamptz)
       from samples_in_order latest where latest.newest and metric.id = latest.metric_id
     ),
     stored_flips as (
       insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, reason_class, at, votes, confirmations, confirmed_at)
       select gen_random_uuid(), ?::uuid, metric_id, from_status, to_status, value, reason, reason_class, at, votes, confirmations, sampled_at from flips
     ),
     flip_events as (
       insert into outbox_events (id, organization_id, type, resource_kind, resource_id, payload, created_at, dispatched_at)
       select gen_random_uuid(), ?::uuid, 'metric.status_changed', 'metric', flip.metric_id, ${FLIP_EVENT_PAYLOAD}, ?::timestamptz, null
       from flips flip join locked_metrics metric on metric.id = flip.metric_id
       left join json_to_record(coalesce(?::json -> (case when flip.to_status = 'no_data' then coalesce(flip.reason, 'no_data') end), '{}')) as reason_text(reason text, reason_label text, reason_hint text) on true
       order by flip.metric_id, flip.at
     )
     select metric_id, sampled_at as at, false as late from flips
     union all
     select sample.metric_id, min(sample.sampled_at), true from new_samples sample join locked_metrics metric on metric.id = sample.metric_id
     where sample.sampled_at < metric.last_sample_at group by sample.metric_id`;
}

const STORE = storeSql(false);
const STORE_SKIPPING_STORED = storeSql(true);

/**
 * What evaluation needs of a metric (no lock: thresholds only change through the API); a paused
 * metric takes no samples (they are refused like an unknown metric's); `agentId`
 * keeps only the metrics that agent runs: its own (`voter` false) and the cloud metrics that list
 * it among their locations (`voter` true: its samples are votes for the rounds, not samples).
 */
export async function metricsForIngest(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
  agentId?: string,
): Promise<{ id: string; source_type: string; thresholds: Record<string, unknown> | null; voter: boolean }[]> {
  if (!ids.length) return [];
  return rawRows(
    em,
    `select id, source_type, thresholds, ${agentId ? 'agent_id is null' : 'false'} as voter from metrics where id = any(?::uuid[]) and organization_id = ? and deleted_at is null and paused_at is null${
      agentId ? ` and (agent_id = ? or (agent_id is null and locations @> array[?]::text[]))` : ''
    }`,
    [pgArray(ids), organizationId, ...(agentId ? [agentId, `agent:${agentId}`] : [])],
  );
}

/**
 * An agent's answers for cloud metrics that list it among their locations: each metric's newest
 * one becomes that location's latest reading (one statement), which the metric's next round counts
 * as the agent's vote. An older answer than the stored one changes nothing.
 */
export async function storeLocationReadings(
  em: EntityManager,
  organizationId: string,
  readings: readonly {
    metricId: string;
    location: string;
    value: number | null;
    status: string;
    reason: string | null;
    at: string;
  }[],
): Promise<number> {
  if (!readings.length) return 0;
  const newest = new Map<string, (typeof readings)[number]>();
  for (const r of readings) {
    const key = `${r.metricId} ${r.location}`;
    const seen = newest.get(key);
    if (!seen || seen.at < r.at) newest.set(key, r);
  }
  const rows = [...newest.values()].map((r) => ({ m: r.metricId, l: r.location, r: locationReading(r) }));
  return rawRun(
    em,
    `update metrics metric set location_readings = coalesce(metric.location_readings, '{}'::jsonb) || jsonb_build_object(given.l, given.r)
     from json_to_recordset(?::json) as given(m uuid, l text, r jsonb)
     where metric.id = given.m and metric.organization_id = ?
       and coalesce((metric.location_readings -> given.l ->> 'at')::timestamptz, '-infinity') < (given.r ->> 'at')::timestamptz`,
    [JSON.stringify(rows), organizationId],
  );
}

export interface StoredSample {
  sampled_at: Date;
  value: number | null;
  status: string;
  reason: string | null;
  reason_class: ReasonClass | null;
}

export async function recentSamples(em: EntityManager, metricId: string, limit: number): Promise<StoredSample[]> {
  return rawRows(
    em,
    `select sampled_at, value, status, reason, reason_class from metric_samples where metric_id = ? order by sampled_at desc limit ?`,
    [metricId, limit],
  );
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
export async function dailyRollups(
  em: EntityManager,
  metricIds: readonly string[],
  fromDay: string,
): Promise<RollupRow[]> {
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
      const t = tx;
      await rawRun(
        t,
        `create temporary table moving on commit drop as select * from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`,
        [day.toISOString(), next.toISOString()],
      );
      await rawRun(
        t,
        `delete from metric_samples_default where sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz`,
        [day.toISOString(), next.toISOString()],
      );
      await rawRun(
        t,
        `create table ${name} partition of metric_samples for values from ('${day.toISOString()}') to ('${next.toISOString()}')`,
        [],
      );
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
