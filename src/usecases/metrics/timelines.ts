import type { EntityManager } from '@mikro-orm/postgresql';
import { MaintenanceSchema, type Metric, MetricStatusFlipSchema } from '../../db/entities';
import type { Interval, StatusChange } from '../../domain/status-timeline';
import type { HealthStatus } from '../../domain/thresholds';

/**
 * Each metric's status timeline from its flips: no_data from its creation, then every change.
 * Flips before `from` are read only for the status in force at `from`.
 */
export async function metricTimelines(em: EntityManager, metrics: readonly Metric[], from: Date): Promise<Map<string, StatusChange[]>> {
  const out = new Map<string, StatusChange[]>();
  if (!metrics.length) return out;
  const flips = await em.find(MetricStatusFlipSchema, { metric: { $in: metrics.map((m) => m.id) } }, { orderBy: { at: 'asc' } });
  for (const m of metrics) {
    const mine = flips.filter((f) => f.metric === m.id);
    const before = mine.filter((f) => f.at.getTime() < from.getTime());
    const after = mine.filter((f) => f.at.getTime() >= from.getTime()).map((f) => ({ at: f.at.getTime(), status: f.toStatus as HealthStatus }));
    // Before its first flip a metric was no_data since its creation (samples may be older than the row: backfills).
    const created = m.createdAt.getTime();
    const start: StatusChange[] = before.length
      ? [{ at: from.getTime(), status: before[before.length - 1]!.toStatus as HealthStatus }]
      : after.length && after[0]!.at <= created
        ? []
        : [{ at: created, status: 'no_data' }];
    out.set(m.id, [...start, ...after]);
  }
  return out;
}

/** Maintenance windows that touched the service (as run: actual start to actual end, or now). */
export async function serviceMaintenanceIntervals(em: EntityManager, organizationId: string, serviceId: string, now: Date): Promise<Interval[]> {
  const rows = await em.find(MaintenanceSchema, { organization: organizationId, deletedAt: null, actualStartAt: { $ne: null }, affectedServices: { $contains: [serviceId] } });
  return rows.map((m) => ({ start: m.actualStartAt!.getTime(), end: (m.actualEndAt ?? m.canceledAt ?? now).getTime() }));
}
