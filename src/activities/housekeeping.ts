import type { Orm } from '../db/orm';
import { pruneIdempotencyRecords } from '../db/repositories/housekeeping-repository';
import { pruneRateLimitCounters } from '../db/repositories/rate-limit-repository';

/** Deletes are idempotent, so Temporal may retry these freely. */
export function createHousekeepingActivities(deps: { orm: Orm }) {
  return {
    async pruneRateLimitCounters(input: { now: string }): Promise<number> {
      return pruneRateLimitCounters(deps.orm.em.fork(), new Date(input.now));
    },
    async pruneIdempotencyRecords(input: { now: string }): Promise<number> {
      return pruneIdempotencyRecords(deps.orm.em.fork(), new Date(input.now));
    },
  };
}
