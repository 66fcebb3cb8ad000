import { proxyActivities } from '@temporalio/workflow';
import type {
  ProbeChecksInput,
  ProbeChecksOutput,
  ProbeLocationActivities,
} from '../../../src/activities/probe-location';

/** Test only: runs `probeChecks` once on a location's task queue (`probe:<id>`) and answers what it got. */
export async function probeAtLocation(locationTaskQueue: string, input: ProbeChecksInput): Promise<ProbeChecksOutput> {
  const { probeChecks } = proxyActivities<ProbeLocationActivities>({
    taskQueue: locationTaskQueue,
    startToCloseTimeout: '30 seconds',
    retry: { maximumAttempts: 1 },
  });
  return probeChecks(input);
}
