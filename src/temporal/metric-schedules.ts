import { ScheduleAlreadyRunning, ScheduleNotFoundError, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { bucketOf, bucketScheduleId, bucketScheduleOptions } from '../domain/metric-buckets';
import type { MetricScheduler } from '../usecases/metrics/ports';
import type { TemporalHandle } from './connection';

/**
 * The Schedule one cloud metric had before buckets (`metric:<id>`, starting
 * `cloudMetricCheckWorkflow`). No longer created: a metric's write deletes it, and a leftover one
 * deletes itself at its next run (runCloudMetricCheck).
 */
export const metricScheduleId = (metricId: string) => `metric:${metricId}`;

/** The Schedule of the bucket a cloud metric runs in (src/domain/metric-buckets.ts). */
export const metricBucketScheduleId = (m: { id: string; intervalSeconds: number }, taskQueue: string) => bucketScheduleId(bucketOf(m.id, m.intervalSeconds), taskQueue);

/**
 * Keeps the bucket Schedules in step with the metrics: a cloud metric's write makes sure its
 * bucket's Schedule exists. A metric that left a bucket (deleted, moved to an agent, another
 * interval) needs nothing here: the bucket's next run checks the metrics it finds, and a run that
 * finds none retires the Schedule (runCloudMetricBucket).
 */
export function temporalMetricScheduler(temporal: TemporalHandle): MetricScheduler {
  const deleteLegacy = (id: string) =>
    temporal.client.schedule
      .getHandle(metricScheduleId(id))
      .delete()
      .catch((err) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
  return {
    async sync(m) {
      // A metric created since buckets never had a Schedule of its own.
      const legacy = m.created ? Promise.resolve() : deleteLegacy(m.id);
      if (m.cloud && !m.deleted) {
        const b = bucketOf(m.id, m.intervalSeconds);
        await temporal.client.schedule.create(bucketScheduleOptions(b, temporal.taskQueue)).catch((err) => {
          if (!(err instanceof ScheduleAlreadyRunning)) throw err;
        });
        // Its bucket's next tick may be a whole interval away (up to a day): a new metric gets its first sample now.
        if (m.created) {
          await temporal.client.workflow
            .start('cloudMetricCheckWorkflow', { workflowId: `metric-check:${m.id}`, taskQueue: temporal.taskQueue, args: [{ metricId: m.id }], memo: { title: `First check: ${m.name}` } })
            .catch((err) => {
              if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
            });
        }
      }
      await legacy;
    },
  };
}
