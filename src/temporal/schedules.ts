import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';

export const HOUSEKEEPING_SCHEDULE_ID = 'vigil-housekeeping';

/** Creates the housekeeping schedule, or brings an existing one up to date (safe on every worker start). */
export async function ensureHousekeepingSchedule(client: Client, taskQueue: string): Promise<void> {
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'housekeepingWorkflow',
    workflowId: 'housekeeping',
    taskQueue,
    args: [],
    memo: { title: 'Prune expired rate-limit counters and idempotency records' },
  };
  const spec = { intervals: [{ every: '10 minutes' as const }] };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' as const };
  try {
    await client.schedule.create({ scheduleId: HOUSEKEEPING_SCHEDULE_ID, spec, action, policies });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(HOUSEKEEPING_SCHEDULE_ID).update((prev) => ({ ...prev, spec, action, policies }));
  }
}
