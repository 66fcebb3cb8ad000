import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { CompactRoundPlan, RoundOf, RoundPlan } from '../activities/metric-rounds';
import type { ProbeLocationActivities } from '../activities/probe-location';
import { locationTaskQueue } from '../domain/confirmation';
import type { MetricBucket } from '../domain/metric-buckets';
import {
  type LocationAnswer,
  type RecheckAnswer,
  type RoundCheck,
  checksByLocation,
  compactBatch,
  expandAnswer,
  indexAnswers,
  locationBatchTimeoutMs,
  plannedRoundChecks,
  probeScheduleToStartMs,
  recheckAnswers,
  recheckBatches,
  recheckPairs,
} from '../domain/metric-rounds';

const { runCloudMetricCheck } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // A missed tick is replaced by the next one: no long retries.
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

const { runCloudMetricBucket } = proxyLocalActivities<Activities>({
  // A bucket's checks run 64 at once, each bounded by CLOUD_PROBE_TIMEOUT_MS (30 s at most).
  startToCloseTimeout: '5 minutes',
  // Not retried: a second attempt would store the bucket's samples twice; the next tick replaces a failed one.
  retry: { maximumAttempts: 1 },
});

const { retireEmptyMetricBucket } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

const { planMetricRound, planRound } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

const { recordMetricRound, recordRound } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  // A second attempt stores nothing twice: a sample is keyed by metric and round start.
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

/** Checks run in the probe locations (task queues `probe:<location>`), one round per bucket tick. */
const PROBE_LOCATIONS_PATCH = 'probe-locations';
/**
 * A round writes little into its history: a compact plan (each source once, no thresholds but a
 * recheck metric's), compact location batches answered positionally; the record reads the
 * metrics' settings again (planRound, recordRound).
 */
const COMPACT_ROUNDS_PATCH = 'compact-rounds';

/**
 * Each location's batch, one `probeChecks` activity on the location's task queue (its activity id
 * names the location, so the run's history reads which location said what). A location that does
 * not pick its batch up within `scheduleToStartMs` (process down) or fails is absent: only the
 * answers come back.
 */
const locationActivities = (location: string, checks: number, scheduleToStartMs: number, kind: 'probe' | 'recheck') =>
  proxyActivities<ProbeLocationActivities>({
    taskQueue: locationTaskQueue(location),
    activityId: `${kind}:${location}`,
    scheduleToStartTimeout: scheduleToStartMs,
    // A check is bounded by 30 s, a batch runs 64 at once: 35 s for up to 64 checks.
    startToCloseTimeout: locationBatchTimeoutMs(checks),
    // The batch heartbeats every 2 s (probe-location.ts): a prober that died holding it is absent within 10 s.
    heartbeatTimeout: '10 seconds',
    // One attempt: the round's answer is due now; the next round asks again.
    retry: { maximumAttempts: 1 },
  });

async function askLocations(
  batches: { location: string; checks: RoundCheck[] }[],
  scheduleToStartMs: number,
  kind: 'probe' | 'recheck',
  compact = false,
): Promise<LocationAnswer[]> {
  const settled = await Promise.allSettled(
    batches.map(async (b): Promise<LocationAnswer> => {
      const activities = locationActivities(b.location, b.checks.length, scheduleToStartMs, kind);
      if (!compact)
        return { location: b.location, results: (await activities.probeChecks({ checks: b.checks })).results };
      const batch = compactBatch(b.checks);
      return { ...expandAnswer(batch.ids, await activities.probeChecks(batch)), location: b.location };
    }),
  );
  return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
}

/**
 * One check round across the locations: every location checks its metrics, a `recheck` metric's
 * failing votes are checked once more from another location that answered, and the round's
 * samples (one per metric, with the votes) are stored.
 */
async function runRound(
  plan: RoundPlan,
  intervalSeconds: number,
): Promise<{ stored: number; answered: string[]; unanswered: number; failing: number; rechecked: number }> {
  const wait = probeScheduleToStartMs(intervalSeconds);
  const answers = plan.metrics.length ? await askLocations(checksByLocation(plan.metrics), wait, 'probe') : [];
  const pairs = recheckPairs(plan.metrics, indexAnswers(answers));
  let rechecks: RecheckAnswer[] = [];
  if (pairs.length)
    rechecks = recheckAnswers(
      pairs,
      indexAnswers(await askLocations(recheckBatches(plan.metrics, pairs), wait, 'recheck')),
    );
  const recorded = plan.metrics.length
    ? await recordMetricRound({ roundStart: plan.roundStart, metrics: plan.metrics, answers, rechecks })
    : { stored: 0, unanswered: 0, failing: 0 };
  return { ...recorded, answered: answers.map((a) => a.location), rechecked: pairs.length };
}

/** runRound for a compact plan: the same round, with compact batches and a record that reads the metrics again. */
export async function runCompactRound(
  plan: CompactRoundPlan,
  intervalSeconds: number,
  of: RoundOf,
): Promise<{
  stored: number;
  asked: string[];
  answered: string[];
  unanswered: number;
  failing: number;
  rechecked: number;
}> {
  const wait = probeScheduleToStartMs(intervalSeconds);
  const checks = plannedRoundChecks(plan.checks, plan.online);
  const batches = checksByLocation(checks);
  const answers = await askLocations(batches, wait, 'probe', true);
  const pairs = recheckPairs(checks, indexAnswers(answers));
  let rechecks: RecheckAnswer[] = [];
  if (pairs.length)
    rechecks = recheckAnswers(
      pairs,
      indexAnswers(await askLocations(recheckBatches(checks, pairs), wait, 'recheck', true)),
    );
  const recorded = checks.length
    ? await recordRound({
        of,
        roundStart: plan.roundStart,
        online: plan.online,
        ids: checks.map((c) => c.metricId),
        answers,
        rechecks,
      })
    : { stored: 0, unanswered: 0, failing: 0 };
  return {
    ...recorded,
    asked: batches.map((b) => b.location),
    answered: answers.map((a) => a.location),
    rechecked: pairs.length,
  };
}

const { sweepMetrics, maintainSamplePartitions } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Started by the schedule `metric:<id>` of a cloud metric, once per interval (before buckets; kept for the Schedules still running it, which retire themselves). */
export async function cloudMetricCheckWorkflow(input: { metricId: string }): Promise<string> {
  if (!patched(PROBE_LOCATIONS_PATCH)) return runCloudMetricCheck(input);
  // Started for a new metric: its first round, from the locations that measure it.
  if (patched(COMPACT_ROUNDS_PATCH)) {
    const compact = await planRound({ metricId: input.metricId });
    if (!compact.found) return 'skipped';
    if (!compact.checks.length) return 'no_location_online';
    const round = await runCompactRound(compact, 60, { metricId: input.metricId });
    return round.stored ? (round.failing ? 'failing' : 'measured') : 'no_location_answered';
  }
  const plan = await planMetricRound({ metricId: input.metricId });
  if (!plan.found) return 'skipped';
  if (!plan.metrics.length) return 'no_location_online';
  const round = await runRound(plan, 60);
  return round.stored ? (round.failing ? 'failing' : 'measured') : 'no_location_answered';
}

/**
 * Started by the Schedule `metric-bucket:<task queue>:<interval>:<slot>` once per interval at the slot's
 * offset: runs the bucket's cloud checks as one batch; a bucket found empty retires its Schedule.
 */
export async function cloudMetricBucketWorkflow(input: MetricBucket): Promise<{
  metrics: number;
  stored: number;
  startedLateMs: number;
  retired?: boolean;
  /** When the round started (its samples' time), the locations asked and those that answered, metrics no location answered for, failing rounds, rechecks run. */
  roundStart?: string;
  locations?: { asked: string[]; answered: string[] };
  unanswered?: number;
  /** Metrics no online location measures (no sample this round). */
  unlocated?: number;
  failing?: number;
  rechecked?: number;
}> {
  if (patched(PROBE_LOCATIONS_PATCH) && patched(COMPACT_ROUNDS_PATCH)) {
    const bucket = { intervalSeconds: input.intervalSeconds, slot: input.slot };
    const plan = await planRound({ bucket });
    if (plan.found === 0)
      return {
        metrics: 0,
        stored: 0,
        startedLateMs: plan.startedLateMs,
        retired: await retireEmptyMetricBucket(input),
      };
    const { asked, answered, ...round } = await runCompactRound(plan, input.intervalSeconds, { bucket });
    return {
      metrics: plan.found,
      startedLateMs: plan.startedLateMs,
      roundStart: plan.roundStart,
      locations: { asked, answered },
      unlocated: plan.found - plan.checks.length,
      ...round,
    };
  }
  if (patched(PROBE_LOCATIONS_PATCH)) {
    const plan = await planMetricRound({ bucket: { intervalSeconds: input.intervalSeconds, slot: input.slot } });
    if (plan.found === 0)
      return {
        metrics: 0,
        stored: 0,
        startedLateMs: plan.startedLateMs,
        retired: await retireEmptyMetricBucket(input),
      };
    const { answered, ...round } = await runRound(plan, input.intervalSeconds);
    const asked = checksByLocation(plan.metrics).map((b) => b.location);
    return {
      metrics: plan.found,
      startedLateMs: plan.startedLateMs,
      roundStart: plan.roundStart,
      locations: { asked, answered },
      unlocated: plan.found - plan.metrics.length,
      ...round,
    };
  }
  const run = await runCloudMetricBucket(input);
  if (run.metrics > 0) return run;
  return { ...run, retired: await retireEmptyMetricBucket(input) };
}

/** Started by the `vigil-metric-sweep` schedule: heartbeat ages, silent agents, sample partitions. */
export async function metricSweepWorkflow(): Promise<{
  heartbeats: number;
  silent: number;
  alertHeartbeatsMissing?: number;
  partitionsCreated: number;
}> {
  const swept = await sweepMetrics();
  const partitions = await maintainSamplePartitions();
  return { ...swept, partitionsCreated: partitions.created.length };
}
