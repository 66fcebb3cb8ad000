import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { ProblemError } from '../domain/error-catalog';
import { type MaintenanceState, maintenanceState } from '../domain/maintenance-state';
import { MaintenanceSchema } from '../db/entities';
import type { MaintenanceScheduler } from '../usecases/maintenances/ports';
import {
  type MaintenanceTransition,
  applyMaintenanceTransition,
  loadMaintenance,
  viewOf,
} from '../usecases/maintenances/transitions';

export interface MaintenanceRef {
  organizationId: string;
  maintenanceId: string;
}

export interface MaintenanceSchedule {
  start: number;
  end: number;
  state: MaintenanceState;
  startingSoonSent: boolean;
}

/** Longest an early-arriving transition waits in the worker (the workflow arrives at most ARRIVE_EARLY_MS early). */
const MAX_EARLY_WAIT_MS = 15_000;

export function createMaintenanceActivities(deps: { orm: Orm; maintenanceScheduler?: MaintenanceScheduler }) {
  const em = () => deps.orm.em.fork();
  return {
    /** The row's schedule as the workflow needs it; null once the maintenance is gone. */
    async loadMaintenanceSchedule(ref: MaintenanceRef): Promise<MaintenanceSchedule | null> {
      try {
        const m = await loadMaintenance(em(), ref);
        return {
          start: m.scheduledStartAt.getTime(),
          end: m.scheduledEndAt.getTime(),
          state: maintenanceState(m),
          startingSoonSent: m.startingSoonAt != null,
        };
      } catch (err) {
        if (err instanceof ProblemError && err.token === 'not_found') return null;
        throw err;
      }
    },
    /**
     * Makes sure every unfinished maintenance has its workflow (signal-with-start keeps a running
     * one), covering an API that committed a maintenance but could not reach Temporal.
     */
    async ensureMaintenanceWorkflows(): Promise<number> {
      if (!deps.maintenanceScheduler) return 0;
      const fork = em();
      // A row younger than a minute may still be on its way to Temporal from the API: leave it.
      const settled = new Date(Date.now() - 60_000);
      const open = await fork.find(
        MaintenanceSchema,
        { canceledAt: null, actualEndAt: null, deletedAt: null, createdAt: { $lt: settled } },
        { limit: 1000, orderBy: { scheduledStartAt: 'asc' } },
      );
      for (const m of open) await deps.maintenanceScheduler.changed(m.organization, await viewOf(fork, m));
      return open.length;
    },
    /**
     * Idempotent: a transition already applied (by the API or an earlier attempt) is a no-op.
     * With `notBefore` (ms since epoch) it waits in this process until then and applies only if
     * the row still says it is due: the workflow arrives a few seconds early so that many windows
     * due at the same second start on the dot instead of queueing behind the server's timers.
     */
    async runMaintenanceTransition(
      input: MaintenanceRef & { transition: MaintenanceTransition; notBefore?: number },
    ): Promise<boolean> {
      if (input.notBefore !== undefined) {
        const wait = input.notBefore - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, MAX_EARLY_WAIT_MS)));
      }
      try {
        const { applied } = await applyMaintenanceTransition(em(), input, input.transition, new Date(), {
          strict: false,
          onlyWhenDue: input.notBefore !== undefined,
        });
        return applied;
      } catch (err) {
        if (err instanceof ProblemError && err.token === 'not_found')
          throw ApplicationFailure.nonRetryable('maintenance is gone', 'not_found');
        throw err;
      }
    },
  };
}
