import { type CalendarDay, lastCalendarDays } from './periods';
import { type CountingPolicy, classify, formatFloor } from './slo';
import { type Interval, type StatusChange, maintenanceSegments } from './status-timeline';

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
 * How uptime counts time: healthy and degraded are up, unhealthy (including
 * `no_data` with a `target` reason, see availabilityTimeline) is down, `no_data` (a measurement
 * gap) and time before the first sample are not measured. Maintenance time counts as what the
 * service did (docs/decisions.md): an SLO with `no_data: excluded`, `maintenance: counted` and
 * `degraded: good` over the same timeline gives the same figure.
 */
export const UPTIME_POLICY: Required<CountingPolicy> = {
  no_data: 'excluded',
  maintenance: 'counted',
  degraded: 'good',
};

export interface DayTimeRow {
  date: string;
  /** Up time over measured time, percent with three decimals, rounded down; null when nothing was measured. */
  uptime_pct: string | null;
  up_ms: number;
  measured_ms: number;
}

/**
 * Uptime per day measured in time over a (service or metric) availability timeline: each day's
 * share of its measured time, up to `now`, in which the timeline was up; and over the whole span,
 * with `since`, the first measured instant in the span (null when nothing was measured): a
 * young service's total covers only the time since then, and the page says so.
 *
 * With `maintenances` (a public status page's windows), down time inside a window is left out
 * (neither up nor measured): a service down during announced maintenance reads "Under
 * maintenance", not an outage, so that time does not count against it either; up time inside a
 * window still counts as up.
 */
export function uptimeByTime(
  timeline: readonly StatusChange[],
  days: readonly Pick<CalendarDay, 'date' | 'start' | 'end'>[],
  now: number,
  maintenances: readonly Interval[] = [],
): { days: DayTimeRow[]; total: string | null; since: number | null } {
  const rows = days.map((d) => ({ date: d.date, uptime_pct: null as string | null, up_ms: 0, measured_ms: 0 }));
  const from = days[0]?.start ?? 0;
  const to = Math.min(days[days.length - 1]?.end ?? 0, now);
  // One pass over the span's segments (not one per day): a page view computes 90 days per component.
  let k = 0;
  let since: number | null = null;
  for (const seg of maintenanceSegments(timeline, maintenances, from, to)) {
    const verdict = classify({ status: seg.status }, UPTIME_POLICY);
    if (verdict === 'excluded' || (verdict === 'bad' && seg.maintenance) || seg.end <= seg.start) continue;
    since ??= seg.start;
    while (k < days.length && days[k]!.end <= seg.start) k++;
    for (let i = k; i < days.length && days[i]!.start < seg.end; i++) {
      const ms = Math.min(seg.end, days[i]!.end) - Math.max(seg.start, days[i]!.start);
      if (ms <= 0) continue;
      rows[i]!.measured_ms += ms;
      if (verdict === 'good') rows[i]!.up_ms += ms;
    }
  }
  let up = 0;
  let measured = 0;
  for (const r of rows) {
    up += r.up_ms;
    measured += r.measured_ms;
    if (r.measured_ms > 0) r.uptime_pct = percentFloor(r.up_ms, r.measured_ms);
  }
  return { days: rows, total: measured > 0 ? percentFloor(up, measured) : null, since: measured > 0 ? since : null };
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
