import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Metric, MetricSchema, MetricStatusFlipSchema } from '../../db/entities';
import { type LatestRow, type SampleRow, addToRollups, insertSamples, updateLatest } from '../../db/repositories/samples-repository';
import { normalizeReason } from '../../domain/reason-codes';
import { type HealthStatus, type Thresholds, evaluateStatus } from '../../domain/thresholds';
import { recordEvent } from '../outbox';
import { metricView } from './view';

export interface IncomingSample {
  metricId: string;
  sampledAt: Date;
  value: number | null;
  reason: string | null;
  /** A status given rather than evaluated (manual and alert metrics). */
  status?: HealthStatus;
}

export interface IngestResult {
  accepted: number;
  /** Samples naming no live metric of the organization (index in the batch). */
  rejected: { index: number; metric_id: string }[];
  flips: number;
}

/** The status a sample gives: evaluated from the metric's thresholds (strict comparisons). */
export function sampleStatus(thresholds: Thresholds | null, s: IncomingSample): HealthStatus {
  if (s.status) return s.status;
  // Metrics are created with complete thresholds; a value without them counts as healthy.
  return evaluateStatus(s.value, thresholds) ?? 'healthy';
}

/**
 * Stores a batch of samples of one organization's metrics in one transaction: each sample is
 * evaluated, stored, counted in the day's rollup; each metric's latest outcome moves forward; every
 * change of status is recorded as a flip and emitted as `metric.status_changed` through the outbox.
 */
export async function ingestSamples(em: EntityManager, organizationId: string, samples: readonly IncomingSample[], now: Date): Promise<IngestResult> {
  return em.transactional(async (tx) => {
    const ids = [...new Set(samples.map((s) => s.metricId))];
    // Locked: two batches of the same metric must not both decide they flipped it.
    const metrics = ids.length
      ? await tx.find(MetricSchema, { id: { $in: ids }, organization: organizationId, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } })
      : [];
    const byId = new Map(metrics.map((m) => [m.id, m]));
    const rejected: IngestResult['rejected'] = [];
    const rows: SampleRow[] = [];
    samples.forEach((s, index) => {
      const m = byId.get(s.metricId);
      if (!m) return rejected.push({ index, metric_id: s.metricId });
      const value = s.value !== null && Number.isFinite(s.value) ? s.value : null;
      const reason = value === null ? normalizeReason(s.reason ?? (s.value === null ? 'no_data' : 'non_finite_value')) : null;
      const sample = { ...s, value, reason };
      rows.push({ metricId: m.id, organizationId, sampledAt: s.sampledAt, value, status: sampleStatus((m.thresholds as Thresholds | null) ?? null, sample), reason });
    });
    await insertSamples(tx, rows);
    await addToRollups(tx, rows);
    const { latest, flips } = advance(metrics, rows);
    await updateLatest(tx, latest, now);
    for (const f of flips) {
      const m = f.metric;
      tx.create(MetricStatusFlipSchema, { id: randomUUID(), organization: organizationId, metric: m.id, fromStatus: f.from, toStatus: f.row.status, value: f.row.value, reason: f.row.reason, at: f.row.sampledAt });
      const view = metricView({ ...m, status: f.row.status, currentValue: f.row.value, reason: f.row.reason, lastSampleAt: f.row.sampledAt, statusSince: f.row.sampledAt });
      recordEvent(tx, { organizationId, type: 'metric.status_changed', resourceKind: 'metric', resourceId: m.id, payload: { ...view, previous_status: f.from }, now });
    }
    await tx.flush();
    return { accepted: rows.length, rejected, flips: flips.length };
  });
}

/** Walks each metric's new samples in time order from its stored latest outcome. */
function advance(metrics: Metric[], rows: SampleRow[]): { latest: LatestRow[]; flips: { metric: Metric; from: string; row: SampleRow }[] } {
  const latest: LatestRow[] = [];
  const flips: { metric: Metric; from: string; row: SampleRow }[] = [];
  const byMetric = new Map<string, SampleRow[]>();
  for (const r of rows) byMetric.set(r.metricId, [...(byMetric.get(r.metricId) ?? []), r]);
  for (const m of metrics) {
    const mine = (byMetric.get(m.id) ?? []).filter((r) => !m.lastSampleAt || r.sampledAt.getTime() >= m.lastSampleAt.getTime());
    if (!mine.length) continue;
    mine.sort((a, b) => a.sampledAt.getTime() - b.sampledAt.getTime());
    let status = m.status;
    let since: Date | null = null;
    for (const r of mine) {
      if (r.status !== status) {
        flips.push({ metric: m, from: status, row: r });
        status = r.status;
        since = r.sampledAt;
      }
    }
    const last = mine[mine.length - 1]!;
    latest.push({ metricId: m.id, status: last.status, value: last.value, reason: last.reason, sampledAt: last.sampledAt, statusSince: since });
  }
  return { latest, flips };
}
