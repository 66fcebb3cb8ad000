/**
 * The consecutive-rounds counter of confirmed status, pure: what `vigil_confirm_step` (the step of
 * the `vigil_confirm` window aggregate, src/db/confirm-sql.ts) does with one sample. The ingest
 * statement (storeSamples) and the flip rebuild (rebuildFlips) run the SQL; this twin states the
 * same rule in TypeScript, and test/db/confirm-step.test.ts holds the two together from one table
 * of cases. Change one, change the other.
 *
 * Each sample is a round: its flip key agreeing with the confirmed key ends any pending change;
 * another key starts or continues one; `failures` consecutive failing rounds (or `recoveries`
 * healthy ones) confirm it, and the flip is dated at the first of them. Failing keys (unhealthy,
 * degraded, no_data of a target reason) count together and the flip goes to the latest one's. A
 * measurement gap (no_data of a measurement reason) takes effect at once, and so does the first
 * healthy round after one.
 */
import type { Confirmation, Vote } from './confirmation';
import { reasonClass } from './reason-class';
import type { HealthStatus } from './thresholds';

/** What a flip compares: the status, and within `no_data` the reason class (`no_data/target`, `no_data/measurement`). */
export type FlipKey = string;

export const GAP_KEY: FlipKey = 'no_data/measurement';

/** The keys of failing rounds, which count together toward one flip. */
export const FAILING_KEYS: ReadonlySet<FlipKey> = new Set(['unhealthy', 'degraded', 'no_data/target']);

/** Rounds of evidence a pending change keeps (the oldest goes first). */
export const MAX_EVIDENCE_ROUNDS = 10;

/** A reading's flip key, as the ingest statement's FLIP_KEY reads the stored reason class (readingReasonClass). */
export function flipKey(status: HealthStatus, reason: string | null): FlipKey {
  return status === 'no_data' ? `no_data/${reasonClass(reason ?? 'no_data') ?? 'measurement'}` : status;
}

/** One round of a pending change's evidence: when, and the votes it had. */
export interface EvidenceRound {
  /** ISO time of the round (milliseconds, `Z`). */
  at: string;
  votes: Vote[];
}

/** What the metric row keeps between batches: the step's `init_*` arguments. */
export interface StoredConfirmation {
  /** The confirmed flip key. */
  confirmed: FlipKey | null;
  reason: string | null;
  pending: FlipKey | null;
  count: number | null;
  since: Date | null;
  evidence: EvidenceRound[] | null;
}

/** The counter between two samples. */
export interface ConfirmState {
  confirmed: FlipKey | null;
  /** The confirmed status's reason (the latest agreeing sample's, or the flip's). */
  reason: string | null;
  /** The key being confirmed, or null. */
  pending: FlipKey | null;
  /** Consecutive rounds of the pending key so far. */
  count: number;
  /** The first of those rounds. */
  since: Date | null;
  evidence: EvidenceRound[];
}

/** One sample (a round), as the statements give it to the step. */
export interface ConfirmSample {
  key: FlipKey;
  at: Date;
  reason: string | null;
  value: number | null;
  status: HealthStatus;
  /** A cloud round's votes. */
  votes?: Vote[] | null;
  /** Without `votes`: the one location whose own answer the sample is (an agent on its metric). */
  voter?: string | null;
}

export interface ConfirmFlip {
  from: FlipKey | null;
  to: FlipKey;
  /** The first of the confirming rounds: the outage (or the recovery) started then. */
  at: Date | null;
  evidence: EvidenceRound[];
  /** How many rounds confirmed it. */
  rounds: number;
}

export interface ConfirmStepResult {
  state: ConfirmState;
  /** The flip this sample confirmed, or null. */
  flip: ConfirmFlip | null;
}

/** How many rounds confirm a change (a Confirmation's); a missing count is 1, as the SQL's `coalesce`. */
export interface ConfirmRounds {
  failures: Confirmation['failures'] | null;
  recoveries: Confirmation['recoveries'] | null;
}

/** The state a walk starts from: the stored one, with no count as 0 and no evidence as none. */
export function startConfirmState(stored: StoredConfirmation): ConfirmState {
  return {
    confirmed: stored.confirmed,
    reason: stored.reason,
    pending: stored.pending,
    count: stored.count ?? 0,
    since: stored.since,
    evidence: stored.evidence ?? [],
  };
}

const isoMillis = (d: Date) => d.toISOString();

/** The vote a sample without `votes` carries: its voter's own answer, or none. */
function votesOf(sample: ConfirmSample): Vote[] {
  if (sample.votes) return sample.votes;
  if (sample.voter === null || sample.voter === undefined) return [];
  const at = isoMillis(sample.at);
  return [{ location: sample.voter, value: sample.value, reason: sample.reason, status: sample.status, at }];
}

/** One sample through the counter, from the state before it. */
export function confirmStep(
  state: ConfirmState,
  sample: ConfirmSample,
  confirmation: ConfirmRounds,
): ConfirmStepResult {
  const k = sample.key;
  if (k === state.confirmed) {
    // Only a pending change is reset: a stale `since`/evidence without one stays (as in the SQL).
    const ended = state.pending !== null || state.count !== 0;
    return {
      state: ended
        ? { ...state, reason: sample.reason, pending: null, count: 0, since: null, evidence: [] }
        : { ...state, reason: sample.reason },
      flip: null,
    };
  }
  let { count, since, evidence } = state;
  const continues =
    state.pending === k || (state.pending !== null && FAILING_KEYS.has(state.pending) && FAILING_KEYS.has(k));
  if (!continues) {
    count = 0;
    since = sample.at;
    evidence = [];
  }
  count += 1;
  evidence = [...evidence, { at: isoMillis(sample.at), votes: votesOf(sample) }];
  // One round in, one out: evidence stored longer than the cap shrinks by one per round.
  if (evidence.length > MAX_EVIDENCE_ROUNDS) evidence = evidence.slice(1);
  const needed =
    k === GAP_KEY
      ? 1
      : k === 'healthy'
        ? state.confirmed === GAP_KEY
          ? 1
          : (confirmation.recoveries ?? 1)
        : (confirmation.failures ?? 1);
  if (count >= needed) {
    return {
      state: { confirmed: k, reason: sample.reason, pending: null, count: 0, since: null, evidence: [] },
      flip: { from: state.confirmed, to: k, at: since, evidence, rounds: count },
    };
  }
  return { state: { ...state, pending: k, count, since, evidence }, flip: null };
}

/**
 * A metric's samples, in time order, through the counter from its stored state: the `vigil_confirm`
 * window aggregate, one result per sample. Like the aggregate, a state with no confirmed key
 * starts again from the stored one at each sample (the statements always store one).
 */
export function confirmWalk(
  stored: StoredConfirmation,
  samples: readonly ConfirmSample[],
  confirmation: ConfirmRounds,
): ConfirmStepResult[] {
  const out: ConfirmStepResult[] = [];
  let state: ConfirmState | null = null;
  for (const sample of samples) {
    const step = confirmStep(
      state === null || state.confirmed === null ? startConfirmState(stored) : state,
      sample,
      confirmation,
    );
    out.push(step);
    state = step.state;
  }
  return out;
}
