import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { pruneRateLimitCounters, pruneIdempotencyRecords, ensureMaintenanceWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

export interface HousekeepingReport {
  rateLimitCounters: number;
  idempotencyRecords: number;
  /** Unfinished maintenances whose workflow was checked (absent in runs before the sweep existed). */
  maintenanceWorkflows?: number;
}

/**
 * Run by the `vigil-housekeeping` schedule: drops rate-limit windows that ended and idempotency
 * records past 24 h, and makes sure every unfinished maintenance has its workflow.
 */
export async function housekeepingWorkflow(): Promise<HousekeepingReport> {
  const now = new Date().toISOString();
  const rateLimitCounters = await pruneRateLimitCounters({ now });
  const idempotencyRecords = await pruneIdempotencyRecords({ now });
  // Added after histories were recorded: patched() keeps those runs replayable.
  if (patched('maintenance-sweep')) {
    const maintenanceWorkflows = await ensureMaintenanceWorkflows();
    return { rateLimitCounters, idempotencyRecords, maintenanceWorkflows };
  }
  return { rateLimitCounters, idempotencyRecords };
}
