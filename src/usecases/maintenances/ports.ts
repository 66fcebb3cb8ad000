import type { MaintenanceView } from './view';

/** How maintenance use cases reach a maintenance's workflow (implemented in src/temporal). */
export interface MaintenanceScheduler {
  /** Starts the workflow (an existing one is kept), or signals it that the row changed. */
  changed(organizationId: string, m: MaintenanceView): Promise<void>;
}
