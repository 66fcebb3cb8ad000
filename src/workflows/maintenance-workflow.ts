import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { nextMaintenanceStep } from '../domain/maintenance-state';

const { loadMaintenanceSchedule, runMaintenanceTransition } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Sent by the API after it changed the row (start, complete, cancel, new times): re-read and re-plan. */
export const maintenanceChanged = defineSignal('maintenanceChanged');

export interface MaintenanceWorkflowInput {
  organizationId: string;
  maintenanceId: string;
}

/**
 * One per maintenance (id `maintenance:<uuid>`): sleeps until the next moment the row's times
 * call for (starting-soon one hour before, start, end), applies it through the same transition
 * the API uses, and re-plans whenever the API signals a change. Ends with the maintenance.
 */
export async function maintenanceWorkflow(input: MaintenanceWorkflowInput): Promise<string> {
  let changed = false;
  setHandler(maintenanceChanged, () => {
    changed = true;
  });
  for (;;) {
    changed = false;
    const schedule = await loadMaintenanceSchedule(input);
    if (!schedule) return 'gone';
    const step = nextMaintenanceStep(schedule, Date.now());
    if (step.kind === 'done') return schedule.state;
    if (step.kind === 'now') {
      await runMaintenanceTransition({ ...input, transition: step.action });
      continue;
    }
    await condition(() => changed, Math.max(1, step.until - Date.now()));
  }
}
