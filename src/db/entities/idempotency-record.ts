import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

/** The first response to a create sent with an Idempotency-Key, replayed for 24 hours. */
export const IdempotencyRecordSchema = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_records',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    key: p.string().length(255),
    operation: p.string().length(100),
    requestHash: p.string().length(64),
    statusCode: p.integer(),
    responseBody: p.json<unknown>(),
    createdAt: p.datetime(3).index(),
  },
  uniques: [{ properties: ['organization', 'key'] }],
});
export type IdempotencyRecord = InferEntity<typeof IdempotencyRecordSchema>;
