import { ScheduleAlreadyRunning, ScheduleNotFoundError } from '@temporalio/client';
import { bucketOf, bucketScheduleId, bucketScheduleOptions } from '../domain/metric-buckets';
import type { MetricScheduler } from '../usecases/metrics/ports';
import type { TemporalHandle } from './connection';
import { firstChecksWorkflowId, metricScheduleId } from '../domain/workflow-ids';

/** The Schedule of the bucket a cloud metric runs in (src/domain/metric-buckets.ts). */
export const metricBucketScheduleId = (m: { id: string; intervalSeconds: number }, taskQueue: string) =>
  bucketScheduleId(bucketOf(m.id, m.intervalSeconds), taskQueue);

export { firstChecksWorkflowId, metricScheduleId };

/** At most this many new metrics per signal. */
const FIRST_CHECKS_PER_SIGNAL = 1_000;

interface NewMetric {
  id: string;
  intervalSeconds: number;
}

/**
 * Hands new cloud metrics to their first checks, coalesced like a group commit: while one signal
 * is on its way, the metrics created meanwhile wait and go together in the next one, with their
 * buckets' Schedules made sure of once per bucket. A lone creation goes at once; a burst of
 * creations (32 at once over the API, a config apply) costs a few calls, not one per metric.
 */
function firstCheckSender(temporal: TemporalHandle, idleMs: number | undefined) {
  let queue: { m: NewMetric; done: (err?: unknown) => void }[] = [];
  let sending = false;
  const send = async (metrics: NewMetric[]) => {
    const buckets = new Map(
      metrics.map((m) => bucketOf(m.id, m.intervalSeconds)).map((b) => [`${b.intervalSeconds}:${b.slot}`, b]),
    );
    await Promise.all(
      [...buckets.values()].map((b) =>
        temporal.client.schedule.create(bucketScheduleOptions(b, temporal.taskQueue)).catch((err) => {
          if (!(err instanceof ScheduleAlreadyRunning)) throw err;
        }),
      ),
    );
    // Its bucket's next tick may be a whole interval away (up to a day): a new metric gets its first sample now.
    await temporal.client.workflow.signalWithStart('metricFirstChecksWorkflow', {
      workflowId: firstChecksWorkflowId(temporal.taskQueue),
      taskQueue: temporal.taskQueue,
      args: [idleMs === undefined ? {} : { idleMs }],
      signal: 'metricsCreated',
      signalArgs: [metrics.map((m) => m.id)],
      memo: { title: 'First checks of new cloud metrics' },
    });
  };
  const drain = async () => {
    sending = true;
    while (queue.length) {
      const batch = queue.slice(0, FIRST_CHECKS_PER_SIGNAL);
      queue = queue.slice(batch.length);
      const err = await send(batch.map((b) => b.m)).then(
        () => undefined,
        (e: unknown) => e ?? new Error('first checks could not be started'),
      );
      for (const b of batch) b.done(err);
    }
    sending = false;
  };
  return (m: NewMetric) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ m, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!sending) void drain();
    });
}

/**
 * Keeps the bucket Schedules in step with the metrics: a cloud metric's write makes sure its
 * bucket's Schedule exists. A metric that left a bucket (deleted, moved to an agent, another
 * interval) needs nothing here: the bucket's next run checks the metrics it finds, and a run that
 * finds none retires the Schedule (runCloudMetricBucket). `firstChecksIdleMs`: how long the
 * first-checks workflow it starts waits for more new metrics before it ends (30 s unless given).
 */
export function temporalMetricScheduler(
  temporal: TemporalHandle,
  opts: { firstChecksIdleMs?: number } = {},
): MetricScheduler {
  const deleteLegacy = (id: string) =>
    temporal.client.schedule
      .getHandle(metricScheduleId(id))
      .delete()
      .catch((err) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
  const firstCheck = firstCheckSender(temporal, opts.firstChecksIdleMs);
  return {
    async sync(m) {
      // A metric created since buckets never had a Schedule of its own.
      const legacy = m.created ? Promise.resolve() : deleteLegacy(m.id);
      if (m.cloud && !m.deleted && m.created) await firstCheck(m);
      else if (m.cloud && !m.deleted) {
        await temporal.client.schedule
          .create(bucketScheduleOptions(bucketOf(m.id, m.intervalSeconds), temporal.taskQueue))
          .catch((err) => {
            if (!(err instanceof ScheduleAlreadyRunning)) throw err;
          });
      }
      await legacy;
    },
  };
}
