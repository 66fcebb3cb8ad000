import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

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

const { sweepMetrics, maintainSamplePartitions } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Started by the schedule `metric:<id>` of a cloud metric, once per interval (before buckets; kept for the Schedules still running it, which retire themselves). */
export async function cloudMetricCheckWorkflow(input: { metricId: string }): Promise<string> {
  return runCloudMetricCheck(input);
}

/**
 * Started by the Schedule `metric-bucket:<task queue>:<interval>:<slot>` once per interval at the slot's
 * offset: runs the bucket's cloud checks as one batch; a bucket found empty retires its Schedule.
 */
export async function cloudMetricBucketWorkflow(input: { intervalSeconds: number; slot: number }): Promise<{ metrics: number; stored: number; startedLateMs: number; retired?: boolean }> {
  const run = await runCloudMetricBucket(input);
  if (run.metrics > 0) return run;
  return { ...run, retired: await retireEmptyMetricBucket(input) };
}

/** Started by the `vigil-metric-sweep` schedule: heartbeat ages, silent agents, sample partitions. */
export async function metricSweepWorkflow(): Promise<{ heartbeats: number; silent: number; alertHeartbeatsMissing?: number; partitionsCreated: number }> {
  const swept = await sweepMetrics();
  const partitions = await maintainSamplePartitions();
  return { ...swept, partitionsCreated: partitions.created.length };
}
