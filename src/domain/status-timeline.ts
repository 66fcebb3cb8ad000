/**
 * Status timelines: time spent in each health status, the service-level worst-of timeline, and
 * maintenance windows (spec §1, §3.2). Instants are ms since the epoch; intervals are [start, end).
 *
 * - A timeline is a list of changes `{ at, status }`; a status holds from its `at` until the next
 *   change, and the last one holds indefinitely (callers stop at `now`). Input order does not
 *   matter: changes are sorted by `at`; of two changes at the same instant the later in the list
 *   wins; repeats of the current status are dropped.
 * - `unknown` is the time before a timeline's first change: nothing was recorded at all (the
 *   metric did not exist yet or had never reported). It is not `no_data`, which is a recorded
 *   status ("a probe ran and yielded no value", §3.2, with a reason code). Durations keep the two
 *   apart; SLOs and daily uptime never count `unknown` time (see slo.ts), whatever their policy.
 * - Service rollup follows `rollUp` in thresholds.ts: worst of unhealthy > degraded > healthy,
 *   `no_data` only when every metric that has started is no_data; a metric still `unknown` is
 *   skipped like a null child, and the service is `unknown` until some metric has a status.
 * - Maintenance windows may overlap or touch (they are merged) and may be open-ended (end =
 *   Infinity). Inside a window time can be `counted` as measured, counted as `healthy`, or
 *   `excluded` into its own `maintenance` bucket. `unknown` time stays unknown in every mode.
 */
import { effectiveStatus } from './reason-class';
import { worstOf, type HealthStatus } from './thresholds';

export type TimelineStatus = HealthStatus | 'unknown';
export const TIMELINE_STATUSES = [
  'healthy',
  'degraded',
  'unhealthy',
  'no_data',
  'unknown',
] as const satisfies readonly TimelineStatus[];

export interface StatusChange {
  at: number;
  status: HealthStatus;
}

export interface Interval {
  start: number;
  end: number;
}

export interface StatusSegment extends Interval {
  status: TimelineStatus;
  /** Inside a maintenance window (only set by `maintenanceSegments`). */
  maintenance?: boolean;
}

export type MaintenanceMode = 'counted' | 'healthy' | 'excluded';

/** ms per status within a range; `maintenance` holds excluded maintenance time (mode `excluded`). */
export type StatusDurations = Record<TimelineStatus | 'maintenance', number>;

export const emptyDurations = (): StatusDurations => ({
  healthy: 0,
  degraded: 0,
  unhealthy: 0,
  no_data: 0,
  unknown: 0,
  maintenance: 0,
});

/** Sorted by `at`, one change per instant (the last given wins), no repeated status. */
export function normalizeTimeline(changes: readonly StatusChange[]): StatusChange[] {
  for (const c of changes)
    if (!Number.isFinite(c.at)) throw new RangeError(`status change at a non-finite instant: ${c.at}`);
  const sorted = [...changes].sort((a, b) => a.at - b.at); // stable: same-instant changes keep input order
  const out: StatusChange[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && last.at === c.at) out.pop();
    const prev = out[out.length - 1];
    if (!prev || prev.status !== c.status) out.push({ at: c.at, status: c.status });
  }
  return out;
}

/** Index of the last change at or before `ms` in a normalized timeline, or -1. */
function lastIndexAtOrBefore(timeline: readonly StatusChange[], ms: number): number {
  let lo = 0;
  let hi = timeline.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((timeline[mid] as StatusChange).at <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The status in force at an instant; `unknown` before the first change. */
export function statusAt(timeline: readonly StatusChange[], ms: number): TimelineStatus {
  const t = normalizeTimeline(timeline);
  return t[lastIndexAtOrBefore(t, ms)]?.status ?? 'unknown';
}

/**
 * The timeline clipped to [from, to), as contiguous segments covering the whole range: the status
 * in force at `from` (or `unknown`) starts it, changes outside the range are ignored otherwise.
 */
export function clipTimeline(timeline: readonly StatusChange[], from: number, to: number): StatusSegment[] {
  if (!(to > from)) return [];
  const t = normalizeTimeline(timeline);
  let i = lastIndexAtOrBefore(t, from);
  const segments: StatusSegment[] = [];
  let start = from;
  let status: TimelineStatus = t[i]?.status ?? 'unknown';
  for (i += 1; i < t.length; i++) {
    const c = t[i] as StatusChange;
    if (c.at >= to) break;
    segments.push({ start, end: c.at, status });
    start = c.at;
    status = c.status;
  }
  segments.push({ start, end: to, status });
  return segments;
}

/** Sorted, non-empty, non-overlapping intervals; overlapping or touching ones are merged. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((iv) => iv.end > iv.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const iv of sorted) {
    const last = out[out.length - 1];
    if (last && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else out.push({ start: iv.start, end: iv.end });
  }
  return out;
}

/** Total length of the parts of `intervals` that fall inside [from, to). */
export function overlapMs(intervals: readonly Interval[], from: number, to: number): number {
  let total = 0;
  for (const iv of mergeIntervals(intervals)) total += Math.max(0, Math.min(iv.end, to) - Math.max(iv.start, from));
  return total;
}

/** `clipTimeline`, with each segment split at maintenance boundaries and marked `maintenance`. */
export function maintenanceSegments(
  timeline: readonly StatusChange[],
  maintenances: readonly Interval[],
  from: number,
  to: number,
): StatusSegment[] {
  const windows = mergeIntervals(maintenances);
  const out: StatusSegment[] = [];
  for (const seg of clipTimeline(timeline, from, to)) {
    let cursor = seg.start;
    for (const w of windows) {
      if (w.end <= cursor) continue;
      if (w.start >= seg.end) break;
      if (w.start > cursor) out.push({ start: cursor, end: w.start, status: seg.status, maintenance: false });
      const end = Math.min(w.end, seg.end);
      out.push({ start: Math.max(w.start, cursor), end, status: seg.status, maintenance: true });
      cursor = end;
    }
    if (cursor < seg.end) out.push({ start: cursor, end: seg.end, status: seg.status, maintenance: false });
  }
  return out;
}

/**
 * ms spent in each status within [from, to) (all zero when `to <= from`). With maintenance
 * windows, `mode` decides what their time is: `counted` (as measured, the default), `healthy`, or
 * `excluded` (moved to the `maintenance` bucket). `unknown` time is never moved.
 */
export function durationsByStatus(
  timeline: readonly StatusChange[],
  from: number,
  to: number,
  options: { maintenances?: readonly Interval[]; mode?: MaintenanceMode } = {},
): StatusDurations {
  const { maintenances = [], mode = 'counted' } = options;
  const out = emptyDurations();
  for (const seg of maintenanceSegments(timeline, maintenances, from, to)) {
    const ms = seg.end - seg.start;
    if (!seg.maintenance || mode === 'counted' || seg.status === 'unknown') out[seg.status] += ms;
    else if (mode === 'healthy') out.healthy += ms;
    else out.maintenance += ms;
  }
  return out;
}

/**
 * The service-level timeline from its metrics' timelines: at each instant the worst of the
 * metrics' statuses, by `worstOf` (thresholds.ts). Starts at the first change of any metric.
 */
export function worstOfTimelines(timelines: readonly (readonly StatusChange[])[]): StatusChange[] {
  const normalized = timelines.map(normalizeTimeline);
  const instants = [...new Set(normalized.flatMap((t) => t.map((c) => c.at)))].sort((a, b) => a - b);
  const cursors = normalized.map(() => -1);
  const out: StatusChange[] = [];
  for (const at of instants) {
    normalized.forEach((t, k) => {
      while ((cursors[k] as number) + 1 < t.length && (t[(cursors[k] as number) + 1] as StatusChange).at <= at)
        cursors[k] = (cursors[k] as number) + 1;
    });
    const status = worstOf(normalized.map((t, k) => t[cursors[k] as number]?.status));
    if (status && out[out.length - 1]?.status !== status) out.push({ at, status });
  }
  return out;
}

/** A stored status flip as availability reads it: its `to_status` and the reason that came with it. */
export interface FlipReading {
  at: number;
  toStatus: string;
  reason: string | null;
}

/**
 * A metric's availability timeline from its flips: each flip's status with
 * `effectiveStatus`, so `no_data` with a `target` reason is `unhealthy` and `no_data` otherwise is
 * a measurement gap. `startAt` (the metric's creation) opens the timeline as `no_data` (a gap)
 * unless a flip is already there: time before the first sample is never measured.
 */
export function availabilityTimeline(flips: readonly FlipReading[], startAt?: number): StatusChange[] {
  const changes = flips.map((f) => ({ at: f.at, status: effectiveStatus(f.toStatus as HealthStatus, f.reason) }));
  const first = changes.reduce((min, c) => Math.min(min, c.at), Number.POSITIVE_INFINITY);
  if (startAt !== undefined && startAt < first) changes.unshift({ at: startAt, status: 'no_data' });
  return changes;
}
