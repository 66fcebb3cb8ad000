import { MaintenanceSchema, MetricSchema } from '../../db/entities';
import { effectiveStatus } from '../../domain/reason-class';
import { type HealthStatus, rollUp } from '../../domain/thresholds';
import { toIso } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import { metricView } from '../metrics/view';
import { getService } from './services';
import { loadUptime } from '../slos/uptime';

/**
 * A service with its status (the worst of its metrics: unhealthy > degraded > healthy, a metric
 * no_data with a `target` reason counting as unhealthy; no_data only when no metric is measured),
 * the maintenance in progress on it, its metrics, and per-day uptime for 90 UTC days: the share
 * of each day's measured time in which the service was up (null: nothing measured).
 */
export async function serviceDetail(ctx: OrgContext, id: string) {
  const service = await getService(ctx, id);
  const metrics = await ctx.em.find(
    MetricSchema,
    { service: service.id, deletedAt: null },
    { orderBy: { createdAt: 'asc' } },
  );
  const rolled = rollUp(metrics.map((m) => effectiveStatus(m.status as HealthStatus, m.reason)));
  const maintenance = await ctx.em.findOne(MaintenanceSchema, {
    organization: ctx.org.id,
    deletedAt: null,
    canceledAt: null,
    actualStartAt: { $ne: null },
    actualEndAt: null,
    affectedServices: { $contains: [service.id] },
  });
  const uptime = (await loadUptime(ctx.em, metrics, ctx.now))(metrics).days;
  return {
    status: rolled.status ?? 'no_data',
    maintenance: maintenance
      ? {
          id: maintenance.id,
          title: maintenance.title,
          actual_start_at: toIso(maintenance.actualStartAt!),
          scheduled_end_at: toIso(maintenance.scheduledEndAt),
        }
      : null,
    metrics: metrics.map(metricView),
    uptime,
    service,
  };
}
