import { Context } from '@temporalio/activity';
import { mapBounded } from '../domain/metric-buckets';
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

/** What a location's worker (task queue `probe:<id>`) runs; workflows import the type only. */
export interface ProbeLocationActivities {
  probeChecks(input: ProbeChecksInput): Promise<ProbeChecksOutput>;
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
  return {
    async probeChecks(input) {
      const ctx = activityContext();
      // Alive while its checks wait on slow targets: the round's heartbeat timeout tells a dead
      // prober (SIGKILL, partition) from a busy one in seconds, not at the batch's 35 s bound.
      const beat = ctx ? setInterval(() => ctx.heartbeat(), LOCATION_HEARTBEAT_EVERY_MS) : null;
      try {
        const results = await mapBounded(input.checks, LOCATION_CHECK_CONCURRENCY, async (c): Promise<ProbeCheckResult> => {
          const at = new Date().toISOString();
          const outcome = await runCloudProbe(deps.prober, c.sourceType, c.sourceConfig).catch(() => ({ value: null, reason: 'source_threw' }));
          return { metricId: c.metricId, value: outcome.value, reason: outcome.reason, at };
        });
        return { location: deps.location, results };
      } finally {
        if (beat) clearInterval(beat);
      }
    },
  };
}
