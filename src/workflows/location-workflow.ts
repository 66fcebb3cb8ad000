import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { HEARTBEATS_PER_RUN, LOCATION_HEARTBEAT_SIGNAL, type LocationHeartbeat } from '../domain/locations';

const { recordLocationHeartbeat } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** What a location sends every LOCATION_HEARTBEAT_SECONDS (signalWithStart, so the first one starts the workflow). */
export const locationHeartbeat = defineSignal<[LocationHeartbeat]>(LOCATION_HEARTBEAT_SIGNAL);

/** A location silent this long is gone: the run ends, and its next heartbeat starts a new one. */
const IDLE_END = '1 hour';

/**
 * One per location and installation (id `location:<main task queue>:<location id>`, on the main
 * task queue, so the worker that has the database records what the location, which has none,
 * reports): records each heartbeat through a local activity, the newest only when several
 * arrived meanwhile. A heartbeat that cannot be recorded (database down) is dropped: the next one
 * replaces it. Continues as new every HEARTBEATS_PER_RUN heartbeats; ends after a stopping
 * heartbeat or an hour of silence.
 */
export async function locationWorkflow(): Promise<void> {
  let latest: LocationHeartbeat | null = null;
  setHandler(locationHeartbeat, (hb) => {
    latest = hb;
  });
  const { taskQueue } = workflowInfo();
  for (let recorded = 0; ; recorded++) {
    if (!(await condition(() => latest !== null, IDLE_END))) return;
    const heartbeat: LocationHeartbeat = latest!;
    latest = null;
    try {
      await recordLocationHeartbeat({ taskQueue, heartbeat });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
    }
    if (latest !== null) continue;
    if (heartbeat.stopping) return;
    if (recorded + 1 >= HEARTBEATS_PER_RUN) await continueAsNew<typeof locationWorkflow>();
  }
}
