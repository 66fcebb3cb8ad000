import { Context } from '@temporalio/activity';
import { mapBounded } from '../domain/metric-buckets';
import type { CompactBatch, CompactBatchAnswer } from '../domain/metric-rounds';
import { type ProberDeps, runCloudProbe } from '../probes/cloud-run';

/** Checks of one round run at most this many at once in a location (each bounded by CLOUD_PROBE_TIMEOUT_MS). */
export const LOCATION_CHECK_CONCURRENCY = 64;

export interface ProbeCheck {
  metricId: string;
  sourceType: string;
  sourceConfig: Record<string, unknown>;
}

export interface ProbeChecksInput {
  checks: ProbeCheck[];
}

export interface ProbeCheckResult {
  metricId: string;
  value: number | null;
  reason: string | null;
  /** ISO time the check started. */
  at: string;
}

export interface ProbeChecksOutput {
  /** The location that ran them (its id). */
  location: string;
  results: ProbeCheckResult[];
}

/**
 * What a location's worker (task queue `probe:<id>`) runs; workflows import the type only. A
 * batch comes as `{ checks }` (rounds before 'compact-rounds') or compact (`{ ids, sources }`,
 * answered positionally): the same activity takes both, so a prober serves workflows of either
 * version.
 */
export interface ProbeLocationActivities {
  probeChecks<I extends ProbeChecksInput | CompactBatch>(
    input: I,
  ): Promise<I extends CompactBatch ? CompactBatchAnswer : ProbeChecksOutput>;
}

/** How often a running batch heartbeats (the round workflow gives it LOCATION_BATCH_HEARTBEAT_TIMEOUT). */
const LOCATION_HEARTBEAT_EVERY_MS = 2_000;

/** The activity to heartbeat, when running as one (a plain call in a test has none). */
function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/**
 * The location's activities: `probeChecks` runs each check as the cloud prober does
 * (runCloudProbe: public targets only, no secrets), LOCATION_CHECK_CONCURRENCY at once, its
 * sockets bound to the location's source address (prober.localAddress), and answers one result per
 * check in the order given, stamped when the check started. A check never fails the activity:
 * whatever goes wrong is its reason. Never opens the database.
 */
export function createProbeLocationActivities(deps: { location: string; prober: ProberDeps }): ProbeLocationActivities {
  const run = async <T>(
    count: number,
    source: (i: number) => [string, Record<string, unknown>],
    answer: (i: number, at: number, outcome: { value: number | null; reason: string | null }) => T,
  ): Promise<T[]> => {
    const ctx = activityContext();
    // Alive while its checks wait on slow targets: the round's heartbeat timeout tells a dead
    // prober (SIGKILL, partition) from a busy one in seconds, not at the batch's 35 s bound.
    const beat = ctx ? setInterval(() => ctx.heartbeat(), LOCATION_HEARTBEAT_EVERY_MS) : null;
    try {
      const order = Array.from({ length: count }, (_, i) => i);
      return await mapBounded(order, LOCATION_CHECK_CONCURRENCY, async (i) => {
        const at = Date.now();
        const [type, config] = source(i);
        const outcome = await runCloudProbe(deps.prober, type, config).catch(() => ({
          value: null,
          reason: 'source_threw',
        }));
        return answer(i, at, outcome);
      });
    } finally {
      if (beat) clearInterval(beat);
    }
  };
  const probeChecks = async (
    input: ProbeChecksInput | CompactBatch,
  ): Promise<ProbeChecksOutput | CompactBatchAnswer> => {
    if ('sources' in input) {
      const startedAt = Date.now();
      const results = await run(
        input.sources.length,
        (i) => input.sources[i]!,
        (_, at, o): CompactBatchAnswer['results'][number] => [o.value, o.reason, at - startedAt],
      );
      return { location: deps.location, startedAt: new Date(startedAt).toISOString(), results };
    }
    const results = await run(
      input.checks.length,
      (i) => [input.checks[i]!.sourceType, input.checks[i]!.sourceConfig],
      (i, at, o): ProbeCheckResult => ({
        metricId: input.checks[i]!.metricId,
        value: o.value,
        reason: o.reason,
        at: new Date(at).toISOString(),
      }),
    );
    return { location: deps.location, results };
  };
  return { probeChecks } as ProbeLocationActivities;
}
