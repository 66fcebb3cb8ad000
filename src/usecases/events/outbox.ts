import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEventSchema } from '../../db/entities';

export interface EventRecord {
  organizationId: string;
  type: string;
  resourceKind: string;
  resourceId: string;
  /** The resource as the API returns it. */
  payload: unknown;
  now: Date;
}

/** Queues an event in the caller's unit of work, so it commits (or not) with the change. */
export function recordEvent(em: EntityManager, e: EventRecord): void {
  em.create(OutboxEventSchema, {
    id: randomUUID(),
    organization: e.organizationId,
    type: e.type,
    resourceKind: e.resourceKind,
    resourceId: e.resourceId,
    payload: e.payload,
    createdAt: e.now,
    dispatchedAt: null,
  });
}
