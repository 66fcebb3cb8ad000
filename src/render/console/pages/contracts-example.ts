import {
  computeCredit,
  type CreditResult,
  type CreditTerms,
  currencyExponent,
  decimalToFraction,
  isDecimalString,
  isKnownCurrency,
} from '../../../domain/sla';
import { esc } from '../../html';

/** A month of 30 days, to say what an attainment means in minutes. */
const MINUTES_IN_30_DAYS = 43_200n;

export interface WorkedExample {
  attainmentPct: string;
  feeMinor: number;
  currency: string;
  credit: CreditResult;
  /** Down minutes in a 30-day month at that attainment, as display text ("345.6"). */
  downMinutesIn30Days: string;
}

/** Minor units as a currency amount ("$10,000.00"), exact (no float on the way). */
export function formatMinor(minor: number, currency: string): string {
  const exp = isKnownCurrency(currency) ? currencyExponent(currency) : 2;
  const digits = BigInt(minor)
    .toString()
    .padStart(exp + 1, '0');
  const major = exp ? `${digits.slice(0, -exp)}.${digits.slice(-exp)}` : digits;
  try {
    const fmt = new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      minimumFractionDigits: exp,
      maximumFractionDigits: exp,
    });
    return fmt.format(major as unknown as number);
  } catch {
    return `${major} ${currency}`;
  }
}

/**
 * What the terms pay at `attainmentPct` on a fee of `feeMinor`: the statement arithmetic itself
 * (computeCredit), fed the attainment as an exact fraction of minutes (eligible = its denominator),
 * so the example and a real statement with that attainment agree to the minor unit.
 */
export function workedExample(
  terms: CreditTerms,
  feeMinor: number,
  currency: string,
  attainmentPct: string,
): WorkedExample | { error: string } {
  if (!isDecimalString(attainmentPct)) return { error: 'The example attainment must be a decimal such as 99.2.' };
  const pct = decimalToFraction(attainmentPct);
  const eligible = pct.denominator * 100n;
  const up = pct.numerator;
  if (up > eligible) return { error: 'The example attainment must be at most 100.' };
  if (!isKnownCurrency(currency)) return { error: 'Choose a known currency to see an example.' };
  const credit = computeCredit(
    terms,
    feeMinor,
    currency,
    { numerator: up, denominator: eligible },
    eligible,
    eligible - up,
  );
  const downTenths = ((eligible - up) * MINUTES_IN_30_DAYS * 10n) / eligible;
  const down = `${downTenths / 10n}${downTenths % 10n ? `.${downTenths % 10n}` : ''}`;
  return { attainmentPct, feeMinor, currency, credit, downMinutesIn30Days: down };
}

/** The example as a sentence and its details. */
export function workedExampleText(e: WorkedExample | { error: string }): string {
  if ('error' in e) return `<p class="muted">${esc(e.error)}</p>`;
  const fee = formatMinor(e.feeMinor, e.currency);
  const paid = formatMinor(e.credit.creditAmountMinor, e.currency);
  const sentence =
    e.credit.creditAmountMinor === 0
      ? `At ${esc(e.attainmentPct)}% attainment on a ${esc(fee)} monthly fee this contract pays no credit.`
      : `At ${esc(e.attainmentPct)}% attainment on a ${esc(fee)} monthly fee this contract pays <strong class="example-amount">${esc(paid)}</strong> (${esc(e.credit.creditPct)}% of the fee).`;
  const notes = [
    `In a 30-day month that attainment is about ${esc(e.downMinutesIn30Days)} minutes down.`,
    e.credit.capped ? 'The cap limited the credit.' : '',
    e.credit.minimumApplied ? 'The minimum credit raised it.' : '',
  ].filter(Boolean);
  return `<p class="example-sentence">${sentence}</p><p class="muted">${notes.join(' ')}</p>`;
}
