import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { MetricSchema } from './metric';
import { OrganizationSchema } from './organization';
import { ServiceSchema } from './service';

/** An objective over one metric or one service (exactly one of the two), with its counting policy. */
export const SloSchema = defineEntity({
  name: 'Slo',
  tableName: 'slos',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.string().length(200),
    /** Stable handle for config as code; unique among the organization's live SLOs. */
    configKey: p.string().length(100).nullable(),
    metric: p.manyToOne(MetricSchema).mapToPk().deleteRule('cascade').nullable().index(),
    service: p.manyToOne(ServiceSchema).mapToPk().deleteRule('cascade').nullable().index(),
    /** Percent as a decimal string ('99.9'). */
    objective: p.string().length(16),
    /** { kind: 'rolling', days } or { kind: 'calendar_month', timezone }. */
    window: p.json<Record<string, unknown>>(),
    noData: p.string().length(16),
    maintenance: p.string().length(16),
    degraded: p.string().length(8),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'slos_live_config_key_unique',
      expression:
        'create unique index slos_live_config_key_unique on slos (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
  ],
});
export type Slo = InferEntity<typeof SloSchema>;
