import { lastCalendarDays } from './periods';
import { formatFloor } from './slo';

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

/** One metric-day of status counts (numbers may arrive as strings from PostgreSQL). */
export interface DayCounts {
  day: string;
  samples: number | string;
  healthy: number | string;
  degraded: number | string;
  no_data: number | string;
}

export interface DayUptimeRow {
  date: string;
  /** Healthy or degraded samples over samples with a value; null when nothing was measured. */
  uptime_pct: string | null;
  samples: number;
}

/** Uptime per day over any number of metrics' daily counts, and over the whole span. */
export function uptimeByDay(rows: readonly DayCounts[], days: readonly string[]): { days: DayUptimeRow[]; total: string | null } {
  const byDay = new Map<string, { up: number; measured: number; samples: number }>();
  for (const r of rows) {
    const d = byDay.get(r.day) ?? { up: 0, measured: 0, samples: 0 };
    d.up += Number(r.healthy) + Number(r.degraded);
    d.measured += Number(r.samples) - Number(r.no_data);
    d.samples += Number(r.samples);
    byDay.set(r.day, d);
  }
  let up = 0;
  let measured = 0;
  const out = days.map((date) => {
    const d = byDay.get(date);
    if (!d) return { date, uptime_pct: null, samples: 0 };
    up += d.up;
    measured += d.measured;
    return { date, uptime_pct: d.measured > 0 ? percentFloor(d.up, d.measured) : null, samples: d.samples };
  });
  return { days: out, total: measured > 0 ? percentFloor(up, measured) : null };
}
