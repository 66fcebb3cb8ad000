/**
 * Service credit of one statement ("Money"), with dinero.js 2's bigint build.
 *
 * Order of operations, all exact (bigint fractions of the fee) until a single rounding at the end:
 * 1. The credit share of the fee:
 *    - `tiered`: the highest `credit_pct` among the steps whose `below_pct` the attainment is
 *      strictly below (compared by cross-multiplying); none → 0.
 *    - `proportional`: down ÷ eligible × multiplier (eligible 0 → 0).
 * 2. The cap: the share is limited to `cap_pct` % of the fee (`capped` when it had to be).
 * 3. The minimum: a credit above zero but below `minimum_credit_minor` is raised to it (a zero
 *    credit stays zero: the minimum is a floor for credits that are owed, not a payment when the
 *    SLA was met). It applies after the cap, so it may exceed the cap, but never the fee itself.
 * 4. Rounding, once, to the currency's minor unit with the contract's rule: `half_up` (0.5 goes
 *    up) or `up` (any fraction goes up, in the customer's favour), using dinero.js's own
 *    `halfUp`/`up` division with the exact denominator.
 *
 * `creditPct` is the percentage of the fee after step 2 (before the minimum and the rounding),
 * as a decimal string without trailing zeros: exact for tiered terms (the step's or the cap's
 * value); for proportional terms rounded toward zero at `CREDIT_PCT_DECIMALS` places when not
 * exact (display only: the amount uses the exact share).
 */
import { calculator, dinero, halfUp, toSnapshot, up } from 'dinero.js/bigint';
import { type Fraction, isBelowPercent, toMinuteCount } from './attainment';
import type { CreditTerms, RoundingMode, TierStep } from './credit-terms';
import {
  assertFraction,
  compareDecimals,
  compareFractions,
  decimalToFraction,
  formatFractionFloorTrimmed,
} from './decimal';
import { currencyByCode } from './currency';
import { InvalidSlaInputError } from './errors';

export const CREDIT_PCT_DECIMALS = 6;

export interface CreditResult {
  /** % of the fee after the cap, decimal string (`"10"`, `"2.5"`). */
  creditPct: string;
  /** The credit in the currency's minor units, rounded once. */
  creditAmountMinor: number;
  /** The cap lowered the credit. */
  capped: boolean;
  /** The minimum credit raised the credit. */
  minimumApplied: boolean;
}

const ZERO: Fraction = { numerator: 0n, denominator: 1n };

/** The step whose credit applies: the highest `credit_pct` among those with attainment < `below_pct`. */
export function selectTier(steps: readonly TierStep[], attainment: Fraction): TierStep | undefined {
  let best: TierStep | undefined;
  for (const step of steps) {
    if (isBelowPercent(attainment, step.below_pct) && (!best || compareDecimals(step.credit_pct, best.credit_pct) > 0))
      best = step;
  }
  return best;
}

/** `pct` percent as a share: "10" → 10/100. */
function percentShare(pct: string): Fraction {
  const f = decimalToFraction(pct);
  return { numerator: f.numerator, denominator: f.denominator * 100n };
}

function toFee(feeMinor: bigint | number): bigint {
  if (typeof feeMinor === 'bigint') {
    if (feeMinor < 0n) throw new InvalidSlaInputError(`the fee must be ≥ 0, got ${feeMinor}`);
    return feeMinor;
  }
  if (!Number.isSafeInteger(feeMinor) || feeMinor < 0)
    throw new InvalidSlaInputError(`the fee must be a non-negative integer in minor units, got ${feeMinor}`);
  return BigInt(feeMinor);
}

const ROUNDERS: Readonly<Record<RoundingMode, typeof halfUp>> = { half_up: halfUp, up };

/**
 * The credit owed under `terms` for a period with `eligibleMinutes`, `downMinutes` and the
 * matching `attainment` (attainment.ts), on a monthly fee of `feeMinor` minor units of `currency`
 * (ISO 4217, upper case; unknown → `UnknownCurrencyError`).
 */
export function computeCredit(
  terms: CreditTerms,
  feeMinor: bigint | number,
  currency: string,
  attainment: Fraction,
  eligibleMinutes: number | bigint,
  downMinutes: number | bigint,
): CreditResult {
  const money = currencyByCode(currency);
  const fee = dinero({ amount: toFee(feeMinor), currency: money });
  const feeAmount = toSnapshot(fee).amount;
  const eligible = toMinuteCount(eligibleMinutes, 'eligible minutes');
  const down = toMinuteCount(downMinutes, 'down minutes');
  if (down > eligible) throw new InvalidSlaInputError(`down minutes (${down}) exceed eligible minutes (${eligible})`);
  assertFraction(attainment, 'attainment');
  // The attainment must be (eligible − down) / eligible (1 when eligible is 0).
  const expected: Fraction =
    eligible === 0n ? { numerator: 1n, denominator: 1n } : { numerator: eligible - down, denominator: eligible };
  if (compareFractions(attainment, expected) !== 0)
    throw new InvalidSlaInputError('the attainment does not match the eligible and down minutes');

  // 1. The share of the fee the terms give.
  let share: Fraction;
  if (terms.type === 'tiered') {
    const step = selectTier(terms.steps, attainment);
    share = step ? percentShare(step.credit_pct) : ZERO;
  } else {
    const m = decimalToFraction(terms.multiplier);
    share = eligible === 0n ? ZERO : { numerator: down * m.numerator, denominator: eligible * m.denominator };
  }

  // 2. The cap.
  const cap = percentShare(terms.cap_pct);
  const capped = compareFractions(share, cap) > 0;
  if (capped) share = cap;
  const creditPct = formatFractionFloorTrimmed(
    { numerator: share.numerator * 100n, denominator: share.denominator },
    CREDIT_PCT_DECIMALS,
  );

  // The exact credit in minor units is feeAmount × share.numerator / share.denominator.
  const exactNumerator = feeAmount * share.numerator;
  const minimum = BigInt(terms.minimum_credit_minor);

  // 3. The minimum (exact comparison: exact credit < minimum ⇔ n < minimum × d), 4. one rounding.
  let creditMinor: bigint;
  let minimumApplied = false;
  if (exactNumerator > 0n && exactNumerator < minimum * share.denominator) {
    creditMinor = minimum < feeAmount ? minimum : feeAmount;
    minimumApplied = true;
  } else {
    creditMinor = ROUNDERS[terms.rounding](exactNumerator, share.denominator, calculator);
  }

  const credit = toSnapshot(dinero({ amount: creditMinor, currency: money })).amount;
  if (credit > BigInt(Number.MAX_SAFE_INTEGER))
    throw new InvalidSlaInputError(`the credit (${credit}) exceeds the largest safe integer`);
  return { creditPct, creditAmountMinor: Number(credit), capped, minimumApplied };
}
