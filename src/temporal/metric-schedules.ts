import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import type { MetricScheduler } from '../usecases/metrics/ports';
import type { TemporalHandle } from './connection';

export const metricScheduleId = (metricId: string) => `metric:${metricId}`;

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
