import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const OrganizationSchema = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(200),
    plan: p.string().length(32),
    /** Negotiated limits that override the plan's (enterprise contracts, load tests). */
    rateLimitPerMinute: p.integer().nullable(),
    rateLimitPerDay: p.integer().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});
export type Organization = InferEntity<typeof OrganizationSchema>;
