import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Agent, MetricSchema } from '../../db/entities';
import { type IngestResult, evaluateSamples } from './ingest';
import type { SampleBatcher } from './sample-batcher';

/** What the agent runs: its live metrics, with config and interval, and the version of that set. */
export async function agentConfig(em: EntityManager, agent: Agent) {
  const metrics = await em.find(MetricSchema, { agent: agent.id, deletedAt: null }, { orderBy: { id: 'asc' } });
  const list = metrics.map((m) => ({ metric_id: m.id, source_type: m.sourceType, source_config: m.sourceConfig, interval_seconds: m.intervalSeconds }));
  return { metrics: list, version: configVersion(list) };
}

/**
 * A digest of what the agent should run (ids, types, configs, intervals — not their latest
 * samples). The agent sends the version it runs with each long poll; a different one answers
 * `config_changed` at once, so no change is missed between a config fetch and the next poll.
 */
export function configVersion(list: { metric_id: string; source_type: string; source_config: unknown; interval_seconds: number }[]): string {
  return createHash('sha256').update(JSON.stringify(list)).digest('base64url').slice(0, 22);
}

export async function currentConfigVersion(em: EntityManager, agent: Agent): Promise<string> {
  return (await agentConfig(em, agent)).version;
}

/**
 * Samples an agent posts: only of metrics it runs (others are rejected, never stored). Evaluated
 * here, then stored through the process's group commit.
 */
export async function ingestAgentSamples(
  em: EntityManager,
  batcher: SampleBatcher,
  agent: Agent,
  samples: { metric_id: string; sampled_at: string; value: number | null; reason?: string | null }[],
  now: Date,
): Promise<IngestResult> {
  const incoming = samples.map((s) => ({ metricId: s.metric_id, sampledAt: new Date(s.sampled_at), value: s.value, reason: s.reason ?? null }));
  const { rows, rejected } = await evaluateSamples(em, agent.organization, incoming, agent.id);
  return { accepted: rows.length, rejected, flips: await batcher.commit(agent.organization, rows, now) };
}
