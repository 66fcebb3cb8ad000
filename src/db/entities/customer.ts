import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

export const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.string().length(200),
    /** Stable handle for config as code; unique among the organization's live customers. */
    configKey: p.string().length(100).nullable(),
    /** The customer's id in the operator's own systems (CRM, billing). */
    externalId: p.string().length(200).nullable(),
    contactEmail: p.string().length(320).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'customers_live_config_key_unique',
      expression:
        'create unique index customers_live_config_key_unique on customers (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
  ],
});
export type Customer = InferEntity<typeof CustomerSchema>;
