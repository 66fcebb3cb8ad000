import { MaintenanceSchema, MetricSchema } from '../db/entities';
import { dailyRollups } from '../db/repositories/samples-repository';
import { rollUp } from '../domain/thresholds';
import { toIso } from '../domain/time';
import type { OrgContext } from './context';
import { metricView } from './metrics/view';
import { getService } from './services';

export const UPTIME_DAYS = 90;

/** Percent with three decimals, rounded down, of part/whole. */
function percent(part: number, whole: number): string {
  const thousandths = Math.floor((part * 100_000) / whole);
  return `${Math.floor(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, '0')}`;
}

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
  const today = Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth(), ctx.now.getUTCDate());
  const days = Array.from({ length: UPTIME_DAYS }, (_, i) => new Date(today - (UPTIME_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const rows = await dailyRollups(ctx.em, metrics.map((m) => m.id), days[0]!);
  const uptime = days.map((date) => {
    const mine = rows.filter((r) => r.day === date);
    const measured = mine.reduce((n, r) => n + Number(r.samples) - Number(r.no_data), 0);
    const up = mine.reduce((n, r) => n + Number(r.healthy) + Number(r.degraded), 0);
    return { date, uptime_pct: measured > 0 ? percent(up, measured) : null, samples: mine.reduce((n, r) => n + Number(r.samples), 0) };
  });
  return {
    status: rolled.status ?? 'no_data',
    maintenance: maintenance ? { id: maintenance.id, title: maintenance.title, actual_start_at: toIso(maintenance.actualStartAt!), scheduled_end_at: toIso(maintenance.scheduledEndAt) } : null,
    metrics: metrics.map(metricView),
    uptime,
    service,
  };
}
