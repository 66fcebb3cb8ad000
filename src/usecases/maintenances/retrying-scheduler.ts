import type { MaintenanceScheduler } from './ports';
import type { MaintenanceView } from './view';

export interface RetryingMaintenanceScheduler extends MaintenanceScheduler {
  /** Maintenances whose workflow is still to be told. */
  readonly pending: number;
  close(): void;
}

/**
 * Tells a maintenance's workflow as `inner` does; when that fails (Temporal unreachable), keeps
 * telling it in the background, 1 s doubling to 30 s, until it succeeds. The failure still
 * reaches the caller, and the housekeeping sweep remains the backstop should this process die:
 * this only makes recovery take seconds after Temporal is back, not the sweep's ten minutes.
 */
export function retryingMaintenanceScheduler(
  inner: MaintenanceScheduler,
  opts: { firstMs?: number; maxMs?: number; onRetryFailed?: (err: unknown, maintenanceId: string) => void } = {},
): RetryingMaintenanceScheduler {
  const firstMs = opts.firstMs ?? 1_000;
  const maxMs = opts.maxMs ?? 30_000;
  // The latest view of each maintenance still owed: the workflow re-reads the row, so one telling covers every change.
  const owed = new Map<string, { organizationId: string; view: MaintenanceView }>();
  let timer: NodeJS.Timeout | null = null;
  let waitMs = firstMs;
  let closed = false;

  const schedule = (): void => {
    if (timer || closed || !owed.size) return;
    timer = setTimeout(() => void retry(), waitMs);
    timer.unref();
    waitMs = Math.min(waitMs * 2, maxMs);
  };
  const retry = async (): Promise<void> => {
    timer = null;
    for (const [id, { organizationId, view }] of [...owed]) {
      try {
        await inner.changed(organizationId, view);
        if (owed.get(id)?.view === view) owed.delete(id);
      } catch (err) {
        opts.onRetryFailed?.(err, id);
        break; // still unreachable: the rest wait for the next round
      }
    }
    if (!owed.size) waitMs = firstMs;
    schedule();
  };

  return {
    get pending() {
      return owed.size;
    },
    async changed(organizationId, view) {
      try {
        await inner.changed(organizationId, view);
        // Told now: nothing is owed for it any more.
        owed.delete(view.id);
      } catch (err) {
        owed.set(view.id, { organizationId, view });
        schedule();
        throw err;
      }
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
