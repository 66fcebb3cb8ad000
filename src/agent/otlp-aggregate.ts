import { z } from 'zod';
import { type ProbeOutcome, measured, noValue } from '../probes/types';
import type { HistogramSample, OtlpSample, OtlpStore } from './otlp-store';

/**
 * The value of an otlp metric: one aggregation over the pushed samples of `metric` (optionally
 * only those whose attributes hold every `attributes` entry) received in the last
 * `window_seconds` before `now`.
 *
 * Per kind of data point:
 * - gauge and sum points (numbers): mean / last / pNN over the reported values (pNN by sorting,
 *   linear interpolation between closest ranks); sum adds the window's increments (a delta sum's
 *   values, a cumulative sum's growth, so a counter gives its increase); count = data points.
 * - histogram, exponential histogram, summary: count = observations, sum = their total, mean =
 *   sum / count, last = mean of the newest point; pNN from explicit buckets merged over the window
 *   (linear interpolation inside the bucket, Prometheus-style: the first bucket starts at 0 when
 *   its bound is positive, the overflow bucket answers its lower bound), from a summary's newest
 *   quantileValues when that exact quantile is reported; never from exponential histograms.
 * - count has no unit; every other aggregation is in the instrument's unit.
 *
 * Reasons: otlp_receiver_disabled (store null), otlp_stale (newest matching sample older than
 * `stale_seconds`, default window_seconds), otlp_no_samples (none in the window — or, when the
 * receiver refused a request inside the window, that refusal's otlp_invalid_json /
 * otlp_malformed_payload, the likelier cause), otlp_aggregation_unavailable, non_finite_value,
 * invalid_config (query out of shape).
 */

export const OTLP_AGGREGATIONS = ['mean', 'sum', 'count', 'last', 'p50', 'p90', 'p95', 'p99'] as const;
export type OtlpAggregation = (typeof OTLP_AGGREGATIONS)[number];

/** Windows beyond the store's retention (1 h by default) would silently see less. */
export const OTLP_MAX_WINDOW_SECONDS = 3_600;

export const OtlpQuerySchema = z.object({
  metric: z.string().min(1),
  aggregation: z.enum(OTLP_AGGREGATIONS),
  window_seconds: z.number().positive().max(OTLP_MAX_WINDOW_SECONDS),
  stale_seconds: z.number().positive().max(OTLP_MAX_WINDOW_SECONDS).optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type OtlpQuery = z.infer<typeof OtlpQuerySchema>;

const QUANTILES: Partial<Record<OtlpAggregation, number>> = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

type Result = { value: number } | { reason: string; metadata?: ProbeOutcome['metadata'] };

/** Linear interpolation between closest ranks of sorted values (numpy's default). */
export function sortedQuantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const pos = q * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** Quantile of explicit-bucket histograms with the same bounds, merged. */
export function histogramQuantile(samples: readonly HistogramSample[], q: number): Result {
  const bounds = samples[samples.length - 1]!.bounds;
  if (bounds.length === 0)
    return { reason: 'otlp_aggregation_unavailable', metadata: { detail: 'histogram has no bucket bounds' } };
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const s of samples) {
    if (s.bounds.length !== bounds.length || s.bounds.some((b, i) => b !== bounds[i])) continue;
    s.bucketCounts.forEach((c, i) => (counts[i]! += c));
  }
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return { reason: 'otlp_no_samples', metadata: { detail: 'no observations in the window' } };
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (c > 0 && below + c >= rank) {
      if (i === bounds.length) return { value: bounds[i - 1]! };
      const upper = bounds[i]!;
      const lower = i === 0 ? (upper > 0 ? 0 : upper) : bounds[i - 1]!;
      return { value: lower + (upper - lower) * ((rank - below) / c) };
    }
    below += c;
  }
  return { value: bounds[bounds.length - 1]! };
}

function aggregate(samples: readonly OtlpSample[], aggregation: OtlpAggregation): Result {
  const newest = samples[samples.length - 1]!;
  const q = QUANTILES[aggregation];
  if (newest.kind === 'number') {
    const nums = samples as Extract<OtlpSample, { kind: 'number' }>[];
    if (q !== undefined)
      return {
        value: sortedQuantile(
          nums.map((s) => s.value),
          q,
        ),
      };
    switch (aggregation) {
      case 'count':
        return { value: nums.length };
      case 'last':
        return { value: newest.value };
      case 'sum':
        return { value: nums.reduce((a, s) => a + s.increment, 0) };
      default:
        return { value: nums.reduce((a, s) => a + s.value, 0) / nums.length };
    }
  }
  const dists = samples as Exclude<OtlpSample, { kind: 'number' }>[];
  if (q !== undefined) {
    if (newest.kind === 'histogram') return histogramQuantile(dists as HistogramSample[], q);
    if (newest.kind === 'summary') {
      const hit = newest.quantiles.find((x) => Math.abs(x.quantile - q) < 1e-9);
      if (hit) return { value: hit.value };
      return { reason: 'otlp_aggregation_unavailable', metadata: { detail: `summary does not report quantile ${q}` } };
    }
    return {
      reason: 'otlp_aggregation_unavailable',
      metadata: { detail: 'quantiles are not supported on exponential histograms; use mean, count or sum' },
    };
  }
  const count = dists.reduce((a, s) => a + s.count, 0);
  if (aggregation === 'count') return { value: count };
  const last = aggregation === 'last';
  const used = last ? [newest] : dists;
  if (used.some((s) => s.sum === null))
    return { reason: 'otlp_aggregation_unavailable', metadata: { detail: 'data points carry no sum' } };
  const sum = used.reduce((a, s) => a + s.sum!, 0);
  if (aggregation === 'sum') return { value: sum };
  const n = last ? newest.count : count;
  if (n === 0) return { reason: 'otlp_no_samples', metadata: { detail: 'no observations in the window' } };
  return { value: sum / n };
}

const matches = (filter: OtlpQuery['attributes']) => (s: OtlpSample) =>
  !filter || Object.entries(filter).every(([k, v]) => s.attributes[k] === String(v));

/** No samples: the receiver's refusal inside the window when there is one, else otlp_no_samples. */
function noSamples(store: OtlpStore, query: OtlpQuery, fromMs: number): ProbeOutcome {
  const refused = store.lastRejection();
  if (refused && refused.atMs > fromMs)
    return noValue(refused.reason, { metric: query.metric, detail: refused.message });
  return noValue('otlp_no_samples', { metric: query.metric, window_seconds: query.window_seconds });
}

export function otlpValue(store: OtlpStore | null, rawQuery: OtlpQuery, now: Date | number): ProbeOutcome {
  if (store === null) return noValue('otlp_receiver_disabled');
  const parsed = OtlpQuerySchema.safeParse(rawQuery);
  if (!parsed.success) return noValue('invalid_config', { path: parsed.error.issues[0]?.path.join('.') ?? null });
  const query = parsed.data;
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const fromMs = nowMs - query.window_seconds * 1000;
  const entry = store.get(query.metric);
  const all = (entry?.samples ?? []).filter(matches(query.attributes));
  if (all.length === 0) return noSamples(store, query, fromMs);
  const newestMs = all[all.length - 1]!.timeMs;
  const staleSeconds = query.stale_seconds ?? query.window_seconds;
  if (newestMs < nowMs - staleSeconds * 1000) {
    return noValue('otlp_stale', {
      metric: query.metric,
      newest_sample_age_s: Math.round((nowMs - newestMs) / 1000),
      stale_seconds: staleSeconds,
    });
  }
  // Samples stamped after `now` (an exporter clock slightly ahead) count as current.
  const inWindow = all.filter((s) => s.timeMs > fromMs);
  if (inWindow.length === 0) return noSamples(store, query, fromMs);
  const kind = inWindow[inWindow.length - 1]!.kind;
  const result = aggregate(
    inWindow.filter((s) => s.kind === kind),
    query.aggregation,
  );
  if ('reason' in result) return noValue(result.reason, { metric: query.metric, ...result.metadata });
  if (!Number.isFinite(result.value)) return noValue('non_finite_value', { metric: query.metric });
  const unit = query.aggregation === 'count' ? null : (entry?.unit ?? null);
  return measured(result.value, unit, `OTLP ${query.metric} ${query.aggregation} over ${query.window_seconds} s`);
}
