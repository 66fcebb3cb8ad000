import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Per-organization request counts per window; read and written with one upsert (see auth-repository). */
export const RateLimitCounterSchema = defineEntity({
  name: 'RateLimitCounter',
  tableName: 'rate_limit_counters',
  properties: {
    organizationId: p.uuid().primary(),
    windowKind: p.string().length(8).primary(),
    windowStart: p.datetime().primary(),
    count: p.integer(),
  },
  primaryKeys: ['organizationId', 'windowKind', 'windowStart'],
});
export type RateLimitCounter = InferEntity<typeof RateLimitCounterSchema>;
