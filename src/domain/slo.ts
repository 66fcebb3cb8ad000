/**
 * SLO maths: attainment, error budget and burn rate of a status timeline over a window, and per-day
 * uptime (spec §1; SLA statements §2.6 are later computed from these). Pure and exact: every
 * duration is an integer number of ms and every ratio is computed with BigInt, then written as a
 * decimal string with a fixed number of digits, rounded toward −∞ (floor): a figure is never shown
 * better than it is, and −0.0004 reads '-0.001'.
 *
 * Counting, per instant of [period_start, min(now, period_end)):
 * 1. `unknown` (before the timeline's first change: nothing recorded) → excluded, always.
 * 2. Inside a maintenance window: `maintenance: 'excluded'` → excluded; `'good'` → good;
 *    `'counted'` → the window is ignored and the measured status counts as below.
 * 3. `no_data` → per `no_data`: `'bad'`, `'good'` or `'excluded'`.
 * 4. `degraded` → per `degraded` (default `'good'`: the service works, only slower).
 * 5. `healthy` → good; `unhealthy` → bad.
 *
 * Derived figures (eligible = period length − excluded so far; the rest of the period is assumed
 * eligible, since nothing is known of it yet):
 * - attainment = good / (good + bad), as a percent with 3 decimals; null when good + bad = 0.
 * - met = good / (good + bad) ≥ objective, compared exactly (not on the rounded string); true when
 *   nothing was counted. At the end of a period, met ⇔ error_budget_remaining_ms ≥ 0.
 * - error_budget_total_ms = floor(eligible × (100 − objective) / 100); remaining = total − bad
 *   (negative once overspent); remaining_pct = remaining / total (3 decimals), null when total = 0.
 * - burn_rate = (bad / total) / (elapsed / period length), 3 decimals: 1.000 spends the budget
 *   exactly by the period's end. '0.000' when bad = 0 (including at the very start of a period,
 *   where elapsed = 0); null when bad > 0 and the budget is 0 (objective 100: infinite burn).
 *   A rolling window is always fully elapsed, so its burn rate is the fraction of budget spent.
 */
import { assertTimeZone, calendarMonth, calendarMonthAt, rollingWindow, type CalendarDay } from './periods';
import { maintenanceSegments, type Interval, type StatusChange, type StatusSegment } from './status-timeline';

export interface SloPolicy {
  /** Target percent of good time as a decimal string, 0 < objective ≤ 100, up to 6 decimals: '99.9'. */
  objective: string;
  /** `rolling`: the last `days` × 24 h ending at now. `calendar_month`: the month containing now in `timezone`. */
  window: { kind: 'rolling'; days: number } | { kind: 'calendar_month'; timezone: string };
  /** How minutes with a recorded no_data status count. */
  no_data: 'bad' | 'good' | 'excluded';
  /** How minutes inside maintenance windows count; `counted` ignores the windows. */
  maintenance: 'excluded' | 'good' | 'counted';
  /** How degraded minutes count; default `good`. */
  degraded?: 'good' | 'bad';
}

export type CountingPolicy = Pick<SloPolicy, 'no_data' | 'maintenance' | 'degraded'>;
export type Verdict = 'good' | 'bad' | 'excluded';

export class InvalidSloPolicyError extends Error {
  readonly code = 'invalid_slo_policy' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSloPolicyError';
  }
}

export interface SloResult {
  period_start: number;
  period_end: number;
  /** YYYY-MM for a calendar month, null for a rolling window. */
  period_label: string | null;
  elapsed_ms: number;
  good_ms: number;
  bad_ms: number;
  excluded_ms: number;
  attainment: string | null;
  objective: string;
  error_budget_total_ms: number;
  error_budget_remaining_ms: number;
  error_budget_remaining_pct: string | null;
  burn_rate: string | null;
  met: boolean;
}

export interface DayUptime {
  date: string;
  /** good / (good + bad) in percent, 3 decimals; null when nothing counted (no data at all). */
  uptime_pct: string | null;
  healthy_ms: number;
  degraded_ms: number;
  unhealthy_ms: number;
  no_data_ms: number;
  /** Time inside maintenance windows with a recorded status (also in the four figures above). */
  maintenance_ms: number;
}

const OBJECTIVE = /^(\d{1,3})(?:\.(\d{1,6}))?$/;
const oneOf = <T extends string>(v: unknown, allowed: readonly T[]): v is T =>
  (allowed as readonly unknown[]).includes(v);

/** The objective as an exact fraction of 1: '99.9' → 999/1000. */
export function parseObjective(objective: string): { num: bigint; den: bigint } {
  const m = typeof objective === 'string' ? OBJECTIVE.exec(objective) : null;
  if (!m)
    throw new InvalidSloPolicyError(
      `objective must be a decimal percent like '99.9', got ${JSON.stringify(objective)}`,
    );
  const frac = m[2] ?? '';
  const num = BigInt((m[1] as string) + frac);
  const den = 100n * 10n ** BigInt(frac.length);
  if (num <= 0n || num > den)
    throw new InvalidSloPolicyError(`objective must be above 0 and at most 100, got ${objective}`);
  return { num, den };
}

export function validateSloPolicy(policy: SloPolicy): void {
  parseObjective(policy.objective);
  const w = policy.window as { kind?: unknown; days?: unknown; timezone?: unknown } | undefined;
  if (w?.kind === 'rolling') {
    if (!Number.isInteger(w.days) || (w.days as number) < 1)
      throw new InvalidSloPolicyError('window.days must be a positive integer');
  } else if (w?.kind === 'calendar_month') {
    assertTimeZone(w.timezone as string); // throws UnknownTimeZoneError
  } else throw new InvalidSloPolicyError("window.kind must be 'rolling' or 'calendar_month'");
  if (!oneOf(policy.no_data, ['bad', 'good', 'excluded']))
    throw new InvalidSloPolicyError("no_data must be 'bad', 'good' or 'excluded'");
  if (!oneOf(policy.maintenance, ['excluded', 'good', 'counted']))
    throw new InvalidSloPolicyError("maintenance must be 'excluded', 'good' or 'counted'");
  if (policy.degraded !== undefined && !oneOf(policy.degraded, ['good', 'bad']))
    throw new InvalidSloPolicyError("degraded must be 'good' or 'bad'");
}

/** How one segment counts under a policy (steps 1–5 of the module comment). */
export function classify(seg: Pick<StatusSegment, 'status' | 'maintenance'>, policy: CountingPolicy): Verdict {
  if (seg.status === 'unknown') return 'excluded';
  if (seg.maintenance && policy.maintenance !== 'counted') return policy.maintenance === 'good' ? 'good' : 'excluded';
  switch (seg.status) {
    case 'healthy':
      return 'good';
    case 'unhealthy':
      return 'bad';
    case 'degraded':
      return policy.degraded ?? 'good';
    case 'no_data':
      return policy.no_data;
  }
}

/** ms per verdict within [from, to). */
export function countVerdicts(
  timeline: readonly StatusChange[],
  maintenances: readonly Interval[],
  policy: CountingPolicy,
  from: number,
  to: number,
): Record<Verdict, number> {
  const out: Record<Verdict, number> = { good: 0, bad: 0, excluded: 0 };
  const windows = policy.maintenance === 'counted' ? [] : maintenances;
  for (const seg of maintenanceSegments(timeline, windows, from, to)) out[classify(seg, policy)] += seg.end - seg.start;
  return out;
}

/** floor(num / den) written with `digits` decimals; den must be positive. */
export function formatFloor(num: bigint, den: bigint, digits: number): string {
  const scaled = num * 10n ** BigInt(digits);
  let q = scaled / den;
  if (scaled % den !== 0n && scaled < 0n) q -= 1n; // BigInt division truncates toward zero
  const negative = q < 0n;
  const abs = (negative ? -q : q).toString().padStart(digits + 1, '0');
  const int = abs.slice(0, abs.length - digits);
  const frac = abs.slice(abs.length - digits);
  return `${negative ? '-' : ''}${int}${digits > 0 ? `.${frac}` : ''}`;
}

/**
 * The SLO at `now` over the policy's window. `period` (YYYY-MM, calendar windows only) selects
 * another month, e.g. a closed one for a statement; only its part before `now` is counted.
 */
export function computeSlo(
  timeline: readonly StatusChange[],
  maintenances: readonly Interval[],
  policy: SloPolicy,
  now: number,
  options: { period?: string } = {},
): SloResult {
  validateSloPolicy(policy);
  if (!Number.isFinite(now)) throw new InvalidSloPolicyError('now must be a finite instant');
  let period: Interval;
  let label: string | null = null;
  if (policy.window.kind === 'rolling') {
    if (options.period !== undefined)
      throw new InvalidSloPolicyError('a period label applies to calendar_month windows only');
    period = rollingWindow(policy.window.days, now);
  } else {
    const month =
      options.period !== undefined
        ? calendarMonth(options.period, policy.window.timezone)
        : calendarMonthAt(now, policy.window.timezone);
    period = month;
    label = month.label;
  }
  const length = period.end - period.start;
  const elapsed = Math.min(Math.max(now - period.start, 0), length);
  const { good, bad, excluded } = countVerdicts(timeline, maintenances, policy, period.start, period.start + elapsed);

  const { num, den } = parseObjective(policy.objective);
  const [g, b] = [BigInt(good), BigInt(bad)];
  const total = (BigInt(length - excluded) * (den - num)) / den;
  const remaining = total - b;
  let burn: string | null;
  if (b === 0n) burn = '0.000';
  else if (total === 0n) burn = null;
  else burn = formatFloor(b * BigInt(length), total * BigInt(elapsed), 3);

  return {
    period_start: period.start,
    period_end: period.end,
    period_label: label,
    elapsed_ms: elapsed,
    good_ms: good,
    bad_ms: bad,
    excluded_ms: excluded,
    attainment: good + bad > 0 ? formatFloor(g * 100n, g + b, 3) : null,
    objective: policy.objective,
    error_budget_total_ms: Number(total),
    error_budget_remaining_ms: Number(remaining),
    error_budget_remaining_pct: total > 0n ? formatFloor(remaining * 100n, total, 3) : null,
    burn_rate: burn,
    met: g * den >= num * (g + b),
  };
}

/** Defaults of `dailyUptime`: no_data and maintenance time are left out, degraded is up. */
export const DAILY_UPTIME_POLICY: Required<CountingPolicy> = {
  no_data: 'excluded',
  maintenance: 'excluded',
  degraded: 'good',
};

/**
 * Per-day uptime (e.g. the 90 days of a service view, from `lastCalendarDays`). Only time before
 * `now` is counted (default: the whole of each day). The status figures are raw measured time,
 * maintenance included; `uptime_pct` applies the counting policy (DAILY_UPTIME_POLICY by default).
 */
export function dailyUptime(
  timeline: readonly StatusChange[],
  maintenances: readonly Interval[],
  days: readonly Pick<CalendarDay, 'date' | 'start' | 'end'>[],
  options: Partial<CountingPolicy> & { now?: number } = {},
): DayUptime[] {
  const { now = Number.POSITIVE_INFINITY, ...overrides } = options;
  const policy: CountingPolicy = { ...DAILY_UPTIME_POLICY, ...overrides };
  return days.map((day) => {
    const to = Math.min(day.end, now);
    const row: DayUptime = {
      date: day.date,
      uptime_pct: null,
      healthy_ms: 0,
      degraded_ms: 0,
      unhealthy_ms: 0,
      no_data_ms: 0,
      maintenance_ms: 0,
    };
    let good = 0n;
    let bad = 0n;
    for (const seg of maintenanceSegments(timeline, maintenances, day.start, to)) {
      const ms = seg.end - seg.start;
      if (seg.status === 'unknown') continue;
      row[`${seg.status}_ms`] += ms;
      if (seg.maintenance) row.maintenance_ms += ms;
      const verdict = classify(seg, policy);
      if (verdict === 'good') good += BigInt(ms);
      else if (verdict === 'bad') bad += BigInt(ms);
    }
    if (good + bad > 0n) row.uptime_pct = formatFloor(good * 100n, good + bad, 3);
    return row;
  });
}
