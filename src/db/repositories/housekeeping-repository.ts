import type { EntityManager } from '@mikro-orm/postgresql';
import { IdempotencyRecordSchema } from '../entities';

/** Idempotency records live 24 hours. */
export async function pruneIdempotencyRecords(em: EntityManager, now: Date): Promise<number> {
  return em.nativeDelete(IdempotencyRecordSchema, { createdAt: { $lt: new Date(now.getTime() - 86_400_000) } });
}
