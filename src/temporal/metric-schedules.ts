import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import type { TemporalHandle } from './connection';

export const metricScheduleId = (metricId: string) => `metric:${metricId}`;

/** How the API keeps a cloud metric's Temporal Schedule in step with its row. */
export interface MetricScheduler {
  /** Creates or updates the schedule of a cloud metric; removes it when the metric is not (or no longer) a cloud one. */
  sync(metric: { id: string; organization: string; name: string; intervalSeconds: number; cloud: boolean; deleted: boolean }): Promise<void>;
}

export function temporalMetricScheduler(temporal: TemporalHandle): MetricScheduler {
  return {
    async sync(m) {
      const handle = temporal.client.schedule.getHandle(metricScheduleId(m.id));
      if (!m.cloud || m.deleted) {
        await handle.delete().catch((err) => {
          if (!(err instanceof ScheduleNotFoundError)) throw err;
        });
        return;
      }
      const spec = { intervals: [{ every: `${m.intervalSeconds} seconds` as const }] };
      const action = {
        type: 'startWorkflow' as const,
        workflowType: 'cloudMetricCheckWorkflow',
        workflowId: `metric-check:${m.id}`,
        taskQueue: temporal.taskQueue,
        args: [{ metricId: m.id }],
        memo: { title: `Cloud check: ${m.name}` },
      };
      const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' as const };
      try {
        await handle.update((prev) => ({ ...prev, spec, action, policies }));
      } catch (err) {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
        await temporal.client.schedule.create({ scheduleId: metricScheduleId(m.id), spec, action, policies, state: { triggerImmediately: true }, memo: { organization: m.organization } });
      }
    },
  };
}
