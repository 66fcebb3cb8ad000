import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';

export const HOUSEKEEPING_SCHEDULE_ID = 'vigil-housekeeping';
export const OUTBOX_SWEEP_SCHEDULE_ID = 'vigil-outbox-sweep';

/** Creates a schedule, or brings an existing one up to date (safe on every worker start). */
async function ensureSchedule(
  client: Client,
  taskQueue: string,
  s: {
    scheduleId: string;
    workflowType: string;
    workflowId: string;
    title: string;
    every: '30 seconds' | '1 minute' | '10 minutes';
  },
): Promise<void> {
  const action = {
    type: 'startWorkflow' as const,
    workflowType: s.workflowType,
    workflowId: s.workflowId,
    taskQueue,
    args: [],
    memo: { title: s.title },
  };
  const spec = { intervals: [{ every: s.every }] };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: s.every };
  try {
    await client.schedule.create({ scheduleId: s.scheduleId, spec, action, policies });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(s.scheduleId).update((prev) => ({ ...prev, spec, action, policies }));
  }
}

export async function ensureHousekeepingSchedule(client: Client, taskQueue: string): Promise<void> {
  await ensureSchedule(client, taskQueue, {
    scheduleId: HOUSEKEEPING_SCHEDULE_ID,
    workflowType: 'housekeepingWorkflow',
    workflowId: 'housekeeping',
    title: 'Prune expired rate-limit counters and idempotency records',
    every: '10 minutes',
  });
}

/** The backstop of the outbox relay: every minute, dispatch what no relay took and start what no relay confirmed. */
export async function ensureOutboxSweepSchedule(client: Client, taskQueue: string): Promise<void> {
  await ensureSchedule(client, taskQueue, {
    scheduleId: OUTBOX_SWEEP_SCHEDULE_ID,
    workflowType: 'outboxSweepWorkflow',
    workflowId: 'outbox-sweep',
    title: 'Dispatch webhook events no relay took; start deliveries no relay confirmed',
    every: '1 minute',
  });
}

/** Alert rules no event announces (agents, locations, SLO burn, statements in review), every minute. */
export async function ensureAlertSweepSchedule(client: Client, taskQueue: string): Promise<void> {
  await ensureSchedule(client, taskQueue, {
    scheduleId: 'vigil-alert-sweep',
    workflowType: 'alertSweepWorkflow',
    workflowId: 'alert-sweep',
    title: 'Raise and recover alerts of agent, location, SLO burn and review-reminder rules',
    every: '1 minute',
  });
}

/** Heartbeat ages, silent agents and sample partitions, every 30 seconds. */
export async function ensureMetricSweepSchedule(client: Client, taskQueue: string): Promise<void> {
  await ensureSchedule(client, taskQueue, {
    scheduleId: 'vigil-metric-sweep',
    workflowType: 'metricSweepWorkflow',
    workflowId: 'metric-sweep',
    title: 'Heartbeat ages, silent agents (stale_agent_silent), sample partitions',
    every: '30 seconds',
  });
}
