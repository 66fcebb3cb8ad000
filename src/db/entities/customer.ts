import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

export const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.string().length(200),
    /** The customer's id in the operator's own systems (CRM, billing). */
    externalId: p.string().length(200).nullable(),
    contactEmail: p.string().length(320).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type Customer = InferEntity<typeof CustomerSchema>;
