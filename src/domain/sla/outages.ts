/**
 * The outages of one metric in a statement window ("an SLA statement's ledger says per
 * outage how many locations confirmed it"). Pure.
 *
 * An outage is a span in which the metric's availability status is down (unhealthy, or degraded
 * when the terms count it; a `no_data` with a target reason arrives here as unhealthy), cut to
 * the window, exactly the spans countDowntime counts for that metric alone. It starts at the flip
 * that turned the metric down, which, with confirmation, is dated at the FIRST failing round: the
 * rounds that confirmed it lie inside the outage, so confirmation never hides downtime. The
 * flip's evidence says how many locations failed in the round that confirmed it, out of how many
 * voted, over how many consecutive rounds. Flips stored before confirmation existed, rebuilt from imports or
 * written by hand carry no votes: such an outage was counted at once (`confirmed_by` null).
 *
 * - `minutes`: the minutes of the window's grid the outage touches (a minute counts as down when
 *   the metric was down for part of it, countDowntime's rule); `counted_minutes`: those outside
 *   qualifying maintenance and finance's exclusions. A minute two outages share shows in both.
 * - An outage already under way when the window starts begins at the window's start; its
 *   `confirmed_by` is that of the last flip before the window (the flip that made it down, or a
 *   later flip between two down statuses when the earlier one lies before the window).
 */
import { type Vote, effectiveVote, voteKind } from '../confirmation';
import type { DowntimeRule } from './credit-terms';
import {
  type MaintenanceWindow,
  type ServiceTimeline,
  type SlaStatus,
  type SlaStatusChange,
  countDowntime,
  isDownStatus,
} from './downtime';

const MINUTE_MS = 60_000;

/** One round of a flip's evidence as stored (metric_status_flips.votes). */
export interface EvidenceRound {
  at: string;
  votes: readonly Vote[];
}

/** What a stored status flip says about itself, carried on the timeline change it made. */
export interface FlipRecord {
  /** The stored status (`no_data` for a target outage, which the change's status counts as unhealthy). */
  toStatus: string;
  reason: string | null;
  /** The round that confirmed it; null on flips from before confirmation existed. */
  confirmedAt: Date | null;
  /** How many consecutive rounds confirmed it; null on flips from before confirmation existed. */
  confirmations: number | null;
  /** Each round's votes; null when none were recorded (counted at once). */
  rounds: readonly EvidenceRound[] | null;
}

/** A timeline change, with the flip it came from (absent on changes that are no flip, e.g. a deletion). */
export interface EvidencedChange extends SlaStatusChange {
  flip?: FlipRecord;
}

export interface EvidencedTimeline extends ServiceTimeline {
  changes: readonly EvidencedChange[];
}

/** How an outage was confirmed, as the statement states it. */
export interface ConfirmedBy {
  /** Locations that failed in the confirming round. */
  locations_failing: number;
  /** Locations that voted in it (answers with a measurement reason are no vote). */
  locations_voting: number;
  /** Consecutive failing rounds it took. */
  rounds: number;
  /** The first failing round: the outage starts here. */
  first_failing_at: string;
  /** The round that confirmed it. */
  confirmed_at: string;
  /** The failing locations of the confirming round, by id. */
  failing_locations: string[];
}

export interface Outage {
  from: string;
  to: string;
  minutes: number;
  counted_minutes: number;
  /** The availability status it began with. */
  status: 'degraded' | 'unhealthy';
  /** The reason the flip recorded (e.g. ECONNREFUSED), null without one. */
  reason: string | null;
  confirmed_by: ConfirmedBy | null;
}

/** A flip's confirmation as the statement states it; null when it recorded no votes (counted at once). */
export function confirmedByOf(at: Date, flip: FlipRecord | undefined): ConfirmedBy | null {
  const rounds = flip?.rounds;
  const last = rounds?.at(-1);
  // A pushed or manual metric's flip records its one round without votes: counted at once too.
  if (!flip || !rounds?.length || !last?.votes?.length) return null;
  const voting = last.votes.filter((v) => voteKind(effectiveVote(v)) !== 'absent');
  const failing = voting.filter((v) => voteKind(effectiveVote(v)) === 'fail');
  return {
    locations_failing: failing.length,
    locations_voting: voting.length,
    rounds: flip.confirmations ?? rounds.length,
    first_failing_at: at.toISOString(),
    confirmed_at: (flip.confirmedAt ?? new Date(last.at)).toISOString(),
    failing_locations: failing.map((v) => v.location).sort(),
  };
}

export interface OutageContext {
  window: { start: Date; end: Date };
  terms: DowntimeRule;
  /** Maintenance and exclusion windows for every covered item (countDowntime keeps the qualifying ones). */
  shared: readonly MaintenanceWindow[];
  /** The covered item's own maintenance windows. */
  own: readonly MaintenanceWindow[];
}

/** The outages of one metric's timeline within the window, oldest first (see the module comment). */
export function metricOutages(timeline: EvidencedTimeline, ctx: OutageContext): Outage[] {
  const start = ctx.window.start.getTime();
  const end = ctx.window.end.getTime();
  const down = (s: SlaStatus) => isDownStatus(s, ctx.terms);
  const changes = timeline.changes;
  const out: Outage[] = [];
  let status = timeline.initial;
  let began: EvidencedChange | null = null;
  const apply = (c: EvidencedChange) => {
    if (down(c.status) && !down(status)) began = c;
    status = c.status;
  };
  let i = 0;
  for (; i < changes.length && (changes[i] as EvidencedChange).at.getTime() <= start; i++)
    apply(changes[i] as EvidencedChange);
  let since: { at: number; change: EvidencedChange | null } | null = down(status) ? { at: start, change: began } : null;
  while (i < changes.length) {
    const at = (changes[i] as EvidencedChange).at.getTime();
    if (at >= end) break;
    for (; i < changes.length && (changes[i] as EvidencedChange).at.getTime() === at; i++)
      apply(changes[i] as EvidencedChange);
    if (down(status) && !since) since = { at, change: began };
    else if (!down(status) && since) {
      out.push(outageOf(since.at, at, since.change, ctx));
      since = null;
    }
  }
  if (since) out.push(outageOf(since.at, end, since.change, ctx));
  return out;
}

function outageOf(from: number, to: number, change: EvidencedChange | null, ctx: OutageContext): Outage {
  const base = ctx.window.start.getTime();
  const first = base + Math.floor((from - base) / MINUTE_MS) * MINUTE_MS;
  const last = Math.min(base + Math.ceil((to - base) / MINUTE_MS) * MINUTE_MS, ctx.window.end.getTime());
  const counted = countDowntime({
    services: [
      {
        initial: 'healthy',
        changes: [
          { at: new Date(from), status: 'unhealthy' },
          { at: new Date(to), status: 'healthy' },
        ],
        maintenances: ctx.own,
      },
    ],
    period: { start: new Date(first), end: new Date(last) },
    maintenances: ctx.shared,
    terms: { ...ctx.terms, no_data_counts_as: 'up' },
  });
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    minutes: (last - first) / MINUTE_MS,
    counted_minutes: counted.downMinutes,
    status: change?.status === 'degraded' ? 'degraded' : 'unhealthy',
    reason: change?.flip?.reason ?? null,
    confirmed_by: change ? confirmedByOf(change.at, change.flip) : null,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** An outage's confirmation in words: "confirmed by 2 of 3 locations over 2 rounds", or "counted at once (no confirmation recorded)". */
export function describeConfirmation(c: ConfirmedBy | null): string {
  if (!c) return 'counted at once (no confirmation recorded)';
  return `confirmed by ${c.locations_failing} of ${plural(c.locations_voting, 'location')} over ${plural(c.rounds, 'round')}`;
}
