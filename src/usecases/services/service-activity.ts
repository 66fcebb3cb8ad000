import { IncidentSchema } from '../../db/entities';
import { availabilityFlips } from '../../db/repositories/availability-flips-repository';
import { responseTimeBuckets } from '../../db/repositories/response-time-repository';
import { incidentState } from '../../domain/incident-state';
import { type ChartRange, chartWindow, isResponseTimeMetric } from '../../domain/response-time';
import { type StatusChange, availabilityTimeline, worstOfTimelines } from '../../domain/status-timeline';
import type { OrgContext } from '../shared/context';
import type { MetricView } from '../metrics/view';

/** At most this many status changes and incidents on the page. */
const SHOWN = 50;

export interface ResponseTimeSeries {
  metric_id: string;
  name: string;
  points: { at: number; mean: number; max: number }[];
}

export interface ServiceActivity {
  range: ChartRange;
  from: number;
  to: number;
  bucketMs: number;
  series: ResponseTimeSeries[];
  /** The service's status changes in the range (the worst of its metrics, as uptime reads it), newest first. */
  changes: { at: string; from: string | null; to: string }[];
  incidents: {
    id: string;
    title: string;
    severity: string;
    state: string;
    created_at: string;
    resolved_at: string | null;
  }[];
}

/**
 * What the service page shows beside its metrics: each response-time metric's mean per bucket
 * over `range`, the service's status changes in it, and the incidents naming the service.
 */
export async function serviceActivity(
  ctx: OrgContext,
  serviceId: string,
  metrics: readonly MetricView[],
  range: ChartRange,
): Promise<ServiceActivity> {
  const w = chartWindow(range, ctx.now);
  const timed = metrics.filter(isResponseTimeMetric);
  const [buckets, flips, incidents] = await Promise.all([
    responseTimeBuckets(
      ctx.em,
      timed.map((m) => m.id),
      new Date(w.from),
      new Date(w.to),
      w.bucketMs,
    ),
    availabilityFlips(
      ctx.em,
      metrics.map((m) => m.id),
      new Date(w.from),
    ),
    ctx.em.find(
      IncidentSchema,
      { organization: ctx.org.id, deletedAt: null, affectedServices: { $contains: [serviceId] } },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: SHOWN },
    ),
  ]);
  const timeline = worstOfTimelines(
    metrics.map((m) => availabilityTimeline(flips.get(m.id) ?? [], Date.parse(m.created_at))),
  );
  return {
    range,
    ...w,
    series: timed.map((m) => ({
      metric_id: m.id,
      name: m.name,
      points: buckets.filter((b) => b.metric_id === m.id).map(({ at, mean, max }) => ({ at, mean, max })),
    })),
    changes: changesIn(timeline, w.from).slice(0, SHOWN),
    incidents: incidents.map((i) => ({
      id: i.id,
      title: i.title,
      severity: i.severity,
      state: incidentState(i),
      created_at: i.createdAt.toISOString(),
      resolved_at: i.resolvedAt?.toISOString() ?? null,
    })),
  };
}

/** The changes after `from`, newest first, each with the status before it. */
function changesIn(timeline: readonly StatusChange[], from: number): ServiceActivity['changes'] {
  const out: ServiceActivity['changes'] = [];
  timeline.forEach((c, i) => {
    if (c.at >= from)
      out.push({ at: new Date(c.at).toISOString(), from: timeline[i - 1]?.status ?? null, to: c.status });
  });
  return out.reverse();
}
