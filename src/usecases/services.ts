import { randomUUID } from 'node:crypto';
import { type Metric, MetricSchema, type Service, ServiceSchema } from '../db/entities';
import { isUuid } from '../domain/ids';
import { assertNotReferenced } from './in-use';
import { guardConfigKey } from './config-keys';
import type { OrgContext } from './context';
import type { MetricScheduler } from './metrics/ports';
import { syncSchedule } from './metrics/metrics';
import { findLive, listLive, softDelete } from './org-resources';
import { assertWritable, reserveQuota } from './plan-limits';

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
export async function deleteService(ctx: OrgContext, ports: { metricScheduler: MetricScheduler }, id: string): Promise<Service> {
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
