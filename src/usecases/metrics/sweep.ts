import type { EntityManager } from '@mikro-orm/postgresql';
import { MetricSchema } from '../../db/entities';
import { ensureSamplePartitions, dropSamplePartitionsBefore } from '../../db/repositories/samples-repository';
import { type IncomingSample, ingestSamples } from './ingest';

/** Spec §7.3/§8: an agent metric with no sample for over 3 × its interval is stale_agent_silent. */
export const SILENT_AFTER_INTERVALS = 3;

/**
 * What the metric sweep (Temporal Schedule, every 30 s) writes: a heartbeat metric's value is the
 * seconds since its last ping; an agent metric whose agent has been silent for 3 intervals
 * becomes no_data with `stale_agent_silent` (once: the verdict clears with the next real sample).
 */
export async function sweepMetrics(em: EntityManager, now: Date): Promise<{ heartbeats: number; silent: number }> {
  const heartbeats = await em.find(MetricSchema, { sourceType: 'heartbeat', deletedAt: null, pausedAt: null });
  const silentCandidates = await em.find(MetricSchema, {
    agent: { $ne: null },
    deletedAt: null,
    pausedAt: null,
    lastSampleAt: { $ne: null },
    $or: [{ reason: null }, { reason: { $ne: 'stale_agent_silent' } }],
  });
  const byOrg = new Map<string, IncomingSample[]>();
  const add = (org: string, s: IncomingSample) => byOrg.set(org, [...(byOrg.get(org) ?? []), s]);
  for (const m of heartbeats) {
    const last = (m.pushState as { last_ping_at?: string | null } | null)?.last_ping_at;
    if (!last) continue;
    add(m.organization, {
      metricId: m.id,
      sampledAt: now,
      value: Math.max(0, Math.round((now.getTime() - Date.parse(last)) / 1000)),
      reason: null,
    });
  }
  let silent = 0;
  for (const m of silentCandidates) {
    if (now.getTime() - m.lastSampleAt!.getTime() <= SILENT_AFTER_INTERVALS * m.intervalSeconds * 1000) continue;
    add(m.organization, { metricId: m.id, sampledAt: now, value: null, reason: 'stale_agent_silent' });
    silent++;
  }
  for (const [org, samples] of byOrg) await ingestSamples(em.fork(), org, samples, now);
  return { heartbeats: heartbeats.length, silent };
}

/** Daily sample partitions: today and the next two exist; those past the retention are dropped. */
export async function maintainSamplePartitions(
  em: EntityManager,
  now: Date,
  retentionDays: number,
): Promise<{ created: string[]; dropped: string[] }> {
  const created = await ensureSamplePartitions(em, now, 3);
  const dropped = await dropSamplePartitionsBefore(em, new Date(now.getTime() - retentionDays * 86_400_000));
  return { created, dropped };
}
