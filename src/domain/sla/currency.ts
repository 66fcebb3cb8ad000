/**
 * ISO 4217 currencies from dinero.js's bigint currency table: the minor-unit exponent is the
 * table's (JPY 0, EUR 2, HUF 2, KWD 3), never `Intl.NumberFormat`'s display digits (which say 0
 * for HUF). Codes are matched exactly, upper case (`EUR`, not `eur`).
 */
import type { DineroCurrency } from 'dinero.js/bigint';
import * as iso4217 from 'dinero.js/bigint/currencies';
import { UnknownCurrencyError } from './errors';

function isCurrency(value: unknown): value is DineroCurrency<bigint> {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<DineroCurrency<bigint>>;
  return (
    typeof c.code === 'string' &&
    typeof c.exponent === 'bigint' &&
    (typeof c.base === 'bigint' || Array.isArray(c.base))
  );
}

const TABLE: ReadonlyMap<string, DineroCurrency<bigint>> = new Map(
  Object.values(iso4217 as Record<string, unknown>)
    .filter(isCurrency)
    .map((c) => [c.code, c] as const),
);

export function isKnownCurrency(code: string): boolean {
  return TABLE.has(code);
}

/** dinero.js's currency for `code`, or `UnknownCurrencyError` (code `unknown_currency`). */
export function currencyByCode(code: string): DineroCurrency<bigint> {
  const currency = typeof code === 'string' ? TABLE.get(code) : undefined;
  if (!currency) throw new UnknownCurrencyError(String(code));
  return currency;
}

/** Decimal places of the minor unit: JPY 0, EUR 2, KWD 3. */
export function currencyExponent(code: string): number {
  return Number(currencyByCode(code).exponent);
}
