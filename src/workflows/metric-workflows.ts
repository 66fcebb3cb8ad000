import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { runCloudMetricCheck } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // A missed tick is replaced by the next one: no long retries.
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
});

const { sweepMetrics, maintainSamplePartitions } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Started by the schedule `metric:<id>` of a cloud metric, once per interval. */
export async function cloudMetricCheckWorkflow(input: { metricId: string }): Promise<string> {
  return runCloudMetricCheck(input);
}

/** Started by the `vigil-metric-sweep` schedule: heartbeat ages, silent agents, sample partitions. */
export async function metricSweepWorkflow(): Promise<{ heartbeats: number; silent: number; alertHeartbeatsMissing?: number; partitionsCreated: number }> {
  const swept = await sweepMetrics();
  const partitions = await maintainSamplePartitions();
  return { ...swept, partitionsCreated: partitions.created.length };
}
