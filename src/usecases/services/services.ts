import { randomUUID } from 'node:crypto';
import { type Metric, MetricSchema, type Service, ServiceSchema } from '../../db/entities';
import { isUuid } from '../../domain/ids';
import { effectiveStatus } from '../../domain/reason-class';
import { type HealthStatus, rollUp } from '../../domain/thresholds';
import { assertNotReferenced } from '../shared/in-use';
import { guardConfigKey } from '../shared/config-keys';
import type { OrgContext } from '../shared/context';
import type { MetricScheduler } from '../metrics/ports';
import { syncSchedule } from '../metrics/metrics';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { assertWritable, reserveQuota } from '../shared/plan-limits';

export interface ServiceInput {
  name: string;
  description?: string | null;
  config_key?: string | null;
}

export type ServicePatch = Partial<ServiceInput>;

export async function createService(ctx: OrgContext, input: ServiceInput): Promise<Service> {
  return guardConfigKey('service', input.config_key, () =>
    ctx.em.transactional(async (em) => {
      await reserveQuota(ctx, em, 'services');
      const service = em.create(ServiceSchema, {
        id: randomUUID(),
        organization: ctx.org.id,
        name: input.name,
        description: input.description ?? null,
        configKey: input.config_key ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      });
      await em.flush();
      return service;
    }),
  );
}

export async function getService(ctx: OrgContext, id: string): Promise<Service> {
  return findLive(ctx, ServiceSchema, id, 'Service');
}

export async function listServices(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  return listLive(ctx, ServiceSchema, query);
}

export async function updateService(ctx: OrgContext, id: string, patch: ServicePatch): Promise<Service> {
  const service = await getService(ctx, id);
  await assertWritable(ctx, 'services', service);
  if (patch.name !== undefined) service.name = patch.name;
  if (patch.description !== undefined) service.description = patch.description;
  if (patch.config_key !== undefined) service.configKey = patch.config_key;
  service.updatedAt = ctx.now;
  await guardConfigKey('service', patch.config_key, () => ctx.em.flush());
  return service;
}

/**
 * Soft delete, with the service's metrics (they stop: agents drop them, cloud schedules go);
 * repeating it answers the same deleted service (idempotent). `metrics` are the ones it ended.
 */
/**
 * Soft-deletes a service with its metrics (409 in_use while an SLO or page uses them); the cloud
 * metrics' schedules go with them after commit.
 */
export async function deleteService(
  ctx: OrgContext,
  ports: { metricScheduler: MetricScheduler },
  id: string,
): Promise<Service> {
  const { service, metrics } = await softDeleteService(ctx, id);
  for (const m of metrics) await syncSchedule(ctx, { scheduler: ports.metricScheduler }, m);
  return service;
}

async function softDeleteService(ctx: OrgContext, id: string): Promise<{ service: Service; metrics: Metric[] }> {
  const service = isUuid(id) ? await ctx.em.findOne(ServiceSchema, { id, organization: ctx.org.id }) : null;
  let metrics: Metric[] = [];
  if (service && !service.deletedAt) {
    metrics = await ctx.em.find(MetricSchema, { service: service.id, deletedAt: null });
    await assertNotReferenced(ctx, { serviceIds: [service.id], metricIds: metrics.map((m) => m.id) }, 'service');
    for (const m of metrics) {
      m.deletedAt = ctx.now;
      m.updatedAt = ctx.now;
    }
  }
  return { service: await softDelete(ctx, ServiceSchema, id, 'Service'), metrics };
}

/** A service in a list: its status (the worst of its metrics, as serviceDetail), how many metrics it has and how many are paused. */
export interface ServiceSummary {
  status: HealthStatus;
  metrics: number;
  paused: number;
}

export async function serviceSummaries(
  ctx: OrgContext,
  serviceIds: readonly string[],
): Promise<Map<string, ServiceSummary>> {
  const metrics = serviceIds.length
    ? await ctx.em.find(
        MetricSchema,
        { organization: ctx.org.id, service: { $in: [...serviceIds] }, deletedAt: null },
        { fields: ['id', 'service', 'status', 'reason', 'pausedAt'] },
      )
    : [];
  const summaries = new Map<string, ServiceSummary>();
  for (const id of serviceIds) {
    const own = metrics.filter((m) => m.service === id);
    summaries.set(id, {
      status: rollUp(own.map((m) => effectiveStatus(m.status as HealthStatus, m.reason))).status ?? 'no_data',
      metrics: own.length,
      paused: own.filter((m) => m.pausedAt).length,
    });
  }
  return summaries;
}

/**
 * Pauses (or resumes) every live metric of a service, as PATCH /v1/metrics/{id} `paused` does one
 * by one; answers how many changed. Their cloud schedules follow after commit.
 */
export async function pauseServiceMetrics(
  ctx: OrgContext,
  ports: { metricScheduler: MetricScheduler },
  id: string,
  paused: boolean,
): Promise<{ service: Service; changed: number }> {
  const service = await getService(ctx, id);
  const metrics = await ctx.em.find(MetricSchema, {
    organization: ctx.org.id,
    service: service.id,
    deletedAt: null,
    pausedAt: paused ? null : { $ne: null },
  });
  for (const m of metrics) {
    await assertWritable(ctx, 'metrics', m);
    m.pausedAt = paused ? ctx.now : null;
    m.updatedAt = ctx.now;
  }
  await ctx.em.flush();
  for (const m of metrics) await syncSchedule(ctx, { scheduler: ports.metricScheduler }, m);
  return { service, changed: metrics.length };
}
