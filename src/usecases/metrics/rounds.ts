import type { EntityManager } from '@mikro-orm/postgresql';
import { onlineLocations } from '../../db/repositories/location-repository';
import {
  type RoundMetricRow,
  agentReadings,
  bucketRoundMetrics,
  roundMetric,
  roundMetricsByIds,
} from '../../db/repositories/metric-round-repository';
import { LEGACY_CONFIRMATION, isAgentLocation, roundOutcome } from '../../domain/confirmation';
import { type MetricBucket, plannedRunAt } from '../../domain/metric-buckets';
import {
  type AgentReading,
  type LocationAnswer,
  type PlannedCheck,
  type RecheckAnswer,
  type RoundMetric,
  agentLocations,
  agentVotes,
  compactPlanOf,
  indexAnswers,
  resolveLocations,
  roundVotes,
} from '../../domain/metric-rounds';
import { type IncomingSample, ingestPerOrganization } from './ingest';
import type { RoundSchedules } from './ports';

/*
 * A check round across locations: plan it (which live cloud metrics, which online locations
 * measure each), then record its outcome once the locations answered (each metric's votes, the
 * round's outcome under its quorum, one sample per metric). The round workflow runs both as local
 * activities on the installation's worker: they read and write the database, the locations never do.
 */

/** What a round checks: its start (the time its samples carry) and the metrics with the locations that check each. */
export interface RoundPlan {
  /** ISO time the round started. */
  roundStart: string;
  /** How late the round started after the bucket's planned tick, in ms (0 for a first check). */
  startedLateMs: number;
  /** Live cloud metrics found (a bucket found empty retires its Schedule). */
  found: number;
  /** The installation's online cloud locations when planned, in id order. */
  online: string[];
  /** The metrics some online location checks or some agent votes on (a metric without either gets no sample this round). */
  metrics: RoundMetric[];
}

export interface RoundRecord {
  roundStart: string;
  metrics: RoundMetric[];
  /** What each location that answered returned (a location that failed or timed out is absent). */
  answers: LocationAnswer[];
  rechecks: RecheckAnswer[];
}

/**
 * A round's plan as it is written into the workflow's history ('compact-rounds'): each metric's
 * source once, its locations as indices into `online`, thresholds only for recheck metrics.
 */
export interface CompactRoundPlan {
  roundStart: string;
  startedLateMs: number;
  found: number;
  online: string[];
  checks: PlannedCheck[];
}

/** What a compact round records: where its metrics are read again from, and what the locations answered. */
export interface CompactRoundRecord {
  /** The bucket of a bucket's round, the metric of a first check, or the new metrics of coalesced first checks. */
  of: RoundOf;
  roundStart: string;
  /** The online locations of the plan (a metric's locations are resolved against them again). */
  online: string[];
  /** The planned metrics' ids: a metric created during the round waits for the next one. */
  ids: string[];
  answers: LocationAnswer[];
  rechecks: RecheckAnswer[];
}

/** What a round checks: a bucket, one new metric (a first check before coalescing), or a batch of new metrics (metricFirstChecksWorkflow). */
export type RoundOf = { bucket: MetricBucket } | { metricId: string } | { metricIds: string[] };

export interface RoundRecorded {
  /** Samples stored: one per metric some location answered for. */
  stored: number;
  /** Metrics no location answered for (no sample). */
  unanswered: number;
  /** Metrics whose round was failing. */
  failing: number;
}

const toRoundMetric = (m: RoundMetricRow, online: readonly string[]): RoundMetric => {
  const c = m.confirmation ?? LEGACY_CONFIRMATION;
  return {
    metricId: m.id,
    organization: m.organizationId,
    sourceType: m.sourceType,
    sourceConfig: m.sourceConfig,
    intervalSeconds: m.intervalSeconds,
    thresholds: m.thresholds ?? null,
    quorum: c.quorum,
    recheck: c.recheck,
    locations: resolveLocations(m.locations, online, isAgentLocation),
    agents: agentLocations(m.locations, isAgentLocation),
  };
};

/**
 * A bucket's round, a new metric's first check or a batch of first checks: the live cloud metrics,
 * each with the online cloud locations that measure it. A first check also retires the metric's
 * Schedule from before buckets and makes sure of its bucket's (through `schedules`, when running in Temporal).
 */
export async function planRound(
  em: () => EntityManager,
  schedules: RoundSchedules | null,
  installation: string,
  input: RoundOf,
): Promise<RoundPlan> {
  const started = Date.now();
  const e = em();
  let rows: RoundMetricRow[];
  let startedLateMs = 0;
  if ('bucket' in input) {
    startedLateMs = started - plannedRunAt(input.bucket, started);
    rows = await bucketRoundMetrics(e, input.bucket);
  } else if ('metricIds' in input) {
    // Their buckets' Schedules were made sure of when they were signalled (a bucket retiring meanwhile creates its Schedule again when it counts a metric: retireEmptyMetricBucket).
    rows = await roundMetricsByIds(e, input.metricIds);
  } else {
    const m = await roundMetric(e, input.metricId);
    if (schedules) {
      await schedules.retireMetricSchedule(input.metricId);
      if (m) await schedules.ensureBuckets([m]);
    }
    rows = m ? [m] : [];
  }
  const online = rows.length ? (await onlineLocations(e, installation, new Date(started))).map((l) => l.id) : [];
  const metrics = rows
    .map((m) => toRoundMetric(m, online))
    .filter((m) => m.locations.length > 0 || m.agents.length > 0);
  return { roundStart: new Date(started).toISOString(), startedLateMs, found: rows.length, online, metrics };
}

/** planRound's plan, compact (CompactRoundPlan): what the round workflow writes into its history. */
export function compactPlan(p: RoundPlan): CompactRoundPlan {
  return {
    roundStart: p.roundStart,
    startedLateMs: p.startedLateMs,
    found: p.found,
    online: p.online,
    checks: compactPlanOf(p.metrics, p.online),
  };
}

/**
 * Each metric's votes (locations' answers with their rechecks, and the agents' fresh readings),
 * the round's outcome under its quorum, and one sample per metric stamped with the round's start,
 * stored with one ingest per organization (which applies the confirmation). Idempotent: a sample is
 * keyed by metric and time.
 */
export async function recordRound(
  em: () => EntityManager,
  roundStart: string,
  metrics: readonly RoundMetric[],
  answerList: readonly LocationAnswer[],
  rechecks: readonly RecheckAnswer[],
): Promise<RoundRecorded> {
  const sampledAt = new Date(roundStart);
  const answers = indexAnswers(answerList);
  const voters = metrics.filter((m) => m.agents.length > 0).map((m) => m.metricId);
  const readings = voters.length ? await agentReadings(em(), voters) : new Map<string, Record<string, AgentReading>>();
  const byOrg = new Map<string, IncomingSample[]>();
  let unanswered = 0;
  let failing = 0;
  for (const m of metrics) {
    const votes = [
      ...roundVotes(m, answers, rechecks),
      ...agentVotes(m, readings.get(m.metricId) ?? null, sampledAt.getTime()),
    ].sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
    const outcome = roundOutcome(votes, m.quorum);
    const rep = outcome.representative;
    if (!rep) {
      unanswered++;
      continue;
    }
    if (outcome.outcome === 'failing') failing++;
    const list = byOrg.get(m.organization) ?? [];
    list.push({
      metricId: m.metricId,
      sampledAt,
      value: rep.value,
      reason: rep.value === null ? rep.reason : null,
      status: rep.status,
      votes,
    });
    byOrg.set(m.organization, list);
  }
  const stored = await ingestPerOrganization(em, byOrg, "the round's samples");
  return { stored, unanswered, failing };
}

/**
 * recordRound for a compact round: the planned metrics are read again (thresholds, quorum,
 * organization, agents: their settings now), their locations resolved against the plan's online
 * ones; a metric deleted during the round gets no sample.
 */
export async function recordCompactRound(em: () => EntityManager, input: CompactRoundRecord): Promise<RoundRecorded> {
  const e = em();
  const of = input.of;
  const rows =
    'bucket' in of
      ? await bucketRoundMetrics(e, of.bucket)
      : 'metricIds' in of
        ? await roundMetricsByIds(e, of.metricIds)
        : [await roundMetric(e, of.metricId)].filter((m): m is RoundMetricRow => m !== null);
  const planned = new Set(input.ids);
  const metrics = rows.filter((m) => planned.has(m.id)).map((m) => toRoundMetric(m, input.online));
  return recordRound(em, input.roundStart, metrics, input.answers, input.rechecks);
}
