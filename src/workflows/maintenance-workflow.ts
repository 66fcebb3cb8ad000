import {
  condition,
  defineSignal,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { nextMaintenanceStep } from '../domain/maintenance-state';

const options = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const remote = proxyActivities<Activities>(options);
// Local activities: a transition at the scheduled second costs one workflow task, not three
// round trips through the server, which keeps many windows starting together on time.
const local = proxyLocalActivities<Activities>(options);

/** How long before a start or end the workflow wakes to hand the exact moment to the worker. */
const ARRIVE_EARLY_MS = 5_000;

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
  // Histories recorded before the switch to local activities replay with the remote ones.
  const v2 = patched('transitions-as-local-activities');
  const { loadMaintenanceSchedule, runMaintenanceTransition } = v2 ? local : remote;
  const arriveEarly = v2;
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
    if (!arriveEarly || step.then === 'starting_soon') {
      await condition(() => changed, Math.max(1, step.until - Date.now()));
      continue;
    }
    // Wake a little before the moment, then let the activity wait for it in the worker: a timer
    // fired through the server can queue behind hundreds of others due at the same second.
    const wakeAt = step.until - ARRIVE_EARLY_MS;
    if (wakeAt > Date.now() && (await condition(() => changed, wakeAt - Date.now()))) continue;
    // A remote activity: it waits seconds, and a local one would hold a workflow-task slot meanwhile.
    await remote.runMaintenanceTransition({ ...input, transition: step.then, notBefore: step.until });
  }
}
