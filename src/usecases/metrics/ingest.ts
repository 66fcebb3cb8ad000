import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MetricSchema } from '../../db/entities';
import { type LatestRow, type SampleRow, addToRollups, insertFlips, insertSamples, lockLatest, metricsForIngest, updateLatest } from '../../db/repositories/samples-repository';
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
 * evaluated, stored and counted in its day's rollup; each metric's latest outcome moves forward;
 * every change of status is a flip and a `metric.status_changed` event through the outbox. Only
 * the last steps hold the metrics' row locks (two batches of one metric must not both decide
 * they flipped it); a sample already stored (a retry) changes nothing.
 */
export async function ingestSamples(em: EntityManager, organizationId: string, samples: readonly IncomingSample[], now: Date): Promise<IngestResult> {
  return em.transactional(async (t) => {
    const tx = t as EntityManager;
    const ids = [...new Set(samples.map((s) => s.metricId))];
    const known = new Map((await metricsForIngest(tx, organizationId, ids)).map((m) => [m.id, m]));
    const rejected: IngestResult['rejected'] = [];
    const rows: SampleRow[] = [];
    samples.forEach((s, index) => {
      const m = known.get(s.metricId);
      if (!m) return rejected.push({ index, metric_id: s.metricId });
      const value = s.value !== null && Number.isFinite(s.value) ? s.value : null;
      const reason = value === null ? normalizeReason(s.reason ?? (s.value === null ? 'no_data' : 'non_finite_value')) : null;
      rows.push({ metricId: m.id, organizationId, sampledAt: s.sampledAt, value, status: sampleStatus((m.thresholds as Thresholds | null) ?? null, { ...s, value, reason }), reason });
    });
    const fresh = await insertSamples(tx, rows);
    const locked = await lockLatest(tx, [...new Set(fresh.map((r) => r.metricId))]);
    await addToRollups(tx, fresh);
    const { latest, flips } = advance(locked, fresh);
    await updateLatest(tx, latest, now);
    if (flips.length) {
      await insertFlips(
        tx,
        flips.map((f) => ({ id: randomUUID(), organizationId, metricId: f.metricId, fromStatus: f.from, toStatus: f.row.status, value: f.row.value, reason: f.row.reason, at: f.row.sampledAt })),
      );
      const metrics = new Map((await tx.find(MetricSchema, { id: { $in: [...new Set(flips.map((f) => f.metricId))] } })).map((m) => [m.id, m]));
      for (const f of flips) {
        const m = metrics.get(f.metricId)!;
        const view = metricView({ ...m, status: f.row.status, currentValue: f.row.value, reason: f.row.reason, lastSampleAt: f.row.sampledAt, statusSince: f.row.sampledAt });
        recordEvent(tx, { organizationId, type: 'metric.status_changed', resourceKind: 'metric', resourceId: m.id, payload: { ...view, previous_status: f.from }, now });
      }
      await tx.flush();
    }
    return { accepted: rows.length, rejected, flips: flips.length };
  });
}

/** Walks each metric's new samples in time order from its stored latest outcome. */
function advance(metrics: { id: string; status: string; last_sample_at: Date | null }[], rows: SampleRow[]): { latest: LatestRow[]; flips: { metricId: string; from: string; row: SampleRow }[] } {
  const latest: LatestRow[] = [];
  const flips: { metricId: string; from: string; row: SampleRow }[] = [];
  const byMetric = new Map<string, SampleRow[]>();
  for (const r of rows) {
    const list = byMetric.get(r.metricId);
    if (list) list.push(r);
    else byMetric.set(r.metricId, [r]);
  }
  for (const m of metrics) {
    const last = m.last_sample_at ? new Date(m.last_sample_at).getTime() : -Infinity;
    const mine = (byMetric.get(m.id) ?? []).filter((r) => r.sampledAt.getTime() >= last);
    if (!mine.length) continue;
    mine.sort((a, b) => a.sampledAt.getTime() - b.sampledAt.getTime());
    let status = m.status;
    let since: Date | null = null;
    for (const r of mine) {
      if (r.status !== status) {
        flips.push({ metricId: m.id, from: status, row: r });
        status = r.status;
        since = r.sampledAt;
      }
    }
    const newest = mine[mine.length - 1]!;
    latest.push({ metricId: m.id, status: newest.status, value: newest.value, reason: newest.reason, sampledAt: newest.sampledAt, statusSince: since });
  }
  return { latest, flips };
}
