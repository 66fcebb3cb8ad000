import type { DecodedPoint, OtlpAttributes, OtlpPoint } from './otlp-decode';

/**
 * Pushed OTLP data points kept in memory per metric name, bounded in time (`retentionMs`, measured
 * against the receiving clock) and in size (points per metric, metric names, tracked series).
 *
 * Samples are stored as window contributions: a cumulative point (cumulative sum, cumulative
 * histogram, summary) becomes the difference from the previous point of its series (metric +
 * attribute set) since the same start time; the first point of a series, and a point after a
 * reset (new start time, or a monotonic total going down), counts in full. A repeated or older
 * timestamp for a series (an exporter retry) is ignored.
 */

export interface NumberSample {
  kind: 'number';
  timeMs: number;
  attributes: OtlpAttributes;
  value: number;
  increment: number;
}
export interface HistogramSample {
  kind: 'histogram';
  timeMs: number;
  attributes: OtlpAttributes;
  count: number;
  sum: number | null;
  bounds: number[];
  bucketCounts: number[];
}
export interface ExponentialHistogramSample {
  kind: 'exponential_histogram';
  timeMs: number;
  attributes: OtlpAttributes;
  count: number;
  sum: number | null;
}
export interface SummarySample {
  kind: 'summary';
  timeMs: number;
  attributes: OtlpAttributes;
  count: number;
  sum: number | null;
  quantiles: Array<{ quantile: number; value: number }>;
}
export type OtlpSample = NumberSample | HistogramSample | ExponentialHistogramSample | SummarySample;

export interface OtlpStoreLimits {
  /** Samples older than this (against the receiving clock) are dropped. Default 1 h. */
  retentionMs: number;
  maxPointsPerMetric: number;
  maxMetrics: number;
  maxSeries: number;
}

export const DEFAULT_OTLP_STORE_LIMITS: OtlpStoreLimits = {
  retentionMs: 3_600_000,
  maxPointsPerMetric: 10_000,
  maxMetrics: 1_000,
  maxSeries: 10_000,
};

interface MetricEntry {
  unit: string | null;
  samples: OtlpSample[];
}

export interface OtlpRejection {
  reason: 'otlp_invalid_json' | 'otlp_malformed_payload';
  atMs: number;
  message: string;
}

const seriesKey = (metric: string, attrs: OtlpAttributes) =>
  JSON.stringify([
    metric,
    Object.keys(attrs)
      .sort()
      .map((k) => [k, attrs[k]]),
  ]);

const sameBounds = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export class OtlpStore {
  private readonly metrics = new Map<string, MetricEntry>();
  /** Last point of each series, for cumulative → delta and duplicate detection. */
  private readonly series = new Map<string, OtlpPoint>();
  private rejection: OtlpRejection | null = null;
  readonly limits: OtlpStoreLimits;

  constructor(limits: Partial<OtlpStoreLimits> = {}) {
    this.limits = { ...DEFAULT_OTLP_STORE_LIMITS, ...limits };
  }

  /** Adds decoded points; returns how many were kept (the rest were duplicates, too old, or over a limit). */
  add(points: readonly DecodedPoint[], nowMs: number): number {
    let kept = 0;
    const touched = new Set<MetricEntry>();
    for (const { metric, unit, point } of points) {
      if (point.timeMs < nowMs - this.limits.retentionMs) continue;
      let entry = this.metrics.get(metric);
      if (!entry) {
        if (this.metrics.size >= this.limits.maxMetrics) continue;
        entry = { unit, samples: [] };
        this.metrics.set(metric, entry);
      }
      const sample = this.toSample(metric, point);
      if (!sample) continue;
      if (unit !== null) entry.unit = unit;
      entry.samples.push(sample);
      touched.add(entry);
      kept++;
    }
    for (const entry of touched) this.prune(entry, nowMs);
    return kept;
  }

  private toSample(metric: string, point: OtlpPoint): OtlpSample | null {
    const key = seriesKey(metric, point.attributes);
    const prev = this.series.get(key);
    if (prev && BigInt(point.timeNs) <= BigInt(prev.timeNs)) return null;
    this.series.delete(key);
    this.series.set(key, point);
    if (this.series.size > this.limits.maxSeries) this.series.delete(this.series.keys().next().value!);
    const previous =
      prev && prev.kind === point.kind && point.cumulative && prev.startNs === point.startNs ? prev : null;
    const { timeMs, attributes } = point;
    switch (point.kind) {
      case 'number': {
        const p = previous as typeof point | null;
        let increment = point.value;
        if (point.cumulative && p && !(point.monotonic && point.value < p.value)) increment = point.value - p.value;
        return { kind: 'number', timeMs, attributes, value: point.value, increment };
      }
      case 'histogram': {
        const p = previous as typeof point | null;
        const delta =
          p &&
          point.count >= p.count &&
          sameBounds(p.bounds, point.bounds) &&
          point.bucketCounts.every((c, i) => c >= (p.bucketCounts[i] ?? 0));
        if (!delta || !p)
          return {
            kind: 'histogram',
            timeMs,
            attributes,
            count: point.count,
            sum: point.sum,
            bounds: point.bounds,
            bucketCounts: point.bucketCounts,
          };
        return {
          kind: 'histogram',
          timeMs,
          attributes,
          bounds: point.bounds,
          count: point.count - p.count,
          sum: point.sum !== null && p.sum !== null ? point.sum - p.sum : null,
          bucketCounts: point.bucketCounts.map((c, i) => c - (p.bucketCounts[i] ?? 0)),
        };
      }
      case 'exponential_histogram':
      case 'summary': {
        const p = previous as typeof point | null;
        const delta = p !== null && point.count >= p.count;
        const count = delta ? point.count - p.count : point.count;
        const sum = !delta ? point.sum : point.sum !== null && p.sum !== null ? point.sum - p.sum : null;
        if (point.kind === 'summary')
          return { kind: 'summary', timeMs, attributes, count, sum, quantiles: point.quantiles };
        return { kind: 'exponential_histogram', timeMs, attributes, count, sum };
      }
    }
  }

  private prune(entry: MetricEntry, nowMs: number): void {
    const s = entry.samples;
    if (s.some((x, i) => i > 0 && x.timeMs < s[i - 1]!.timeMs)) s.sort((a, b) => a.timeMs - b.timeMs);
    const cutoff = nowMs - this.limits.retentionMs;
    let drop = 0;
    while (drop < s.length && s[drop]!.timeMs < cutoff) drop++;
    drop = Math.max(drop, s.length - this.limits.maxPointsPerMetric);
    if (drop > 0) s.splice(0, drop);
  }

  /** The metric's samples (oldest first) and its unit, or null when nothing was received for it. */
  get(metric: string): { unit: string | null; samples: readonly OtlpSample[] } | null {
    return this.metrics.get(metric) ?? null;
  }

  /** Remembers the last request the receiver refused, so a metric with no samples can say why. */
  noteRejection(rejection: OtlpRejection): void {
    this.rejection = rejection;
  }

  lastRejection(): OtlpRejection | null {
    return this.rejection;
  }
}
