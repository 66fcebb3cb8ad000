import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Agent, MetricSchema } from '../../db/entities';
import { storeLocationReadings } from '../../db/repositories/samples-repository';
import { agentLocationId } from '../../domain/confirmation';
import { type IncomingSample, type IngestResult, evaluateSamples } from './ingest';
import type { SampleBatcher } from './sample-batcher';

/** What the agent runs: its live metrics, with config and interval, and the version of that set. */
export async function agentConfig(em: EntityManager, agent: Agent) {
  // Its own metrics, and the cloud metrics that list it among their locations (it votes on those); not paused ones.
  const metrics = await em.find(
    MetricSchema,
    {
      $or: [{ agent: agent.id }, { agent: null, locations: { $contains: [agentLocationId(agent.id)] } }],
      deletedAt: null,
      pausedAt: null,
    },
    { orderBy: { id: 'asc' } },
  );
  const list = metrics.map((m) => ({
    metric_id: m.id,
    source_type: m.sourceType,
    source_config: m.sourceConfig,
    interval_seconds: m.intervalSeconds,
  }));
  return { metrics: list, version: configVersion(list) };
}

/**
 * A digest of what the agent should run (ids, types, configs, intervals — not their latest
 * samples). The agent sends the version it runs with each long poll; a different one answers
 * `config_changed` at once, so no change is missed between a config fetch and the next poll.
 */
export function configVersion(
  list: { metric_id: string; source_type: string; source_config: unknown; interval_seconds: number }[],
): string {
  return createHash('sha256').update(JSON.stringify(list)).digest('base64url').slice(0, 22);
}

export async function currentConfigVersion(em: EntityManager, agent: Agent): Promise<string> {
  return (await agentConfig(em, agent)).version;
}

/**
 * How far ahead of the server's clock an agent's sample may be stamped. Agents stamp samples in
 * server time (corrected on every heartbeat), so this only allows for the estimate's error; a
 * sample further ahead comes from a clock that is off, and would hold the metric's latest outcome
 * (and the silent-agent verdict) in the future.
 */
export const MAX_SAMPLE_AHEAD_MS = 60_000;

/** SAMPLE_MAX_AGE's default: how old a sample an agent may post. */
export const DEFAULT_SAMPLE_MAX_AGE_MS = 7 * 86_400_000;

export type AgentRejection = IngestResult['rejected'][number] & {
  reason: 'unknown_metric' | 'sampled_in_future' | 'sampled_too_old';
};

/**
 * Whether a sample's time is one the service takes: `sampled_in_future` more than
 * MAX_SAMPLE_AHEAD_MS ahead of the server's clock; `sampled_too_old` more than `maxAgeMs` behind
 * it (agents only: nobody rewrites the past by accident or on purpose; history comes in through
 * the import, which passes no `maxAgeMs`).
 */
export function sampleTimeProblem(
  sampledAt: Date,
  now: Date,
  maxAgeMs?: number,
): 'sampled_in_future' | 'sampled_too_old' | null {
  if (sampledAt.getTime() - now.getTime() > MAX_SAMPLE_AHEAD_MS) return 'sampled_in_future';
  if (maxAgeMs !== undefined && now.getTime() - sampledAt.getTime() > maxAgeMs) return 'sampled_too_old';
  return null;
}

/**
 * Samples an agent posts: only of metrics it runs, not stamped more than MAX_SAMPLE_AHEAD_MS
 * ahead of the server's clock nor more than `maxAgeMs` (SAMPLE_MAX_AGE) behind it (others are
 * rejected one by one with their reason, never stored). Evaluated here, then stored through the
 * process's group commit.
 */
export async function ingestAgentSamples(
  em: EntityManager,
  batcher: SampleBatcher,
  agent: Agent,
  samples: { metric_id: string; sampled_at: string; value: number | null; reason?: string | null }[],
  now: Date,
  maxAgeMs = DEFAULT_SAMPLE_MAX_AGE_MS,
): Promise<Omit<IngestResult, 'rejected'> & { rejected: AgentRejection[] }> {
  const outOfTime: AgentRejection[] = [];
  const kept: { index: number; sample: IncomingSample }[] = [];
  samples.forEach((s, index) => {
    const sampledAt = new Date(s.sampled_at);
    const problem = sampleTimeProblem(sampledAt, now, maxAgeMs);
    if (problem) outOfTime.push({ index, metric_id: s.metric_id, reason: problem });
    else kept.push({ index, sample: { metricId: s.metric_id, sampledAt, value: s.value, reason: s.reason ?? null } });
  });
  // Evaluated at once, committed in arrival order (the agent's batches are in time order).
  const evaluation = evaluateSamples(
    em,
    agent.organization,
    kept.map((k) => k.sample),
    agent.id,
  ).then(async (e) => {
    // Votes on cloud metrics wait for those metrics' next round (see recordMetricRound).
    if (e.readings.length) await storeLocationReadings(em, agent.organization, e.readings);
    return e;
  });
  const { rows, rejected, readings, flips } = await batcher.commitInArrivalOrder(
    agent.id,
    agent.organization,
    evaluation,
    now,
  );
  const unknown: AgentRejection[] = rejected.map((r) => ({
    index: kept[r.index]!.index,
    metric_id: r.metric_id,
    reason: 'unknown_metric',
  }));
  return {
    accepted: rows.length + readings.length,
    rejected: [...unknown, ...outOfTime].sort((a, b) => a.index - b.index),
    flips,
  };
}
