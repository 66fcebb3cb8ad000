/**
 * Attainment as an exact fraction ("Exact arithmetic"): (eligible − down) ÷ eligible in
 * bigint integers. Thresholds are compared by cross-multiplying with the decimal string, never
 * through a float or a rounded display value: 99.9949% is below 99.99% although it displays as
 * "99.99" at two places.
 *
 * - Eligible 0 (the whole period excluded) → attainment 1 (100%): nothing could be missed.
 * - `formatPercent` is for display (`attainment_min`): the percentage rounded toward zero, so a
 *   statement never shows an attainment higher than the one measured.
 */
import { type Fraction, assertFraction, compareFractions, decimalToFraction, formatFractionFloor } from './decimal';
import { InvalidSlaInputError } from './errors';

export type { Fraction } from './decimal';

export const FULL_ATTAINMENT: Fraction = Object.freeze({ numerator: 1n, denominator: 1n });

/** A non-negative safe integer (number or bigint) as bigint. */
export function toMinuteCount(value: number | bigint, what: string): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n) throw new InvalidSlaInputError(`${what} must be ≥ 0, got ${value}`);
    return value;
  }
  if (!Number.isSafeInteger(value) || value < 0)
    throw new InvalidSlaInputError(`${what} must be a non-negative integer, got ${value}`);
  return BigInt(value);
}

/** (eligible − down) / eligible, exact; 1 when eligible is 0. */
export function attainment(eligibleMinutes: number | bigint, downMinutes: number | bigint): Fraction {
  const eligible = toMinuteCount(eligibleMinutes, 'eligible minutes');
  const down = toMinuteCount(downMinutes, 'down minutes');
  if (down > eligible) throw new InvalidSlaInputError(`down minutes (${down}) exceed eligible minutes (${eligible})`);
  if (eligible === 0n) return FULL_ATTAINMENT;
  return { numerator: eligible - down, denominator: eligible };
}

/** -1, 0 or 1 as the attainment is below, equal to or above `pct` percent (a decimal string). */
export function compareWithPercent(fraction: Fraction, pct: string): -1 | 0 | 1 {
  assertFraction(fraction, 'attainment');
  const p = decimalToFraction(pct);
  // fraction vs p/100  ⇔  fraction.n × 100 × p.d  vs  p.n × fraction.d
  return compareFractions({ numerator: fraction.numerator * 100n, denominator: fraction.denominator }, p);
}

/** Strictly below `pct` percent (the tier rule "<"). */
export function isBelowPercent(fraction: Fraction, pct: string): boolean {
  return compareWithPercent(fraction, pct) < 0;
}

/** The fraction as a percentage with exactly `decimals` places, rounded toward zero: 0.999949 at 2 → "99.99". */
export function formatPercent(fraction: Fraction, decimals: number): string {
  assertFraction(fraction, 'attainment');
  return formatFractionFloor({ numerator: fraction.numerator * 100n, denominator: fraction.denominator }, decimals);
}
