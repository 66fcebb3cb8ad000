import { randomUUID } from 'node:crypto';
import { MetricStatusFlipSchema } from '../../src/db/entities';
import type { ApiHarness } from './api-harness';
import type { OrgFixture } from './org-fixture';

/**
 * A manual metric on `serviceId`, created 2026-09-01, healthy from 30 September and down
 * 10:00–10:30 UTC on 10 October 2026: the 30-minute outage the SLA statement tests bill.
 * Answers the metric's id.
 */
export async function seedOctoberOutage(api: ApiHarness, org: OrgFixture, serviceId: string): Promise<string> {
  const metric = await org.call('POST', '/v1/metrics', {
    service_id: serviceId,
    name: 'availability',
    source_type: 'manual',
    source_config: {},
  });
  const em = api.orm.em.fork();
  await em
    .getConnection()
    .execute(`update metrics set created_at = '2026-09-01T00:00:00Z' where id = ?`, [metric.body.id]);
  let from = 'no_data';
  for (const [at, to] of [
    ['2026-09-30T00:00:00Z', 'healthy'],
    ['2026-10-10T10:00:00Z', 'unhealthy'],
    ['2026-10-10T10:30:00Z', 'healthy'],
  ] as const) {
    em.create(MetricStatusFlipSchema, {
      id: randomUUID(),
      organization: org.id,
      metric: metric.body.id,
      fromStatus: from,
      toStatus: to,
      value: null,
      reason: null,
      at: new Date(at),
    });
    from = to;
  }
  await em.flush();
  return metric.body.id as string;
}
