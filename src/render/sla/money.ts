/**
 * Money and counts for statements, from integers by string arithmetic (never through a float):
 * 123457 minor units of KWD (exponent 3) → "KWD 123.457", of JPY (exponent 0) → "JPY 123,457".
 */

/** "1234567" → "1,234,567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** An integer with thousands separators: 44580 → "44,580". */
export function formatCount(value: number | bigint): string {
  const n = BigInt(value);
  return n < 0n ? `-${groupThousands((-n).toString())}` : groupThousands(n.toString());
}

/** `minor` units of `currency` with `exponent` decimal places: (5000, "EUR", 2) → "EUR 50.00". */
export function formatMoney(minor: number | bigint, currency: string, exponent: number): string {
  if (typeof minor === 'number' && !Number.isSafeInteger(minor))
    throw new RangeError(`money must be a safe integer of minor units, got ${minor}`);
  if (!Number.isInteger(exponent) || exponent < 0)
    throw new RangeError(`currency exponent must be an integer ≥ 0, got ${exponent}`);
  const n = BigInt(minor);
  const digits = (n < 0n ? -n : n).toString().padStart(exponent + 1, '0');
  const whole = groupThousands(digits.slice(0, digits.length - exponent));
  const amount = exponent === 0 ? whole : `${whole}.${digits.slice(-exponent)}`;
  return `${currency} ${n < 0n ? '-' : ''}${amount}`;
}

/** One minor unit of the currency: exponent 2 → "0.01", 0 → "1". */
export function minorUnit(exponent: number): string {
  return exponent === 0 ? '1' : `0.${'0'.repeat(exponent - 1)}1`;
}

/**
 * An exact amount of `numerator / denominator` minor units, for showing a credit before its
 * rounding: at least the currency's places, up to `extraDecimals` more, "…" when cut short.
 * (694 + 41610/43230 minor units of AUD → "AUD 6.939625…").
 */
export function formatMoneyFraction(
  numerator: bigint,
  denominator: bigint,
  currency: string,
  exponent: number,
  extraDecimals = 6,
): string {
  if (denominator <= 0n || numerator < 0n)
    throw new RangeError('money fraction must be ≥ 0 with a positive denominator');
  const scale = 10n ** BigInt(extraDecimals);
  const scaled = (numerator * scale) / denominator;
  const exact = (numerator * scale) % denominator === 0n;
  const money = formatMoney(scaled, currency, exponent + extraDecimals);
  // Drop the trailing zeros among the extra places only (the currency's own places stay).
  let cut = 0;
  while (cut < extraDecimals && money[money.length - 1 - cut] === '0') cut++;
  const kept = money.slice(0, money.length - cut);
  const trimmed = kept.endsWith('.') ? kept.slice(0, -1) : kept;
  return exact ? trimmed : `${trimmed}…`;
}
