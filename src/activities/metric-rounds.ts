import { ScheduleAlreadyRunning, ScheduleNotFoundError } from '@temporalio/client';
import type { Orm } from '../db/orm';
import { type MetricBucket, bucketOf, bucketScheduleOptions } from '../domain/metric-buckets';
import type { RoundSchedules } from '../usecases/metrics/ports';
import {
  type CompactRoundPlan,
  type CompactRoundRecord,
  type RoundOf,
  type RoundPlan,
  type RoundRecord,
  type RoundRecorded,
  compactPlan,
  planRound,
  recordCompactRound,
  recordRound,
} from '../usecases/metrics/rounds';
import { activityClient } from './metrics';
import { metricScheduleId } from '../domain/workflow-ids';

export type { CompactRoundPlan, CompactRoundRecord, RoundOf, RoundPlan, RoundRecord, RoundRecorded };

/** The Schedules a first check tidies, through the running activity's Temporal client. */
function roundSchedules(ctx: NonNullable<ReturnType<typeof activityClient>>): RoundSchedules {
  return {
    async retireMetricSchedule(metricId) {
      await ctx.client.schedule
        .getHandle(metricScheduleId(metricId))
        .delete()
        .catch((err: unknown) => {
          if (!(err instanceof ScheduleNotFoundError)) throw err;
        });
    },
    async ensureBuckets(metrics) {
      const buckets = new Map(
        metrics.map((m) => bucketOf(m.id, m.intervalSeconds)).map((b) => [`${b.intervalSeconds}:${b.slot}`, b]),
      );
      await Promise.all(
        [...buckets.values()].map((b) =>
          ctx.client.schedule.create(bucketScheduleOptions(b, ctx.taskQueue)).catch((err: unknown) => {
            if (!(err instanceof ScheduleAlreadyRunning)) throw err;
          }),
        ),
      );
    },
  };
}

/** A check round's activities: Temporal's side of usecases/metrics/rounds.ts (local activities on the installation's worker). */
export function createMetricRoundActivities(deps: { orm: Orm; taskQueue?: string }) {
  const em = () => deps.orm.em.fork();
  const plan = (input: RoundOf) => {
    const ctx = activityClient();
    return planRound(em, ctx && roundSchedules(ctx), ctx?.taskQueue ?? deps.taskQueue ?? 'vigil', input);
  };
  return {
    /**
     * A bucket's round (`bucket`) or a new metric's first check (`metricId`): the live cloud
     * metrics, each with the online cloud locations that measure it (its `locations`, agents left
     * out, or every online one), its thresholds and confirmation. A first check also retires the
     * metric's Schedule from before buckets and makes sure of its bucket's Schedule.
     */
    async planMetricRound(input: { bucket: MetricBucket } | { metricId: string }): Promise<RoundPlan> {
      return plan(input);
    },

    /** planMetricRound's plan, compact: what the round workflow writes into its history. */
    async planRound(input: RoundOf): Promise<CompactRoundPlan> {
      return compactPlan(await plan(input));
    },

    /**
     * The round's outcome: each metric's votes (one per location that answered, its status from the
     * thresholds, a recheck's answer with it; the fresh readings of the agents it lists, read now,
     * so an answer an agent sent during the round counts), the round's outcome under the metric's quorum, and
     * one sample per metric stamped with the round's start — the representative vote's value,
     * reason and status, with every vote — stored with one ingest per organization (which applies
     * the confirmation). A metric no location answered for gets no sample. Storing the same round
     * again changes nothing (a sample is keyed by metric and time).
     */
    async recordMetricRound(input: RoundRecord): Promise<RoundRecorded> {
      return recordRound(em, input.roundStart, input.metrics, input.answers, input.rechecks);
    },

    /** recordMetricRound for a compact round (its metrics read again, see recordCompactRound). */
    async recordRound(input: CompactRoundRecord): Promise<RoundRecorded> {
      return recordCompactRound(em, input);
    },
  };
}
