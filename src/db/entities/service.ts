import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

export const ServiceSchema = defineEntity({
  name: 'Service',
  tableName: 'services',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.string().length(200),
    description: p.text().nullable(),
    /** Stable handle for config as code; unique among the organization's live services. */
    configKey: p.string().length(100).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'services_live_config_key_unique',
      expression:
        'create unique index services_live_config_key_unique on services (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
  ],
});
export type Service = InferEntity<typeof ServiceSchema>;
