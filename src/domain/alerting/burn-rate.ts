/**
 * Multi-window, multi-burn-rate SLO alerts (Google SRE workbook, ch. 5 "Alerting on SLOs",
 * alert 6). The burn rate is how fast the error budget is being spent: 1 spends exactly the
 * budget over the SLO period, 14.4 over one hour spends 14.4 × 1 h / 720 h = 2 % of a 30-day
 * budget.
 *
 * - A window pair fires when both its long window (is it a real problem?) and its short window
 *   (is it still happening?) burn at or above the pair's rate. The short window makes the alert
 *   reset within minutes of recovery instead of an hour.
 * - Defaults follow the Google SRE workbook's multiwindow alerts: 14.4× over 1 h and 5 m pages, 6× over 6 h and 30 m warns. The
 *   workbook's third pair (1× over 3 d and 6 h, a ticket) is not a default: it needs three days of
 *   data per evaluation and tickets are not alerts in Vigil; `WORKBOOK_TICKET_WINDOW` can be added
 *   to a policy.
 * - Burn rates are rounded to 6 decimals, and the rounded figure is both compared and reported,
 *   so 0.0144 / (1 − 0.999) is 14.4 (not 14.399999999999999) and fires at 14.4.
 * - A window with no counted time (total 0) never fires; neither does a pair whose window was not
 *   measured. An objective of 1 (100 %) has no budget: any bad time burns at Infinity.
 */

export type BurnSeverity = 'page' | 'warn' | 'ticket';

export interface BurnWindow {
  severity: BurnSeverity;
  long_minutes: number;
  short_minutes: number;
  burn_rate: number;
}

/** Bad and total (counted) minutes measured over the last `minutes`. */
export interface WindowMeasurement {
  minutes: number;
  bad: number;
  total: number;
}

export interface BurnFiring extends BurnWindow {
  long_burn: number;
  short_burn: number;
}

export interface PairEvaluation extends BurnWindow {
  /** null: the window was not measured or counted no time. */
  long_burn: number | null;
  short_burn: number | null;
  firing: boolean;
}

export interface BurnEvaluation {
  /** The most severe firing pair (then the highest rate), or null. */
  firing: BurnFiring | null;
  /** Every pair of the policy, in policy order. */
  pairs: PairEvaluation[];
}

export const DEFAULT_BURN_WINDOWS: readonly BurnWindow[] = Object.freeze([
  { severity: 'page', long_minutes: 60, short_minutes: 5, burn_rate: 14.4 },
  { severity: 'warn', long_minutes: 360, short_minutes: 30, burn_rate: 6 },
]);

export const WORKBOOK_TICKET_WINDOW: BurnWindow = Object.freeze({
  severity: 'ticket',
  long_minutes: 4320,
  short_minutes: 360,
  burn_rate: 1,
});

const SEVERITY_RANK: Record<BurnSeverity, number> = { page: 3, warn: 2, ticket: 1 };

const round6 = (x: number): number => (Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : x);

function assertObjective(objective: number): void {
  if (!(objective > 0 && objective <= 1))
    throw new RangeError(`objective must be a fraction in (0, 1], e.g. 0.999; got ${objective}`);
}

/** errorRatio / (1 − objective), rounded to 6 decimals. */
export function burnRate(errorRatio: number, objective: number): number {
  assertObjective(objective);
  if (!(errorRatio >= 0 && errorRatio <= 1)) throw new RangeError(`errorRatio must be in [0, 1]; got ${errorRatio}`);
  if (errorRatio === 0) return 0;
  if (objective === 1) return Number.POSITIVE_INFINITY;
  return round6(errorRatio / (1 - objective));
}

/** Fraction of the period's error budget a burn rate spends over a window: 14.4 × 60 / 43,200 = 0.02. */
export function budgetSpent(rate: number, windowMinutes: number, periodMinutes: number): number {
  return round6((rate * windowMinutes) / periodMinutes);
}

/** The burn rate that spends `fraction` of the budget over a window: 0.02 × 43,200 / 60 = 14.4. */
export function burnRateForBudget(fraction: number, windowMinutes: number, periodMinutes: number): number {
  return round6((fraction * periodMinutes) / windowMinutes);
}

function windowBurn(objective: number, byMinutes: Map<number, WindowMeasurement>, minutes: number): number | null {
  const m = byMinutes.get(minutes);
  if (!m || !(m.total > 0)) return null;
  if (!(m.bad >= 0 && m.bad <= m.total))
    throw new RangeError(`window of ${minutes} minutes: bad must be within 0..total; got ${m.bad} of ${m.total}`);
  return burnRate(m.bad / m.total, objective);
}

export function evaluateBurn(
  objective: number,
  windows: readonly WindowMeasurement[],
  policy: readonly BurnWindow[] = DEFAULT_BURN_WINDOWS,
): BurnEvaluation {
  assertObjective(objective);
  const byMinutes = new Map(windows.map((w) => [w.minutes, w]));
  const pairs = policy.map((p): PairEvaluation => {
    const long_burn = windowBurn(objective, byMinutes, p.long_minutes);
    const short_burn = windowBurn(objective, byMinutes, p.short_minutes);
    const firing = long_burn !== null && short_burn !== null && long_burn >= p.burn_rate && short_burn >= p.burn_rate;
    return { ...p, long_burn, short_burn, firing };
  });
  let firing: BurnFiring | null = null;
  for (const p of pairs) {
    if (!p.firing) continue;
    const better =
      firing === null ||
      SEVERITY_RANK[p.severity] > SEVERITY_RANK[firing.severity] ||
      (SEVERITY_RANK[p.severity] === SEVERITY_RANK[firing.severity] && p.burn_rate > firing.burn_rate);
    if (better)
      firing = {
        severity: p.severity,
        long_minutes: p.long_minutes,
        short_minutes: p.short_minutes,
        burn_rate: p.burn_rate,
        long_burn: p.long_burn!,
        short_burn: p.short_burn!,
      };
  }
  return { firing, pairs };
}
