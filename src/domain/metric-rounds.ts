/**
 * A check round of cloud metrics across locations, the pure part: which locations
 * check which metrics, the votes their answers make, which votes fail, and where a failing vote
 * is checked once more (`recheck`). Used by the round workflow (deterministic: no I/O) and by the
 * activities that plan and record a round.
 *
 * A round: the bucket's metrics are planned (each with the cloud locations that measure it), every
 * location gets one `probeChecks` activity with its checks, the answers make one vote per
 * location and metric, the failing votes of `recheck` metrics are checked again from another
 * location, and one sample per metric carries the round's outcome and its votes.
 */
import { type Quorum, type Vote, voteKind } from './confirmation';
import { type HealthStatus, type Thresholds, readingStatus } from './thresholds';

/** One check a location runs (the `probeChecks` activity's input item). */
export interface RoundCheck {
  metricId: string;
  sourceType: string;
  sourceConfig: Record<string, unknown>;
}

/** One check's answer from a location (the `probeChecks` activity's output item). */
export interface CheckResult {
  metricId: string;
  value: number | null;
  reason: string | null;
  /** ISO time the check started. */
  at: string;
}

/** What a location answered in a round. */
export interface LocationAnswer {
  location: string;
  results: CheckResult[];
}

/** A metric as a round plans it. */
export interface RoundMetric extends RoundCheck {
  organization: string;
  intervalSeconds: number;
  thresholds: Thresholds | null;
  quorum: Quorum;
  recheck: boolean;
  /** The cloud locations that check it this round, in id order. */
  locations: string[];
  /** The agents it lists (`agent:<id>`, in id order): their latest readings vote in the round. */
  agents: string[];
}

/** An agent's latest answer for a cloud metric that lists it (metrics.location_readings). */
export interface AgentReading {
  value: number | null;
  status: string;
  reason: string | null;
  at: string;
}

/** A failing check to run once more: the metric, the location whose vote failed, and the location that checks again. */
export interface RecheckPair {
  metricId: string;
  failed: string;
  by: string;
}

/** A recheck's answer: what `by` got for the metric whose vote at `failed` failed. */
export interface RecheckAnswer extends RecheckPair {
  result: CheckResult | null;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The cloud locations that check a metric: its own list (agent locations left out: agents send
 * their own samples) or, without one, every online cloud location of the installation; in either
 * case only those online now (an offline location would only hold the round up).
 */
export function resolveLocations(
  metricLocations: readonly string[] | null,
  online: readonly string[],
  isAgent: (id: string) => boolean,
): string[] {
  const onlineSet = new Set(online);
  const wanted =
    metricLocations === null ? [...online] : metricLocations.filter((l) => !isAgent(l) && onlineSet.has(l));
  return [...new Set(wanted)].sort(byId);
}

/** The agents a metric's own list names (`agent:<id>`), in id order. */
export function agentLocations(metricLocations: readonly string[] | null, isAgent: (id: string) => boolean): string[] {
  return [...new Set((metricLocations ?? []).filter(isAgent))].sort(byId);
}

/** An agent's reading votes in a round when it is younger than the metric's interval and this grace at the round's start. */
export const AGENT_READING_GRACE_MS = 10_000;

/**
 * The votes of the agents a metric lists: each agent's latest reading, when it is fresh (taken
 * within one interval and AGENT_READING_GRACE_MS before the round started, or during the round),
 * as that agent's vote; an agent without a fresh reading is absent. Agents run on their own
 * timers, so the round counts the newest answer each sent.
 */
export function agentVotes(
  m: Pick<RoundMetric, 'agents' | 'intervalSeconds' | 'sourceType' | 'thresholds'>,
  readings: Readonly<Record<string, AgentReading>> | null,
  roundStartMs: number,
): Vote[] {
  const freshFrom = roundStartMs - m.intervalSeconds * 1000 - AGENT_READING_GRACE_MS;
  const votes: Vote[] = [];
  for (const location of m.agents) {
    const r = readings?.[location];
    if (!r || !(Date.parse(r.at) >= freshFrom)) continue;
    const value = r.value !== null && Number.isFinite(r.value) ? r.value : null;
    votes.push({
      location,
      value,
      reason: value === null ? r.reason : null,
      status: (value === null ? readingStatus(m, null, r.reason) : r.status) as HealthStatus,
      at: r.at,
    });
  }
  return votes;
}

/** Each location's checks, locations in id order (a location with no metric gets none). */
export function checksByLocation(
  metrics: readonly (RoundCheck & Pick<RoundMetric, 'locations'>)[],
): { location: string; checks: RoundCheck[] }[] {
  const out = new Map<string, RoundCheck[]>();
  for (const m of metrics) {
    for (const l of m.locations) {
      const list = out.get(l) ?? [];
      list.push({ metricId: m.metricId, sourceType: m.sourceType, sourceConfig: m.sourceConfig });
      out.set(l, list);
    }
  }
  return [...out].sort((a, b) => byId(a[0], b[0])).map(([location, checks]) => ({ location, checks }));
}

/** The status a location's answer gets, as ingest evaluates a sample (readingStatus: thresholds, or an up/down check's answer). */
export function resultStatus(
  m: Pick<RoundMetric, 'sourceType' | 'thresholds'>,
  r: { value: number | null; reason: string | null },
): HealthStatus {
  return readingStatus(m, r.value, r.reason);
}

/** Answers indexed by location, then metric. */
export function indexAnswers(answers: readonly LocationAnswer[]): Map<string, Map<string, CheckResult>> {
  return new Map(answers.map((a) => [a.location, new Map(a.results.map((r) => [r.metricId, r]))]));
}

/** The metric's votes of this round: one per location that answered for it, in location order. */
export function roundVotes(
  m: Pick<RoundMetric, 'metricId' | 'sourceType' | 'thresholds' | 'locations'>,
  answers: Map<string, Map<string, CheckResult>>,
  rechecks: readonly RecheckAnswer[] = [],
): Vote[] {
  const votes: Vote[] = [];
  for (const location of m.locations) {
    const r = answers.get(location)?.get(m.metricId);
    if (!r) continue;
    const vote: Vote = {
      location,
      value: r.value,
      reason: r.value === null ? r.reason : null,
      status: resultStatus(m, r),
      at: r.at,
    };
    const again = rechecks.find((x) => x.metricId === m.metricId && x.failed === location);
    if (again) {
      vote.recheck = again.result
        ? {
            location: again.by,
            value: again.result.value,
            reason: again.result.value === null ? again.result.reason : null,
            status: resultStatus(m, again.result),
            at: again.result.at,
          }
        : null;
    }
    votes.push(vote);
  }
  return votes;
}

/** The locations whose vote on the metric fails this round (before any recheck). */
export function failingLocations(
  m: Pick<RoundMetric, 'metricId' | 'sourceType' | 'thresholds' | 'locations'>,
  answers: Map<string, Map<string, CheckResult>>,
): string[] {
  return roundVotes(m, answers)
    .filter((v) => voteKind(v) === 'fail')
    .map((v) => v.location);
}

/**
 * Where each failing vote of a `recheck` metric is checked once more: the next location in id
 * order (wrapping) among the metric's locations that answered this round; a metric only one
 * location answered for is checked again from that location (a second look beats none).
 */
export function recheckPairs(
  metrics: readonly Pick<RoundMetric, 'metricId' | 'sourceType' | 'thresholds' | 'locations' | 'recheck'>[],
  answers: Map<string, Map<string, CheckResult>>,
): RecheckPair[] {
  const pairs: RecheckPair[] = [];
  for (const m of metrics) {
    if (!m.recheck) continue;
    const answered = m.locations.filter((l) => answers.get(l)?.has(m.metricId));
    for (const failed of failingLocations(m, answers)) {
      const i = answered.indexOf(failed);
      pairs.push({ metricId: m.metricId, failed, by: answered[(i + 1) % answered.length]! });
    }
  }
  return pairs;
}

/** The rechecks grouped into one batch of checks per location that runs them, locations in id order. */
export function recheckBatches(
  metrics: readonly RoundCheck[],
  pairs: readonly RecheckPair[],
): { location: string; checks: RoundCheck[] }[] {
  const byMetric = new Map(metrics.map((m) => [m.metricId, m]));
  const out = new Map<string, RoundCheck[]>();
  for (const p of pairs) {
    const m = byMetric.get(p.metricId)!;
    const list = out.get(p.by) ?? [];
    // A metric failing at two locations that both hand it to the same one is checked there once.
    if (!list.some((c) => c.metricId === p.metricId))
      list.push({ metricId: m.metricId, sourceType: m.sourceType, sourceConfig: m.sourceConfig });
    out.set(p.by, list);
  }
  return [...out].sort((a, b) => byId(a[0], b[0])).map(([location, checks]) => ({ location, checks }));
}

/** The rechecks' answers, from what the rechecking locations returned (null for a location that did not answer). */
export function recheckAnswers(
  pairs: readonly RecheckPair[],
  answers: Map<string, Map<string, CheckResult>>,
): RecheckAnswer[] {
  return pairs.map((p) => ({ ...p, result: answers.get(p.by)?.get(p.metricId) ?? null }));
}

/**
 * How long a location's batch may wait to be picked up: a dead location must not hold the round
 * (half the interval, at most 10 s, at least 1 s).
 */
export function probeScheduleToStartMs(intervalSeconds: number): number {
  return Math.max(1_000, Math.min(10_000, Math.floor((intervalSeconds * 1000) / 2)));
}

/** A location runs a batch's checks this many at once (LOCATION_CHECK_CONCURRENCY of the probeChecks activity). */
export const LOCATION_BATCH_CONCURRENCY = 64;
/** A check is bounded by this (runProbe's deadline, whatever its timeout_ms says). */
export const CHECK_DEADLINE_MS = 30_000;
/** A batch is never given longer than this (a bucket holds a few hundred metrics at most). */
export const MAX_LOCATION_BATCH_MS = 300_000;

/**
 * How long a location may take for a batch of `checks` before its answer is given up on: every
 * wave of LOCATION_BATCH_CONCURRENCY checks may run to the deadline, plus 5 s (35 s for up to 64
 * checks), at most MAX_LOCATION_BATCH_MS. A batch slowed by an outage (every check timing out)
 * must still be heard: its failing votes are the outage.
 */
export function locationBatchTimeoutMs(checks: number): number {
  const waves = Math.max(1, Math.ceil(checks / LOCATION_BATCH_CONCURRENCY));
  return Math.min(MAX_LOCATION_BATCH_MS, waves * CHECK_DEADLINE_MS + 5_000);
}

// ---------------------------------------------------------------------------------------------
// Compact rounds ('compact-rounds'): what a round writes into its workflow history, kept small.
// A round's plan names each source once; a location's batch carries the ids and sources of its
// checks, and answers positionally (value, reason, ms after the batch started); the thresholds,
// quorum and organization stay in the database and are read again when the round is recorded.

/** A metric as a compact plan carries it. */
export interface PlannedCheck {
  /** The metric id. */
  id: string;
  type: string;
  config: Record<string, unknown>;
  /** The locations that check it, as indices into the plan's `online` (empty: only agents vote on it). */
  at: number[];
  /** Only for a `recheck` metric: its thresholds, which tell the workflow which votes to check again. */
  recheck?: { thresholds: Thresholds | null };
}

/** A compact plan's view of a metric's checks. */
export function compactPlanOf(metrics: readonly RoundMetric[], online: readonly string[]): PlannedCheck[] {
  const index = new Map(online.map((l, i) => [l, i]));
  return metrics.map((m) => ({
    id: m.metricId,
    type: m.sourceType,
    config: m.sourceConfig,
    at: m.locations.map((l) => index.get(l)!),
    ...(m.recheck ? { recheck: { thresholds: m.thresholds } } : {}),
  }));
}

/** What the round workflow needs of a planned check: its source, locations and (for a recheck metric) thresholds. */
export type PlannedRoundCheck = RoundCheck & Pick<RoundMetric, 'thresholds' | 'locations' | 'recheck'>;

export function plannedRoundChecks(checks: readonly PlannedCheck[], online: readonly string[]): PlannedRoundCheck[] {
  return checks.map((c) => ({
    metricId: c.id,
    sourceType: c.type,
    sourceConfig: c.config,
    locations: c.at.map((i) => online[i]!),
    recheck: c.recheck !== undefined,
    thresholds: c.recheck?.thresholds ?? null,
  }));
}

/** One location's compact batch: its checks' metric ids and their sources, in the same order. */
export interface CompactBatch {
  ids: string[];
  sources: Array<[type: string, config: Record<string, unknown>]>;
}

/** A compact batch's answer: one [value, reason, ms after startedAt the check started] per check, in the batch's order. */
export interface CompactBatchAnswer {
  location: string;
  /** ISO time the batch started. */
  startedAt: string;
  results: Array<[value: number | null, reason: string | null, offsetMs: number]>;
}

export function compactBatch(checks: readonly RoundCheck[]): CompactBatch {
  return { ids: checks.map((c) => c.metricId), sources: checks.map((c) => [c.sourceType, c.sourceConfig]) };
}

/** A compact answer as the location's answer to `ids` (a result past the ids, or a missing one, is dropped). */
export function expandAnswer(ids: readonly string[], answer: CompactBatchAnswer): LocationAnswer {
  const start = Date.parse(answer.startedAt);
  const results: CheckResult[] = [];
  answer.results.forEach(([value, reason, offsetMs], i) => {
    const metricId = ids[i];
    if (metricId !== undefined) results.push({ metricId, value, reason, at: new Date(start + offsetMs).toISOString() });
  });
  return { location: answer.location, results };
}
