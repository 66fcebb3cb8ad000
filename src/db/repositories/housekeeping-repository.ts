import type { EntityManager } from '@mikro-orm/postgresql';
import { IdempotencyRecordSchema, ProbeTestJobSchema, SubscriberSchema } from '../entities';

/** Idempotency records live 24 hours. */
export async function pruneIdempotencyRecords(em: EntityManager, now: Date): Promise<number> {
  return em.nativeDelete(IdempotencyRecordSchema, { createdAt: { $lt: new Date(now.getTime() - 86_400_000) } });
}

/** Days a dispatched event (with its deliveries and their attempts) is kept for the deliveries list. */
export const EVENT_RETENTION_DAYS = 30;
/** Days a probe-test job is kept for its poll (it answers 504 after 2 minutes anyway). */
export const PROBE_TEST_RETENTION_DAYS = 7;

/**
 * Drops dispatched outbox events older than the retention, with their deliveries and attempts
 * (foreign keys cascade), unless a delivery of theirs is still being attempted.
 */
export async function pruneDispatchedEvents(em: EntityManager, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const res = await em.getConnection().execute<{ affectedRows: number }>(
    `delete from outbox_events e where e.dispatched_at < ?::timestamptz
         and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.state = 'pending')`,
    [before],
    'run',
  );
  return res.affectedRows;
}

export async function pruneProbeTestJobs(em: EntityManager, now: Date): Promise<number> {
  const before = new Date(now.getTime() - PROBE_TEST_RETENTION_DAYS * 86_400_000);
  return em.nativeDelete(ProbeTestJobSchema, { createdAt: { $lt: before } });
}

/** Subscribers who never confirmed are kept this long, then erased (the address was never consented). */
export const PENDING_SUBSCRIBER_RETENTION_DAYS = 30;

export async function prunePendingSubscribers(em: EntityManager, now: Date): Promise<number> {
  const before = new Date(now.getTime() - PENDING_SUBSCRIBER_RETENTION_DAYS * 86_400_000);
  return em.nativeDelete(SubscriberSchema, { state: 'pending', updatedAt: { $lt: before } });
}
