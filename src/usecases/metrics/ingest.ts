import type { EntityManager } from '@mikro-orm/postgresql';
import { lockMetrics, rebuildFlips } from '../../db/repositories/sample-import-repository';
import {
  type FlipEventTerms,
  type NewSample,
  type StoredFlip,
  metricsForIngest,
  storeSamples,
} from '../../db/repositories/samples-repository';
import { agentLocationId, type Vote } from '../../domain/confirmation';
import { describeReason, normalizeReason } from '../../domain/reason-codes';
import { type HealthStatus, type Thresholds, readingStatus } from '../../domain/thresholds';
import { PUSH_SOURCE_TYPES } from '../../domain/source-types';

export interface IncomingSample {
  metricId: string;
  sampledAt: Date;
  value: number | null;
  reason: string | null;
  /** A status given rather than evaluated (manual and alert metrics, a round's outcome). */
  status?: HealthStatus;
  /** The votes of the locations in the round this sample stands for. */
  votes?: readonly Vote[];
}

export interface IngestResult {
  accepted: number;
  /** Samples naming no live metric of the organization (index in the batch). */
  rejected: { index: number; metric_id: string }[];
  flips: number;
}

/** The status a sample gives: evaluated from the metric's thresholds (strict comparisons), or as an up/down check (readingStatus). */
export function sampleStatus(
  metric: { sourceType: string; thresholds: Thresholds | null },
  s: IncomingSample,
): HealthStatus {
  if (s.status) return s.status;
  return readingStatus(metric, s.value, s.reason);
}

/** Samples checked against the organization's metrics and evaluated, ready to store. */
export interface EvaluatedBatch {
  rows: NewSample[];
  /** Samples naming no live metric of the organization (or not one the agent runs). */
  rejected: IngestResult['rejected'];
  /** An agent's answers for cloud metrics it votes on: location readings, not samples. */
  readings: LocationVote[];
}

export interface LocationVote {
  metricId: string;
  location: string;
  value: number | null;
  status: HealthStatus;
  reason: string | null;
  at: string;
}

/**
 * Checks each sample's metric (live, of the organization, and with `agentId` run by that agent)
 * and evaluates it against the metric's thresholds. Reads without locks: thresholds only change
 * through the API.
 */
export async function evaluateSamples(
  em: EntityManager,
  organizationId: string,
  samples: readonly IncomingSample[],
  agentId?: string,
): Promise<EvaluatedBatch> {
  const ids = [...new Set(samples.map((s) => s.metricId))];
  const known = new Map((await metricsForIngest(em, organizationId, ids, agentId)).map((m) => [m.id, m]));
  const rejected: IngestResult['rejected'] = [];
  const rows: NewSample[] = [];
  const readings: LocationVote[] = [];
  samples.forEach((s, index) => {
    const m = known.get(s.metricId);
    if (!m) return rejected.push({ index, metric_id: s.metricId });
    const value = s.value !== null && Number.isFinite(s.value) ? s.value : null;
    const reason =
      value === null ? normalizeReason(s.reason ?? (s.value === null ? 'no_data' : 'non_finite_value')) : null;
    const status = sampleStatus(
      { sourceType: m.source_type, thresholds: m.thresholds ?? null },
      { ...s, value, reason },
    );
    if (m.voter && agentId)
      return readings.push({
        metricId: m.id,
        location: agentLocationId(agentId),
        value,
        status,
        reason,
        at: s.sampledAt.toISOString(),
      });
    // An agent is the location of its metric: its sample is its vote.
    rows.push({
      metricId: m.id,
      sampledAt: s.sampledAt,
      value,
      status,
      reason,
      votes: s.votes ?? null,
      voter: !s.votes && agentId ? agentLocationId(agentId) : null,
    });
  });
  return { rows, rejected, readings };
}

/**
 * Stores evaluated samples of one organization: one statement stores the new ones, counts them
 * in their day's rollup, moves each metric's latest outcome forward, and records every change of
 * status (or of reason class within no_data) as a flip and as a `metric.status_changed` event in
 * the outbox (see storeSamples). It commits on its own, or with the caller's transaction when there
 * is one. A sample already stored (a retry) changes nothing. A late sample (older than the
 * metric's latest outcome) rebuilds that metric's flips from it, without events. Answers the flips
 * the batch made at its newest edge.
 */
export async function commitSamples(
  em: EntityManager,
  organizationId: string,
  rows: readonly NewSample[],
  now: Date,
): Promise<StoredFlip[]> {
  if (!rows.length) return [];
  const reasons: FlipEventTerms['reasons'] = {};
  for (const r of rows) {
    if (r.status !== 'no_data') continue;
    const code = r.reason ?? 'no_data';
    reasons[code] ??= describeReason(code);
  }
  const { flips, late } = await storeSamples(em, organizationId, rows, now, {
    pushSourceTypes: PUSH_SOURCE_TYPES,
    reasons,
  });
  // Rare: samples older than the metric's latest outcome (a late or reordered batch). Uptime, SLOs
  // and statements read the flips, so that metric's flips are rebuilt from its earliest late
  // sample, as an import rebuilds them (history: no events).
  // Every late metric of the batch in one transaction: their locks in id order, then one statement.
  if (late.length) {
    await em.transactional(async (tx) => {
      const t = tx;
      const locked = new Set(
        await lockMetrics(
          t,
          late.map((l) => l.metric_id),
        ),
      );
      await rebuildFlips(
        t,
        organizationId,
        late.filter((l) => locked.has(l.metric_id)).map((l) => ({ metricId: l.metric_id, from: l.from })),
        now,
      );
    });
  }
  return flips;
}

/** evaluateSamples then commitSamples, in the caller's transaction when it has one. */
export async function ingestSamples(
  em: EntityManager,
  organizationId: string,
  samples: readonly IncomingSample[],
  now: Date,
): Promise<IngestResult> {
  const { rows, rejected } = await evaluateSamples(em, organizationId, samples);
  const flips = await commitSamples(em, organizationId, rows, now);
  return { accepted: rows.length, rejected, flips: flips.length };
}

/**
 * Samples of several organizations, one ingest each (a cloud bucket run, a check round); every
 * organization is tried, and the failures are thrown together after. Answers the samples stored.
 */
export async function ingestPerOrganization(
  em: () => EntityManager,
  byOrg: ReadonlyMap<string, readonly IncomingSample[]>,
  what: string,
): Promise<number> {
  let stored = 0;
  const failures: unknown[] = [];
  for (const [organization, list] of byOrg) {
    try {
      stored += (await ingestSamples(em(), organization, list, new Date())).accepted;
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length)
    throw new AggregateError(failures, `storing ${what} of ${failures.length} of ${byOrg.size} organizations failed`);
  return stored;
}
