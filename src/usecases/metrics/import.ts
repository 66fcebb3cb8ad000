import { lockMetric, rebuildFlipsFrom, storeImportedSamples } from '../../db/repositories/sample-import-repository';
import type { OrgContext } from '../shared/context';
import { sampleTimeProblem } from './agent-metrics';
import { type IncomingSample, evaluateSamples } from './ingest';
import { getMetricRow } from './metrics';

/** METRIC_SAMPLE_RETENTION_DAYS's default (config.ts). */
export const DEFAULT_SAMPLE_RETENTION_DAYS = 400;

/** Most samples one import call takes (the body schema holds it too). */
export const MAX_IMPORT_SAMPLES = 50_000;

export interface ImportRejection {
  index: number;
  metric_id: string;
  reason: 'sampled_in_future' | 'sampled_before_retention' | 'unknown_metric';
}

export interface ImportResult {
  /** Samples that passed (new or already stored: a re-import accepts them again and stores nothing). */
  accepted: number;
  /** Of those, how many were new. */
  stored: number;
  rejected: ImportRejection[];
  /** Status flips the rebuilt history holds from the earliest new sample on (0 when nothing new was stored). */
  flips: number;
}

/**
 * History from before SAMPLE_MAX_AGE, e.g. from another monitoring tool, into one
 * metric of the organization: validated and evaluated against the metric's thresholds as live
 * samples are (`sampled_in_future` still applies; no SAMPLE_MAX_AGE, but nothing older than the
 * sample retention: retention would drop those samples while their rebuilt flips stayed, and a
 * later import's rebuild would then lose them), stored as imported, idempotent on
 * (metric, sampled_at). In one transaction: the new samples and their rollups, then the metric's
 * row lock, then its flips rebuilt from the earliest new sample on (no events: history is not news).
 */
export async function importSamples(
  ctx: OrgContext,
  metricId: string,
  samples: readonly { sampled_at: string; value: number | null; reason?: string | null }[],
  retentionDays = DEFAULT_SAMPLE_RETENTION_DAYS,
): Promise<ImportResult> {
  const metric = await getMetricRow(ctx, metricId);
  const rejected: ImportRejection[] = [];
  const kept: { index: number; sample: IncomingSample }[] = [];
  const retainedFrom = ctx.now.getTime() - retentionDays * 86_400_000;
  samples.forEach((s, index) => {
    const sampledAt = new Date(s.sampled_at);
    const problem = sampleTimeProblem(sampledAt, ctx.now);
    if (problem) rejected.push({ index, metric_id: metric.id, reason: 'sampled_in_future' });
    else if (sampledAt.getTime() < retainedFrom)
      rejected.push({ index, metric_id: metric.id, reason: 'sampled_before_retention' });
    else kept.push({ index, sample: { metricId: metric.id, sampledAt, value: s.value, reason: s.reason ?? null } });
  });
  const { rows, rejected: unknown } = await evaluateSamples(
    ctx.em,
    ctx.org.id,
    kept.map((k) => k.sample),
  );
  // Only if the metric was deleted meanwhile.
  for (const r of unknown)
    rejected.push({ index: kept[r.index]!.index, metric_id: metric.id, reason: 'unknown_metric' });
  rejected.sort((a, b) => a.index - b.index);
  const { stored, flips } = await ctx.em.transactional(async (tx) => {
    const em = tx;
    const added = await storeImportedSamples(em, ctx.org.id, metric.id, rows, ctx.now);
    if (!added.stored || !(await lockMetric(em, metric.id))) return { stored: added.stored, flips: 0 };
    return { stored: added.stored, flips: await rebuildFlipsFrom(em, ctx.org.id, metric.id, added.earliest!, ctx.now) };
  });
  return { accepted: rows.length, stored, rejected, flips };
}
