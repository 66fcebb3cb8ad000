import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

/**
 * An event (spec §6) written in the same transaction as the change that causes it; delivery
 * reads from here, so a crash between commit and delivery loses nothing.
 */
export const OutboxEventSchema = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    type: p.string().length(64),
    resourceKind: p.string().length(32),
    resourceId: p.uuid(),
    payload: p.json<unknown>(),
    createdAt: p.datetime(3),
    dispatchedAt: p.datetime(3).nullable(),
  },
  indexes: [
    {
      name: 'outbox_events_undispatched_index',
      expression:
        'create index outbox_events_undispatched_index on outbox_events (created_at) where dispatched_at is null',
    },
  ],
});
export type OutboxEvent = InferEntity<typeof OutboxEventSchema>;
