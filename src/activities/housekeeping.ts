import type { Orm } from '../db/orm';
import {
  pruneDispatchedEvents,
  pruneIdempotencyRecords,
  prunePendingSubscribers,
  pruneProbeTestJobs,
} from '../db/repositories/housekeeping-repository';
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
    /** Old dispatched events (30 days, with their deliveries and subscriber emails), probe-test jobs (7 days) and never-confirmed subscribers (30 days). */
    async pruneDeliveredRecords(input: {
      now: string;
    }): Promise<{ outboxEvents: number; probeTestJobs: number; pendingSubscribers: number }> {
      const now = new Date(input.now);
      return {
        outboxEvents: await pruneDispatchedEvents(deps.orm.em.fork(), now),
        probeTestJobs: await pruneProbeTestJobs(deps.orm.em.fork(), now),
        pendingSubscribers: await prunePendingSubscribers(deps.orm.em.fork(), now),
      };
    },
  };
}
