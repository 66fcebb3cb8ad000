import type { EntityManager } from '@mikro-orm/postgresql';
import { MaintenanceSchema, type Metric } from '../../db/entities';
import { availabilityFlips } from '../../db/repositories/availability-flips-repository';
import { type Interval, type StatusChange, availabilityTimeline } from '../../domain/status-timeline';

/**
 * Each metric's availability timeline from its flips (status-timeline.ts `availabilityTimeline`):
 * no_data (a gap) from its creation, then every change, a `no_data` with a `target` reason read
 * as `unhealthy`. Flips before `from` are read only for the status in force at `from`.
 */
export async function metricTimelines(
  em: EntityManager,
  metrics: readonly Metric[],
  from: Date,
): Promise<Map<string, StatusChange[]>> {
  const flips = await availabilityFlips(
    em,
    metrics.map((m) => m.id),
    from,
  );
  return new Map(metrics.map((m) => [m.id, availabilityTimeline(flips.get(m.id) ?? [], m.createdAt.getTime())]));
}

/** Maintenance windows that touched the service (as run: actual start to actual end, or now). */
export async function serviceMaintenanceIntervals(
  em: EntityManager,
  organizationId: string,
  serviceId: string,
  now: Date,
): Promise<Interval[]> {
  const rows = await em.find(MaintenanceSchema, {
    organization: organizationId,
    deletedAt: null,
    actualStartAt: { $ne: null },
    affectedServices: { $contains: [serviceId] },
  });
  return rows.map((m) => ({
    start: m.actualStartAt!.getTime(),
    end: (m.actualEndAt ?? m.canceledAt ?? now).getTime(),
  }));
}
