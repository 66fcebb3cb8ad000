import { MaintenanceSchema, MetricSchema } from '../db/entities';
import { dailyRollups } from '../db/repositories/samples-repository';
import { rollUp } from '../domain/thresholds';
import { toIso } from '../domain/time';
import { uptimeByDay, uptimeDayList } from '../domain/uptime';
import type { OrgContext } from './context';
import { metricView } from './metrics/view';
import { getService } from './services';


/**
 * A service with its status (the worst of its metrics: unhealthy > degraded > healthy; no_data
 * only when no metric has a value), the maintenance in progress on it, its metrics, and per-day
 * uptime for 90 UTC days: healthy or degraded samples over samples with a value (null: no data).
 */
export async function serviceDetail(ctx: OrgContext, id: string) {
  const service = await getService(ctx, id);
  const metrics = await ctx.em.find(MetricSchema, { service: service.id, deletedAt: null }, { orderBy: { createdAt: 'asc' } });
  const rolled = rollUp(metrics.map((m) => m.status as never));
  const maintenance = await ctx.em.findOne(MaintenanceSchema, {
    organization: ctx.org.id,
    deletedAt: null,
    canceledAt: null,
    actualStartAt: { $ne: null },
    actualEndAt: null,
    affectedServices: { $contains: [service.id] },
  });
  const days = uptimeDayList(ctx.now);
  const uptime = uptimeByDay(await dailyRollups(ctx.em, metrics.map((m) => m.id), days[0]!), days).days;
  return {
    status: rolled.status ?? 'no_data',
    maintenance: maintenance ? { id: maintenance.id, title: maintenance.title, actual_start_at: toIso(maintenance.actualStartAt!), scheduled_end_at: toIso(maintenance.scheduledEndAt) } : null,
    metrics: metrics.map(metricView),
    uptime,
    service,
  };
}
