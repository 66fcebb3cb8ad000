/**
 * Decimal strings and exact fractions in bigint: the contract's percentages and multipliers
 * (`"99.99"`, `"10"`, `"0.5"`) and the statement's display values are decimal strings, never
 * binary floats, so `99.99` means exactly 9999/100.
 *
 * - Accepted form (`DECIMAL_PATTERN`): digits, optionally a point and 1 to `MAX_DECIMAL_PLACES`
 *   digits; no sign, no exponent, no leading zeros (`0.5`, not `00.5` or `.5`), at most 6 integer
 *   digits. Ranges (0..100 for a percentage, …) are the callers' business.
 * - A `Fraction` is a non-negative rational numerator/denominator (denominator > 0), not reduced.
 */
import { InvalidDecimalError, InvalidSlaInputError } from './errors';

export const MAX_DECIMAL_PLACES = 6;
export const DECIMAL_PATTERN = /^(0|[1-9]\d{0,5})(\.\d{1,6})?$/;

/** A non-negative exact rational. */
export interface Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** A decimal string as `units / 10^scale` (`"99.99"` → 9999n, scale 2). */
export interface ScaledDecimal {
  readonly units: bigint;
  readonly scale: number;
}

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_PATTERN.test(value);
}

export function parseDecimal(value: string): ScaledDecimal {
  if (!isDecimalString(value)) throw new InvalidDecimalError(value);
  const [whole = '', frac = ''] = value.split('.');
  return { units: BigInt(whole + frac), scale: frac.length };
}

/** The decimal string as an exact fraction (`"99.99"` → 9999/100). */
export function decimalToFraction(value: string): Fraction {
  const { units, scale } = parseDecimal(value);
  return { numerator: units, denominator: 10n ** BigInt(scale) };
}

/** -1, 0 or 1 as a < b, a = b, a > b, by cross-multiplying (denominators are positive). */
export function compareFractions(a: Fraction, b: Fraction): -1 | 0 | 1 {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  return compareFractions(decimalToFraction(a), decimalToFraction(b));
}

/** The same value without trailing fractional zeros: `"10.50"` → `"10.5"`, `"100.000"` → `"100"`. */
export function canonicalDecimal(value: string): string {
  parseDecimal(value);
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

export function assertFraction(f: Fraction, what = 'fraction'): void {
  if (
    typeof f?.numerator !== 'bigint' ||
    typeof f?.denominator !== 'bigint' ||
    f.denominator <= 0n ||
    f.numerator < 0n
  ) {
    throw new InvalidSlaInputError(`${what} must have bigint numerator ≥ 0 and denominator > 0`);
  }
}

/**
 * `numerator / denominator` as a decimal string with exactly `decimals` places, rounded toward
 * zero (floor, all values being non-negative): 999949/1000000 at 4 places → `"0.9999"`.
 */
export function formatFractionFloor(f: Fraction, decimals: number): string {
  assertFraction(f);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20)
    throw new InvalidSlaInputError(`decimals must be an integer 0..20, got ${decimals}`);
  const scaled = (f.numerator * 10n ** BigInt(decimals)) / f.denominator; // bigint division truncates
  const digits = scaled.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return digits;
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Like `formatFractionFloor`, then without trailing fractional zeros (`"10.500000"` → `"10.5"`). */
export function formatFractionFloorTrimmed(f: Fraction, maxDecimals: number): string {
  const fixed = formatFractionFloor(f, maxDecimals);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
