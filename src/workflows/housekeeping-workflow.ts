import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const {
  pruneRateLimitCounters,
  pruneIdempotencyRecords,
  ensureMaintenanceWorkflows,
  pruneDeliveredRecords,
  ensureContractSchedules,
} = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

export interface HousekeepingReport {
  rateLimitCounters: number;
  idempotencyRecords: number;
  /** Unfinished maintenances whose workflow was checked (absent in runs before the sweep existed). */
  maintenanceWorkflows?: number;
  /** Dispatched events past 30 days and probe-test jobs past 7 (absent in runs before the pruning existed). */
  outboxEvents?: number;
  probeTestJobs?: number;
  /** Subscribers never confirmed within 30 days (absent in runs before that pruning existed). */
  pendingSubscribers?: number;
  /** Contracts whose Schedule was brought in step (absent in runs before that sweep existed). */
  contractSchedules?: number;
}

/**
 * Run by the `vigil-housekeeping` schedule: drops rate-limit windows that ended and idempotency
 * records past 24 h, makes sure every unfinished maintenance has its workflow, drops old
 * dispatched events and probe-test jobs, and mends contracts' statement Schedules.
 */
export async function housekeepingWorkflow(): Promise<HousekeepingReport> {
  const now = new Date().toISOString();
  const rateLimitCounters = await pruneRateLimitCounters({ now });
  const idempotencyRecords = await pruneIdempotencyRecords({ now });
  // Added after histories were recorded: patched() keeps those runs replayable.
  if (patched('maintenance-sweep')) {
    const maintenanceWorkflows = await ensureMaintenanceWorkflows();
    if (patched('prune-delivered-records')) {
      const pruned = await pruneDeliveredRecords({ now });
      if (patched('contract-schedules')) {
        const contractSchedules = await ensureContractSchedules();
        return { rateLimitCounters, idempotencyRecords, maintenanceWorkflows, ...pruned, contractSchedules };
      }
      return { rateLimitCounters, idempotencyRecords, maintenanceWorkflows, ...pruned };
    }
    return { rateLimitCounters, idempotencyRecords, maintenanceWorkflows };
  }
  return { rateLimitCounters, idempotencyRecords };
}
