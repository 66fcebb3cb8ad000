import type { EntityManager } from '@mikro-orm/postgresql';
import type { EvidenceRound } from '../../domain/sla/outages';
import { pgArray, rawRows } from '../raw-sql';

/**
 * A status flip as a statement reads it: with its reason and the reason's class (null on rows
 * written before reason classes existed), and its confirmation evidence (null on rows written before
 * it or rebuilt from imports): the confirming round, the number of rounds and each round's votes.
 */
export interface EvidenceFlip {
  metricId: string;
  toStatus: string;
  reason: string | null;
  reasonClass: string | null;
  at: Date;
  confirmedAt: Date | null;
  confirmations: number | null;
  rounds: EvidenceRound[] | null;
}

/**
 * The status flips a statement window needs, oldest first: each metric's last flip before `start`
 * and every flip in [start, end), both on the (metric_id, at) index (as flipsForWindow).
 */
export async function evidenceFlips(
  em: EntityManager,
  metricIds: readonly string[],
  start: Date,
  end: Date,
): Promise<EvidenceFlip[]> {
  if (!metricIds.length) return [];
  const ids = pgArray([...metricIds]);
  const rows = await rawRows<{
    metric_id: string;
    to_status: string;
    reason: string | null;
    reason_class: string | null;
    at: string | Date;
    confirmed_at: string | Date | null;
    confirmations: number | null;
    votes: unknown;
  }>(
    em,
    `select metric.id as metric_id, last_flip.to_status, last_flip.reason, last_flip.reason_class, last_flip.at, last_flip.confirmed_at, last_flip.confirmations, last_flip.votes
     from unnest(?::uuid[]) as metric(id)
     cross join lateral (
       select to_status, reason, reason_class, at, confirmed_at, confirmations, votes from metric_status_flips where metric_id = metric.id and at < ?::timestamptz order by at desc, id desc limit 1
     ) last_flip
     union all
     select metric_id, to_status, reason, reason_class, at, confirmed_at, confirmations, votes from metric_status_flips
     where metric_id = any(?::uuid[]) and at >= ?::timestamptz and at < ?::timestamptz
     order by at, metric_id`,
    [ids, start.toISOString(), ids, start.toISOString(), end.toISOString()],
  );
  return rows.map((r) => ({
    metricId: r.metric_id,
    toStatus: r.to_status,
    reason: r.reason,
    reasonClass: r.reason_class,
    at: new Date(r.at),
    confirmedAt: r.confirmed_at === null ? null : new Date(r.confirmed_at),
    confirmations: r.confirmations === null ? null : Number(r.confirmations),
    rounds: Array.isArray(r.votes) && r.votes.length ? (r.votes as EvidenceRound[]) : null,
  }));
}

/** Each metric's first stored sample before `before` (metrics without one are absent): one index probe per metric. */
export async function firstSamplesBefore(
  em: EntityManager,
  metricIds: readonly string[],
  before: Date,
): Promise<Map<string, Date>> {
  if (!metricIds.length) return new Map();
  const rows = await rawRows<{ metric_id: string; first: string | Date }>(
    em,
    `select metric.id as metric_id, first_sample.sampled_at as first from unnest(?::uuid[]) as metric(id)
     cross join lateral (select sampled_at from metric_samples where metric_id = metric.id and sampled_at < ?::timestamptz order by sampled_at limit 1) first_sample`,
    [pgArray([...metricIds]), before.toISOString()],
  );
  return new Map(rows.map((r) => [r.metric_id, new Date(r.first)]));
}

export interface SampleOrigins {
  samples: number;
  importedSamples: number;
  importedMinutes: number;
  lateSamples: number;
}

/**
 * Where each metric's samples of [start, end) came from: how many, how many imported (and in how
 * many distinct minutes), and how many the service received after `periodEnd` (`received_at` is
 * null on samples stored before reason classes: on time).
 */
export async function sampleOrigins(
  em: EntityManager,
  metricIds: readonly string[],
  start: Date,
  end: Date,
  periodEnd: Date,
): Promise<Map<string, SampleOrigins>> {
  if (!metricIds.length) return new Map();
  const rows = await rawRows<{
    metric_id: string;
    samples: string;
    imported_samples: string;
    imported_minutes: string;
    late_samples: string;
  }>(
    em,
    `select metric_id, count(*) as samples, count(*) filter (where imported) as imported_samples,
            count(distinct date_trunc('minute', sampled_at at time zone 'UTC')) filter (where imported) as imported_minutes,
            count(*) filter (where received_at > ?::timestamptz) as late_samples
     from metric_samples where metric_id = any(?::uuid[]) and sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz
     group by metric_id`,
    [periodEnd.toISOString(), pgArray([...metricIds]), start.toISOString(), end.toISOString()],
  );
  return new Map(
    rows.map((r) => [
      r.metric_id,
      {
        samples: Number(r.samples),
        importedSamples: Number(r.imported_samples),
        importedMinutes: Number(r.imported_minutes),
        lateSamples: Number(r.late_samples),
      },
    ]),
  );
}
