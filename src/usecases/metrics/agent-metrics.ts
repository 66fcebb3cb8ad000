import type { EntityManager } from '@mikro-orm/postgresql';
import { type Agent, MetricSchema } from '../../db/entities';
import { type IngestResult, ingestSamples } from './ingest';

/** What the agent runs: its live metrics, with config and interval. */
export async function agentConfig(em: EntityManager, agent: Agent) {
  const metrics = await em.find(MetricSchema, { agent: agent.id, deletedAt: null }, { orderBy: { createdAt: 'asc' } });
  return { metrics: metrics.map((m) => ({ metric_id: m.id, source_type: m.sourceType, source_config: m.sourceConfig, interval_seconds: m.intervalSeconds })) };
}

/** Samples an agent posts: only of metrics it runs (others are rejected, never stored). */
export async function ingestAgentSamples(
  em: EntityManager,
  agent: Agent,
  samples: { metric_id: string; sampled_at: string; value: number | null; reason?: string | null }[],
  now: Date,
): Promise<IngestResult> {
  const mine = new Set((await em.find(MetricSchema, { agent: agent.id, deletedAt: null }, { fields: ['id'] })).map((m) => m.id));
  const accepted = samples.map((s, index) => ({ s, index })).filter(({ s }) => mine.has(s.metric_id));
  const result = await ingestSamples(
    em.fork(),
    agent.organization,
    accepted.map(({ s }) => ({ metricId: s.metric_id, sampledAt: new Date(s.sampled_at), value: s.value, reason: s.reason ?? null })),
    now,
  );
  const rejected = [
    ...samples.map((s, index) => ({ index, metric_id: s.metric_id })).filter((r) => !mine.has(r.metric_id)),
    ...result.rejected.map((r) => ({ index: accepted[r.index]!.index, metric_id: r.metric_id })),
  ];
  return { ...result, rejected };
}
