import type { EntityManager } from '@mikro-orm/postgresql';
import type { Metric } from '../../db/entities';
import { dailyRollups } from '../../db/repositories/samples-repository';
import { type Interval, worstOfTimelines } from '../../domain/status-timeline';
import { type DayUptimeRow, samplesByDay, uptimeByTime, uptimeDays } from '../../domain/uptime';
import { metricTimelines } from '../metrics/timelines';

export interface UptimeFigures {
  /** The last 90 UTC days, oldest first: uptime measured in time, and the day's sample count. */
  days: DayUptimeRow[];
  /** Over the whole span: up time over measured time; null when nothing was measured. */
  total: string | null;
  /** The first measured instant in the span (ms), which `total` counts from; null when nothing was measured. */
  since: number | null;
}

/**
 * Reads what 90-day uptime needs for a set of metrics once (their flips since the first day, and
 * the daily sample counts), and answers the uptime of any subset of them: a service (the worst of
 * its metrics at each instant) or one metric; with maintenance windows, as a status page counts it
 * (down time inside them left out).
 */
export async function loadUptime(
  em: EntityManager,
  metrics: readonly Metric[],
  now: Date,
): Promise<(subset: readonly Metric[], maintenances?: readonly Interval[]) => UptimeFigures> {
  const days = uptimeDays(now);
  const from = new Date(days[0]!.start);
  const [timelines, rollups] = await Promise.all([
    metricTimelines(em, metrics, from),
    dailyRollups(
      em,
      metrics.map((m) => m.id),
      days[0]!.date,
    ),
  ]);
  return (subset, maintenances = []) => {
    const ids = new Set(subset.map((m) => m.id));
    const samples = samplesByDay(rollups.filter((r) => ids.has(r.metric_id)));
    const timeline = worstOfTimelines(subset.map((m) => timelines.get(m.id) ?? []));
    const u = uptimeByTime(timeline, days, now.getTime(), maintenances);
    return {
      days: u.days.map((d) => ({ date: d.date, uptime_pct: d.uptime_pct, samples: samples.get(d.date) ?? 0 })),
      total: u.total,
      since: u.since,
    };
  };
}
