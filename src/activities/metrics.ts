import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../db/orm';
import { MetricSchema } from '../db/entities';
import { type ProberDeps, runCloudProbe } from '../probes/cloud-run';
import { ingestSamples } from '../usecases/metrics/ingest';
import { maintainSamplePartitions, sweepMetrics } from '../usecases/metrics/sweep';

export function createMetricActivities(deps: { orm: Orm; prober?: ProberDeps; sampleRetentionDays?: number }) {
  const em = () => deps.orm.em.fork() as EntityManager;
  return {
    /** One scheduled run of a cloud metric: probe from the cloud, then store the sample. A metric gone or moved to an agent is skipped. */
    async runCloudMetricCheck(input: { metricId: string }): Promise<string> {
      const m = await em().findOne(MetricSchema, { id: input.metricId, deletedAt: null });
      if (!m || m.agent || !deps.prober) return 'skipped';
      const outcome = await runCloudProbe(deps.prober, m.sourceType, m.sourceConfig);
      await ingestSamples(em(), m.organization, [{ metricId: m.id, sampledAt: new Date(), value: outcome.value, reason: outcome.reason }], new Date());
      return outcome.reason ?? 'measured';
    },
    async sweepMetrics(): Promise<{ heartbeats: number; silent: number; alertHeartbeatsMissing: number }> {
      return sweepMetrics(em(), new Date());
    },
    async maintainSamplePartitions(): Promise<{ created: string[]; dropped: string[] }> {
      return maintainSamplePartitions(em(), new Date(), deps.sampleRetentionDays ?? 400);
    },
  };
}
