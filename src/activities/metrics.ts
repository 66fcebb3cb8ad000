import { Context } from '@temporalio/activity';
import { type Client, ScheduleAlreadyRunning, ScheduleNotFoundError } from '@temporalio/client';
import type { Orm } from '../db/orm';
import { MetricSchema } from '../db/entities';
import {
  type MetricBucket,
  bucketIdRange,
  bucketOf,
  bucketScheduleId,
  bucketScheduleOptions,
  mapBounded,
  plannedRunAt,
} from '../domain/metric-buckets';
import { ALL_SOURCE_TYPES, runsInCloud } from '../domain/source-types';
import { type ProberDeps, runCloudProbe } from '../probes/cloud-run';
import { type IncomingSample, ingestPerOrganization, ingestSamples } from '../usecases/metrics/ingest';
import { maintainSamplePartitions, sweepMetrics } from '../usecases/metrics/sweep';
import { sweepAlertMetrics } from '../usecases/inbound-alerts/alerts';
import { metricScheduleId } from '../domain/workflow-ids';

/** Checks of one bucket run at most this many at once (each bounded by CLOUD_PROBE_TIMEOUT_MS). */
export const BUCKET_CHECK_CONCURRENCY = 64;

/** The source types the cloud prober runs (the others need an agent or are pushed). */
const CLOUD_SOURCE_TYPES = ALL_SOURCE_TYPES.filter((t) => runsInCloud(t, null));

/** The running activity's Temporal client and task queue (the installation's, for a local activity); null outside an activity. */
export function activityClient(): { client: Client; taskQueue: string } | null {
  try {
    const ctx = Context.current();
    return { client: ctx.client, taskQueue: ctx.info.taskQueue };
  } catch {
    return null;
  }
}

const ignoreNotFound = (err: unknown) => {
  if (!(err instanceof ScheduleNotFoundError)) throw err;
};
const ignoreExisting = (err: unknown) => {
  if (!(err instanceof ScheduleAlreadyRunning)) throw err;
};

export interface BucketRun {
  /** Live cloud metrics found in the bucket. */
  metrics: number;
  /** Samples stored. */
  stored: number;
  /** How late the batch started after its planned tick, in ms. */
  startedLateMs: number;
}

export function createMetricActivities(deps: { orm: Orm; prober?: ProberDeps; sampleRetentionDays?: number }) {
  const em = () => deps.orm.em.fork();
  const bucketWhere = (b: MetricBucket) => {
    const { from, below } = bucketIdRange(b);
    return {
      intervalSeconds: b.intervalSeconds,
      agent: null,
      deletedAt: null,
      pausedAt: null,
      sourceType: { $in: CLOUD_SOURCE_TYPES },
      id: below ? { $gte: from, $lt: below } : { $gte: from },
    };
  };
  return {
    /**
     * One run of a metric's own Schedule (`metric:<id>`, before buckets): the Schedule is retired
     * and the metric's bucket Schedule made sure of, then the check runs this once. A metric gone
     * or moved to an agent is skipped.
     */
    async runCloudMetricCheck(input: { metricId: string }): Promise<string> {
      const m = await em().findOne(MetricSchema, { id: input.metricId, deletedAt: null });
      const temporal = activityClient();
      if (temporal) {
        await temporal.client.schedule.getHandle(metricScheduleId(input.metricId)).delete().catch(ignoreNotFound);
        if (m && runsInCloud(m.sourceType, m.agent))
          await temporal.client.schedule
            .create(bucketScheduleOptions(bucketOf(m.id, m.intervalSeconds), temporal.taskQueue))
            .catch(ignoreExisting);
      }
      if (!m || m.agent || !deps.prober) return 'skipped';
      const outcome = await runCloudProbe(deps.prober, m.sourceType, m.sourceConfig);
      await ingestSamples(
        em(),
        m.organization,
        [{ metricId: m.id, sampledAt: new Date(), value: outcome.value, reason: outcome.reason }],
        new Date(),
      );
      return outcome.reason ?? 'measured';
    },

    /**
     * One tick of a bucket's Schedule: every live cloud metric of the bucket is probed from the
     * cloud (BUCKET_CHECK_CONCURRENCY at once), each sample stamped when its check started, and
     * the samples stored with one ingest per organization. Not retried: the next tick replaces a
     * failed one.
     */
    async runCloudMetricBucket(b: MetricBucket): Promise<BucketRun> {
      const startedAt = Date.now();
      const startedLateMs = startedAt - plannedRunAt(b, startedAt);
      const metrics = await em().find(MetricSchema, bucketWhere(b), {
        fields: ['id', 'organization', 'sourceType', 'sourceConfig'],
        orderBy: { id: 'asc' },
      });
      if (!metrics.length || !deps.prober) return { metrics: metrics.length, stored: 0, startedLateMs };
      const prober = deps.prober;
      const samples = await mapBounded(metrics, BUCKET_CHECK_CONCURRENCY, async (m) => {
        const sampledAt = new Date();
        const outcome = await runCloudProbe(prober, m.sourceType, m.sourceConfig).catch(() => ({
          value: null,
          reason: 'source_threw',
        }));
        return {
          organization: m.organization,
          sample: { metricId: m.id, sampledAt, value: outcome.value, reason: outcome.reason } satisfies IncomingSample,
        };
      });
      const byOrg = new Map<string, IncomingSample[]>();
      for (const s of samples) {
        const list = byOrg.get(s.organization) ?? [];
        list.push(s.sample);
        byOrg.set(s.organization, list);
      }
      const stored = await ingestPerOrganization(em, byOrg, 'the samples');
      return { metrics: metrics.length, stored, startedLateMs };
    },

    /**
     * A bucket run found no metric: its Schedule is deleted; should a metric have joined the
     * bucket meanwhile (its write saw the Schedule still there), the Schedule is created again.
     * Answers whether it stays deleted.
     */
    async retireEmptyMetricBucket(b: MetricBucket): Promise<boolean> {
      const temporal = activityClient();
      if (!temporal) return false;
      await temporal.client.schedule.getHandle(bucketScheduleId(b, temporal.taskQueue)).delete().catch(ignoreNotFound);
      if ((await em().count(MetricSchema, bucketWhere(b))) === 0) return true;
      await temporal.client.schedule.create(bucketScheduleOptions(b, temporal.taskQueue)).catch(ignoreExisting);
      return false;
    },

    async sweepMetrics(): Promise<{ heartbeats: number; silent: number; alertHeartbeatsMissing: number }> {
      const now = new Date();
      const swept = await sweepMetrics(em(), now);
      // Alert sources whose heartbeat alert (e.g. Watchdog) stopped arriving: their own feature, the same sweep.
      const alerts = await sweepAlertMetrics(em(), now);
      return { ...swept, alertHeartbeatsMissing: alerts.missing };
    },
    async maintainSamplePartitions(): Promise<{ created: string[]; dropped: string[] }> {
      return maintainSamplePartitions(em(), new Date(), deps.sampleRetentionDays ?? 400);
    },
  };
}
