/**
 * Measured value + thresholds → health status, and the worst-of rollup (spec §1, §2.2, §2.3, §4.1).
 *
 * - Comparisons are strict: over is `>`, under is `<`, equal is `=` (a value equal to an `over`
 *   threshold is not over it).
 * - No value (null, undefined, NaN, ±Infinity) → `no_data`, whatever the thresholds.
 * - A value with thresholds that are not all four set (or hold a non-finite number) → `null`.
 * - Otherwise: `unhealthy` when the unhealthy condition holds, else `healthy` when the healthy
 *   condition holds, else `degraded` ("between them is degraded"). When both conditions hold
 *   (overlapping thresholds, e.g. healthy over 0 and unhealthy over 100) the unhealthy one wins:
 *   a status page must never hide a breach behind a looser healthy rule.
 */
import { sourceTypeRow } from './source-types';

export const HEALTH_STATUSES = ['healthy', 'degraded', 'unhealthy', 'no_data'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];
/** The statuses that come from a measured value and take part in the ranking. */
export type MeasuredStatus = Exclude<HealthStatus, 'no_data'>;

export const THRESHOLD_OPERATIONS = ['over', 'under', 'equal'] as const;
export type ThresholdOperation = (typeof THRESHOLD_OPERATIONS)[number];

export interface Thresholds {
  healthy_operation?: ThresholdOperation | null;
  healthy_value?: number | null;
  unhealthy_operation?: ThresholdOperation | null;
  unhealthy_value?: number | null;
}

export type CompleteThresholds = Required<{ [K in keyof Thresholds]: NonNullable<Thresholds[K]> }>;

const isOperation = (op: unknown): op is ThresholdOperation =>
  (THRESHOLD_OPERATIONS as readonly unknown[]).includes(op);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** All four fields set, with a known operation and a finite value each. */
export function thresholdsComplete(t: Thresholds | null | undefined): t is CompleteThresholds {
  return (
    !!t &&
    isOperation(t.healthy_operation) &&
    isFiniteNumber(t.healthy_value) &&
    isOperation(t.unhealthy_operation) &&
    isFiniteNumber(t.unhealthy_value)
  );
}

/** Strict comparison: `value <op> threshold`. */
export function holds(value: number, op: ThresholdOperation, threshold: number): boolean {
  switch (op) {
    case 'over':
      return value > threshold;
    case 'under':
      return value < threshold;
    case 'equal':
      return value === threshold;
  }
}

export function evaluateStatus(
  value: number | null | undefined,
  t: Thresholds | null | undefined,
): HealthStatus | null {
  if (!isFiniteNumber(value)) return 'no_data';
  if (!thresholdsComplete(t)) return null;
  if (holds(value, t.unhealthy_operation, t.unhealthy_value)) return 'unhealthy';
  if (holds(value, t.healthy_operation, t.healthy_value)) return 'healthy';
  return 'degraded';
}

/** Spec §1: unhealthy (3) > degraded (2) > healthy (1). no_data has no rank. */
export const STATUS_RANK: Readonly<Record<MeasuredStatus, 1 | 2 | 3>> = { healthy: 1, degraded: 2, unhealthy: 3 };

export interface StatusRollup {
  /**
   * Worst measured child status; `no_data` when every counted child is no_data; null when no
   * child has a status at all (empty list, or only null statuses: values without complete thresholds).
   */
  status: HealthStatus | null;
  /** Some child is no_data: reported as such, never counted as healthy. */
  anyNoData: boolean;
  /** Children per status (null children are not counted). */
  counts: Record<HealthStatus, number>;
}

/**
 * Roll child statuses up to a service or page (spec §1). no_data children never improve or
 * worsen the measured ones: they are reported through `anyNoData` and `counts.no_data`, and only
 * when no child was measured does the rollup itself read `no_data`. Null children are skipped.
 */
export function rollUp(statuses: Iterable<HealthStatus | null | undefined>): StatusRollup {
  const counts: Record<HealthStatus, number> = { healthy: 0, degraded: 0, unhealthy: 0, no_data: 0 };
  let worst: MeasuredStatus | null = null;
  for (const s of statuses) {
    if (s == null) continue;
    counts[s] += 1;
    if (s === 'no_data') continue;
    if (worst === null || STATUS_RANK[s] > STATUS_RANK[worst]) worst = s;
  }
  const status = worst ?? (counts.no_data > 0 ? 'no_data' : null);
  return { status, anyNoData: counts.no_data > 0, counts };
}

/** The rollup's status alone: worst of healthy/degraded/unhealthy, no_data only when nothing was measured. */
export function worstOf(statuses: Iterable<HealthStatus | null | undefined>): HealthStatus | null {
  return rollUp(statuses).status;
}

/**
 * An up/down check: a metric of a type whose thresholds are optional (HTTP) stored without them.
 * It is judged on the answer alone, as uptime monitors do: up when the target answered an accepted
 * status (the value is then the response time), down when it answered another status or did not
 * answer. Latency thresholds, when given, judge the value as for any metric.
 */
export function isUpDownCheck(sourceType: string, thresholds: Thresholds | null | undefined): boolean {
  return sourceTypeRow(sourceType)?.thresholds === 'optional' && !hasAnyThreshold(thresholds);
}

const hasAnyThreshold = (t: Thresholds | null | undefined): boolean =>
  !!t && Object.values(t).some((v) => v !== null && v !== undefined);

/**
 * The status a metric's reading gets (a sample, a location's vote), in one place for every path
 * that stores one (agent samples, cloud rounds):
 * - no value: `no_data` with its reason, except an up/down check's `unexpected_status:<code>`
 *   (the target answered, with a status outside the accepted set), which is `unhealthy`;
 * - a value: what the thresholds give it; `healthy` when the metric has none (an up/down check
 *   that got an accepted answer, or a metric stored before thresholds were checked).
 */
export function readingStatus(
  metric: { sourceType: string; thresholds: Thresholds | null | undefined },
  value: number | null | undefined,
  reason: string | null | undefined,
): HealthStatus {
  if (
    !isFiniteNumber(value) &&
    isUpDownCheck(metric.sourceType, metric.thresholds) &&
    typeof reason === 'string' &&
    reason.startsWith('unexpected_status:')
  )
    return 'unhealthy';
  return evaluateStatus(value, metric.thresholds) ?? 'healthy';
}

/**
 * The reason a stored reading shows: a `no_data` reading's (no reason: `no_data`), and the
 * `unexpected_status:<code>` an up/down check was judged unhealthy on, so the reader sees which
 * status the target answered; null for any other reading with a status.
 */
export function shownReason(status: string, reason: string | null | undefined): string | null {
  if (status === 'no_data') return reason ?? 'no_data';
  return status === 'unhealthy' && typeof reason === 'string' && reason.startsWith('unexpected_status:')
    ? reason
    : null;
}
