import { type CalendarDay, lastCalendarDays } from './periods';
import { type CountingPolicy, countVerdicts, formatFloor } from './slo';
import type { StatusChange } from './status-timeline';

/** Status pages and service detail show uptime per UTC day over this many days. */
export const UPTIME_DAYS = 90;

/** Percent with three decimals, rounded down, of part/whole (exact, as SLO attainment is). */
export function percentFloor(part: number, whole: number): string {
  return formatFloor(BigInt(part) * 100n, BigInt(whole), 3);
}

/** The `count` UTC days (YYYY-MM-DD) ending with the day of `now`, oldest first. */
export function uptimeDayList(now: Date, count = UPTIME_DAYS): string[] {
  return lastCalendarDays(count, now.getTime(), 'UTC').map((d) => d.date);
}

/** The `count` UTC days ending with the day of `now`, oldest first, with their bounds (ms). */
export function uptimeDays(now: Date, count = UPTIME_DAYS): CalendarDay[] {
  return lastCalendarDays(count, now.getTime(), 'UTC');
}

/**
 * How uptime counts time (issue 24 §3): healthy and degraded are up, unhealthy (including
 * `no_data` with a `target` reason, see availabilityTimeline) is down, `no_data` (a measurement
 * gap) and time before the first sample are not measured. Maintenance time counts as what the
 * service did (docs/decisions.md): an SLO with `no_data: excluded`, `maintenance: counted` and
 * `degraded: good` over the same timeline gives the same figure.
 */
export const UPTIME_POLICY: Required<CountingPolicy> = { no_data: 'excluded', maintenance: 'counted', degraded: 'good' };

export interface DayTimeRow {
  date: string;
  /** Up time over measured time, percent with three decimals, rounded down; null when nothing was measured. */
  uptime_pct: string | null;
  up_ms: number;
  measured_ms: number;
}

/**
 * Uptime per day measured in time over a (service or metric) availability timeline: each day's
 * share of its measured time, up to `now`, in which the timeline was up; and over the whole span.
 */
export function uptimeByTime(timeline: readonly StatusChange[], days: readonly Pick<CalendarDay, 'date' | 'start' | 'end'>[], now: number): { days: DayTimeRow[]; total: string | null } {
  let up = 0;
  let measured = 0;
  const out = days.map((day) => {
    const to = Math.min(day.end, now);
    const v = to > day.start ? countVerdicts(timeline, [], UPTIME_POLICY, day.start, to) : { good: 0, bad: 0, excluded: 0 };
    up += v.good;
    measured += v.good + v.bad;
    return { date: day.date, uptime_pct: v.good + v.bad > 0 ? percentFloor(v.good, v.good + v.bad) : null, up_ms: v.good, measured_ms: v.good + v.bad };
  });
  return { days: out, total: measured > 0 ? percentFloor(up, measured) : null };
}

/** The day's sample count from the daily rollups (the API's `uptime[].samples`). */
export function samplesByDay(rows: readonly Pick<DayCounts, 'day' | 'samples'>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.day, (out.get(r.day) ?? 0) + Number(r.samples));
  return out;
}

/** One metric-day of sample counts (numbers may arrive as strings from PostgreSQL). */
export interface DayCounts {
  day: string;
  samples: number | string;
  healthy: number | string;
  degraded: number | string;
  no_data: number | string;
}

export interface DayUptimeRow {
  date: string;
  /** Up time over measured time (uptimeByTime); null when nothing was measured. */
  uptime_pct: string | null;
  /** The day's samples, no_data included (from the daily rollups). */
  samples: number;
}
