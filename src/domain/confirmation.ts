/**
 * Confirmed status: a metric measured from several locations flips only after its
 * failure is confirmed. Pure: used by the API (validation, defaults, the pending summary), the
 * round workflow (which votes fail) and the round activity (the round's sample).
 *
 * - A location's **vote** fails when the thresholds put its value `unhealthy`/`degraded`, or it
 *   got no value for a `target`-class reason; a `measurement`-class reason is no vote at all.
 * - A **round** is failing when at least `quorum` of the voting locations fail (`majority`: more
 *   than half, `any`: one, `all`: every one, an integer k: at least k, capped at the voters).
 * - The metric flips after `failures` consecutive failing rounds and returns after `recoveries`
 *   consecutive good rounds; the flip is dated at the first of them (the outage started then).
 */
import { type ReasonClass, reasonClass } from './reason-class';
import type { HealthStatus } from './thresholds';

export type Quorum = 'majority' | 'any' | 'all' | number;

export interface Confirmation {
  quorum: Quorum;
  /** Consecutive failing rounds before the metric flips to a failing status (1–10). */
  failures: number;
  /** Consecutive good rounds before it returns to healthy (1–10). */
  recoveries: number;
  /** Run a failing location's check once more from another location within the round. */
  recheck: boolean;
}

export const MAX_CONFIRMATION_ROUNDS = 10;

/** What metrics created since confirmation across locations get when they name none. */
export const DEFAULT_CONFIRMATION: Confirmation = { quorum: 'majority', failures: 2, recoveries: 2, recheck: false };

/** What metrics created before confirmation existed were migrated to: every round counts at once, as before. */
export const LEGACY_CONFIRMATION: Confirmation = { quorum: 'majority', failures: 1, recoveries: 1, recheck: false };

/** An agent's location id: `agent:<agent id>`. */
export const AGENT_LOCATION_PREFIX = 'agent:';
export const agentLocationId = (agentId: string) => `${AGENT_LOCATION_PREFIX}${agentId}`;
export const isAgentLocation = (id: string) => id.startsWith(AGENT_LOCATION_PREFIX);

/** A cloud location id: lower-case letters, digits and dashes, 1–40 characters, starting with a letter. */
export const LOCATION_ID_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** The Temporal task queue a cloud location polls. */
export const locationTaskQueue = (locationId: string) => `probe:${locationId}`;

/** One location's answer in one round. */
export interface Vote {
  location: string;
  value: number | null;
  reason: string | null;
  /** The status the metric's thresholds give the value (no_data without one). */
  status: HealthStatus;
  /** ISO time the check started. */
  at: string;
  /** Set when `recheck` ran the check again from another location: that location and what it got. */
  recheck?: { location: string; value: number | null; reason: string | null; status: HealthStatus; at: string } | null;
}

export type VoteKind = 'fail' | 'pass' | 'absent';

/** A vote's weight: failing (a failing status, or no value for a target reason), passing, or no vote (a measurement reason). */
export function voteKind(v: { value: number | null; reason: string | null; status: HealthStatus }): VoteKind {
  if (v.status === 'no_data' || v.value === null) return reasonClassOf(v.reason) === 'target' ? 'fail' : 'absent';
  return v.status === 'unhealthy' || v.status === 'degraded' ? 'fail' : 'pass';
}

const reasonClassOf = (reason: string | null): ReasonClass => reasonClass(reason ?? 'no_data') ?? 'measurement';

/** How many failing votes make a round failing, out of `voting` voters (≥ 1). */
export function quorumNeeded(quorum: Quorum, voting: number): number {
  if (quorum === 'any') return 1;
  if (quorum === 'all') return voting;
  if (quorum === 'majority') return Math.floor(voting / 2) + 1;
  return Math.min(Math.max(1, quorum), voting);
}

/** The worse first: the failing status a round takes when its failing votes disagree. */
const FAIL_RANK: Record<string, number> = { unhealthy: 3, 'no_data/target': 2, degraded: 1 };

const voteKey = (v: Vote) => (v.status === 'no_data' ? `no_data/${reasonClassOf(v.reason)}` : v.status);

export interface RoundOutcome {
  /** `failing` / `passing`; `absent` when no location voted (nothing changes). */
  outcome: 'failing' | 'passing' | 'absent';
  voting: number;
  failing: number;
  needed: number;
  /**
   * The vote whose value, reason and status the round's sample carries: among the votes that
   * agree with the outcome (for a failing round, those of the worst failing status), the one with
   * the median value (the first location in id order without values). For an absent round, the
   * first measurement-class answer (the metric cannot be measured anywhere), or null when no
   * location answered at all.
   */
  representative: Vote | null;
}

/** The votes a recheck replaced count as the recheck's. */
export function effectiveVote(v: Vote): Vote {
  return v.recheck ? { ...v, value: v.recheck.value, reason: v.recheck.reason, status: v.recheck.status } : v;
}

/** Which of a round's votes decide it, and the sample it stores. */
export function roundOutcome(votes: readonly Vote[], quorum: Quorum): RoundOutcome {
  const sorted = [...votes]
    .map(effectiveVote)
    .sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
  const kinds = sorted.map((v) => ({ v, kind: voteKind(v) }));
  const voters = kinds.filter((k) => k.kind !== 'absent');
  const failing = voters.filter((k) => k.kind === 'fail').map((k) => k.v);
  if (!voters.length) return { outcome: 'absent', voting: 0, failing: 0, needed: 0, representative: sorted[0] ?? null };
  const needed = quorumNeeded(quorum, voters.length);
  if (failing.length >= needed) {
    const worst = Math.max(...failing.map((v) => FAIL_RANK[voteKey(v)] ?? 0));
    return {
      outcome: 'failing',
      voting: voters.length,
      failing: failing.length,
      needed,
      representative: median(failing.filter((v) => (FAIL_RANK[voteKey(v)] ?? 0) === worst)),
    };
  }
  const passing = voters.filter((k) => k.kind === 'pass').map((k) => k.v);
  return {
    outcome: 'passing',
    voting: voters.length,
    failing: failing.length,
    needed,
    representative: median(passing.length ? passing : voters.map((k) => k.v)),
  };
}

function median(votes: readonly Vote[]): Vote {
  const valued = votes.filter((v) => v.value !== null).sort((a, b) => a.value! - b.value!);
  if (!valued.length) return votes[0]!;
  return valued[Math.floor((valued.length - 1) / 2)]!;
}

/** What a pending confirmation reads as: "failing 1 of 2", "recovering 1 of 2". */
export function pendingSummary(
  toStatusKey: string,
  rounds: number,
  c: Pick<Confirmation, 'failures' | 'recoveries'>,
): string {
  const recovering = toStatusKey === 'healthy';
  return `${recovering ? 'recovering' : 'failing'} ${rounds} of ${recovering ? c.recoveries : c.failures}`;
}

/** Problems with a `confirmation` as given (paths relative to it); empty when valid. */
export function confirmationProblems(
  c: Confirmation,
  locationCount: number | null,
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (typeof c.quorum === 'number' && locationCount !== null && c.quorum > locationCount)
    out.push({
      path: 'quorum',
      message: `quorum ${c.quorum} is more than the ${locationCount} locations that measure the metric`,
    });
  return out;
}

/**
 * A flip's evidence in words, for an incident drafted from it: how many locations failed in
 * the confirming round, over how many rounds, and what each location saw.
 * e.g. "Confirmed by 2 of 3 locations over 2 rounds (ap-south: healthy 40; eu-central: ECONNREFUSED; us-east: unhealthy 900)."
 */
export function describeEvidence(
  rounds: readonly { at: string; votes: readonly Vote[] }[] | null | undefined,
  unit: string | null,
): string | null {
  const last = rounds?.at(-1);
  if (!rounds?.length || !last?.votes.length) return null;
  const votes = [...last.votes].sort((a, b) => (a.location < b.location ? -1 : 1));
  const voting = votes.filter((v) => voteKind(effectiveVote(v)) !== 'absent');
  const failing = voting.filter((v) => voteKind(effectiveVote(v)) === 'fail');
  const seen = (v: { value: number | null; reason: string | null; status: string }) =>
    v.value === null ? (v.reason ?? 'no_data') : `${v.status} ${v.value}${unit ? ` ${unit}` : ''}`;
  const words = votes.map(
    (v) => `${v.location}: ${seen(v)}${v.recheck ? `, rechecked from ${v.recheck.location}: ${seen(v.recheck)}` : ''}`,
  );
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  return `Confirmed by ${failing.length} of ${plural(voting.length, 'location')} over ${plural(rounds.length, 'round')} (${words.join('; ')}).`;
}

/** The locations whose votes failed in the last confirming round, and how many voted (absent ones not counted). */
export function confirmingLocations(
  rounds: readonly { at: string; votes: readonly Vote[] }[] | null | undefined,
): { failing: string[]; voting: number } | null {
  const last = rounds?.at(-1);
  if (!last?.votes.length) return null;
  const voting = last.votes.filter((v) => voteKind(effectiveVote(v)) !== 'absent');
  const failing = voting
    .filter((v) => voteKind(effectiveVote(v)) === 'fail')
    .map((v) => v.location)
    .sort();
  return { failing, voting: voting.length };
}
