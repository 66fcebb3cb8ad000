import {
  InvalidSlaInputError,
  UnknownCurrencyError,
  attainment,
  computeCredit,
  creditTermsSchema,
  currencyExponent,
  selectTier,
  type CreditTerms,
  type CreditTermsInput,
} from '../../src/domain/sla';

const terms = (input: Partial<CreditTermsInput> & Pick<CreditTermsInput, 'type'>): CreditTerms =>
  creditTermsSchema.parse({ maintenance_notice_hours: 72, ...input });
/** The AWS-style ladder: < 99.99 → 10 %, < 99.0 → 30 %, < 95.0 → 100 %. */
const STEPS = [
  { below_pct: '99.99', credit_pct: '10' },
  { below_pct: '99.0', credit_pct: '30' },
  { below_pct: '95.0', credit_pct: '100' },
];
const tiered = (extra: Partial<CreditTermsInput> = {}): CreditTerms =>
  terms({ type: 'tiered', steps: STEPS, ...extra } as CreditTermsInput);
const proportional = (multiplier: string, extra: Partial<CreditTermsInput> = {}): CreditTerms =>
  terms({ type: 'proportional', multiplier, ...extra } as CreditTermsInput);

/** computeCredit with the attainment derived from the minutes. */
const credit = (t: CreditTerms, fee: number | bigint, currency: string, eligible: number, down: number) =>
  computeCredit(t, fee, currency, attainment(eligible, down), eligible, down);

describe('tiered credit: the highest credit among the steps the attainment is strictly below', () => {
  // Fee €1,000.00 = 100,000 cents. Attainments over 10,000 eligible minutes.
  it.each([
    // 10,000 − 1 = 9,999 / 10,000 = 99.99 % exactly: not < 99.99 → no credit.
    [1, '0', 0],
    // 99.98 %: < 99.99 only → 10 % of 100,000 = 10,000.
    [2, '10', 10_000],
    // 99.00 % exactly: < 99.99, not < 99.0 → 10 % → 10,000.
    [100, '10', 10_000],
    // 98.99 %: < 99.0 → 30 % → 30,000.
    [101, '30', 30_000],
    // 95.00 % exactly: not < 95.0 → 30 % → 30,000.
    [500, '30', 30_000],
    // 94.99 %: < 95.0 → 100 % → 100,000.
    [501, '100', 100_000],
  ])('%d down minutes of 10,000 → %s %% = %d cents', (down, pct, amount) => {
    expect(credit(tiered(), 100_000, 'EUR', 10_000, down)).toEqual({
      creditPct: pct,
      creditAmountMinor: amount,
      capped: false,
      minimumApplied: false,
    });
  });

  it('picks the highest applicable credit whatever the order of the steps', () => {
    // 98.99 % is below 99.99 (10 %) and 99.0 (30 %), not 95.0 → the 30 % step, listed first or last.
    const a = attainment(10_000, 101);
    expect(selectTier([...STEPS].reverse(), a)?.credit_pct).toBe('30');
    expect(selectTier(STEPS, a)?.credit_pct).toBe('30');
    expect(selectTier(STEPS, attainment(10_000, 0))).toBeUndefined();
  });

  it('caps the credit at cap_pct of the fee', () => {
    // 98.99 % → 30 %, cap 25 % → 25 % of 100,000 = 25,000.
    expect(credit(tiered({ cap_pct: '25' }), 100_000, 'EUR', 10_000, 101)).toEqual({
      creditPct: '25',
      creditAmountMinor: 25_000,
      capped: true,
      minimumApplied: false,
    });
    // 10 % under a 25 % cap is not capped.
    expect(credit(tiered({ cap_pct: '25' }), 100_000, 'EUR', 10_000, 2).capped).toBe(false);
  });
});

describe('proportional credit: fee × down ÷ eligible × multiplier', () => {
  it('is exact when it divides', () => {
    // Fee 44,640 cents, multiplier 1, 100 down of 44,640: 44,640 × 100 / 44,640 = 100 cents.
    // creditPct = 100 / 44,640 × 100 = 0.2240143…% → "0.224014" (6 places, toward zero).
    expect(credit(proportional('1'), 44_640, 'EUR', 44_640, 100)).toEqual({
      creditPct: '0.224014',
      creditAmountMinor: 100,
      capped: false,
      minimumApplied: false,
    });
  });

  it('rounds half_up and up differently by one minor unit', () => {
    // Fee 100,000 cents, multiplier 10, 45 down of 44,640: 100,000 × 45 × 10 / 44,640 = 45,000,000 / 44,640
    // = 1,008 rest 2,880 (44,640 × 1,008 = 44,997,120) = 1,008.0645… → half_up 1,008, up 1,009.
    // creditPct = 450 / 44,640 × 100 = 1.0080645…% → "1.008064".
    expect(credit(proportional('10'), 100_000, 'EUR', 44_640, 45)).toEqual({
      creditPct: '1.008064',
      creditAmountMinor: 1_008,
      capped: false,
      minimumApplied: false,
    });
    expect(credit(proportional('10', { rounding: 'up' }), 100_000, 'EUR', 44_640, 45)).toEqual({
      creditPct: '1.008064',
      creditAmountMinor: 1_009,
      capped: false,
      minimumApplied: false,
    });
  });

  it('rounds once, from the exact share, not from the displayed percentage', () => {
    // Fee 100,000, multiplier 1, 45 down of 44,640: 4,500,000 / 44,640 = 100.806… → half_up 101.
    // (Rounding the share to 0.10 % first would give 100.)
    expect(credit(proportional('1'), 100_000, 'EUR', 44_640, 45)).toEqual({
      creditPct: '0.100806',
      creditAmountMinor: 101,
      capped: false,
      minimumApplied: false,
    });
  });

  it('caps a large multiple', () => {
    // Multiplier 100, 1,000 down of 44,640 → share 100,000 / 44,640 = 224 % > cap 50 % → 50 % of 100,000 = 50,000.
    expect(credit(proportional('100', { cap_pct: '50' }), 100_000, 'EUR', 44_640, 1_000)).toEqual({
      creditPct: '50',
      creditAmountMinor: 50_000,
      capped: true,
      minimumApplied: false,
    });
    // Without a cap it stops at 100 % of the fee (the default cap_pct) → 100,000.
    expect(credit(proportional('100'), 100_000, 'EUR', 44_640, 1_000)).toMatchObject({
      creditPct: '100',
      creditAmountMinor: 100_000,
      capped: true,
    });
  });

  it('is nothing when nothing is eligible or nothing was down', () => {
    expect(credit(proportional('10'), 100_000, 'EUR', 0, 0)).toEqual({
      creditPct: '0',
      creditAmountMinor: 0,
      capped: false,
      minimumApplied: false,
    });
    expect(credit(proportional('10'), 100_000, 'EUR', 44_640, 0)).toEqual({
      creditPct: '0',
      creditAmountMinor: 0,
      capped: false,
      minimumApplied: false,
    });
  });
});

describe('rounding rules', () => {
  it.each([
    // 10 % of 100,001 cents = 10,000.1 → half_up 10,000, up 10,001 (they differ by one cent).
    [100_001, 10_000, 10_001],
    // 10 % of 100,005 = 10,000.5 → half_up 10,001 (a half goes up), up 10,001.
    [100_005, 10_001, 10_001],
    // 10 % of 100,004 = 10,000.4 → 10,000 / 10,001; 10 % of 100,006 = 10,000.6 → 10,001 / 10,001.
    [100_004, 10_000, 10_001],
    [100_006, 10_001, 10_001],
    // 10 % of 100,000 = 10,000 exactly → 10,000 either way.
    [100_000, 10_000, 10_000],
  ])('10 %% of %d cents → half_up %d, up %d', (fee, halfUp, up) => {
    // 2 down of 10,000 = 99.98 % → the 10 % step.
    expect(credit(tiered(), fee, 'EUR', 10_000, 2).creditAmountMinor).toBe(halfUp);
    expect(credit(tiered({ rounding: 'up' }), fee, 'EUR', 10_000, 2).creditAmountMinor).toBe(up);
  });

  it('rounds a sub-unit credit to zero with half_up and to one unit with up', () => {
    // Fee 100 cents, multiplier 1, 134 down of 44,640: 13,400 / 44,640 = 0.30017… cents → half_up 0, up 1.
    expect(credit(proportional('1'), 100, 'EUR', 44_640, 134).creditAmountMinor).toBe(0);
    expect(credit(proportional('1', { rounding: 'up' }), 100, 'EUR', 44_640, 134).creditAmountMinor).toBe(1);
  });
});

describe('the minimum credit', () => {
  it('raises a credit above zero to the minimum', () => {
    // 10 % of 10,000 cents = 1,000 < minimum 5,000 → 5,000.
    expect(credit(tiered({ minimum_credit_minor: 5_000 }), 10_000, 'EUR', 10_000, 2)).toEqual({
      creditPct: '10',
      creditAmountMinor: 5_000,
      capped: false,
      minimumApplied: true,
    });
    // A sub-unit credit (0.30017… cents, see above) is above zero too → 50.
    expect(credit(proportional('1', { minimum_credit_minor: 50 }), 100, 'EUR', 44_640, 134)).toMatchObject({
      creditAmountMinor: 50,
      minimumApplied: true,
    });
  });

  it('leaves a zero credit at zero', () => {
    // 99.99 % exactly earns no step → 0, and no minimum.
    expect(credit(tiered({ minimum_credit_minor: 5_000 }), 10_000, 'EUR', 10_000, 1)).toEqual({
      creditPct: '0',
      creditAmountMinor: 0,
      capped: false,
      minimumApplied: false,
    });
  });

  it('does not touch a credit at or above it', () => {
    // 10 % of 50,000 = 5,000 = minimum → 5,000, not "applied"; 10 % of 60,000 = 6,000 > 5,000.
    expect(credit(tiered({ minimum_credit_minor: 5_000 }), 50_000, 'EUR', 10_000, 2)).toMatchObject({
      creditAmountMinor: 5_000,
      minimumApplied: false,
    });
    expect(credit(tiered({ minimum_credit_minor: 5_000 }), 60_000, 'EUR', 10_000, 2)).toMatchObject({
      creditAmountMinor: 6_000,
      minimumApplied: false,
    });
  });

  it('applies after the cap, but never beyond the fee', () => {
    // 98.99 % → 30 % of 100,000 = 30,000, capped at 5 % = 5,000, then raised to the minimum 8,000.
    expect(credit(tiered({ cap_pct: '5', minimum_credit_minor: 8_000 }), 100_000, 'EUR', 10_000, 101)).toEqual({
      creditPct: '5',
      creditAmountMinor: 8_000,
      capped: true,
      minimumApplied: true,
    });
    // 10 % of a 3,000 fee = 300 < minimum 5,000, but the credit stops at the fee: 3,000.
    expect(credit(tiered({ minimum_credit_minor: 5_000 }), 3_000, 'EUR', 10_000, 2)).toMatchObject({
      creditAmountMinor: 3_000,
      minimumApplied: true,
    });
  });
});

describe('currencies from dinero.js’s ISO 4217 table', () => {
  it('knows the minor-unit exponents: JPY 0, EUR 2, HUF 2, KWD 3', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('EUR')).toBe(2);
    // ISO 4217 gives HUF 2 decimals (the forint has fillér on paper), whatever Intl shows for cash.
    expect(currencyExponent('HUF')).toBe(2);
    expect(currencyExponent('KWD')).toBe(3);
  });

  it('computes in yen (0 decimals)', () => {
    // ¥100,001 × 10 % = 10,000.1 yen → half_up ¥10,000, up ¥10,001.
    expect(credit(tiered(), 100_001, 'JPY', 10_000, 2).creditAmountMinor).toBe(10_000);
    expect(credit(tiered({ rounding: 'up' }), 100_001, 'JPY', 10_000, 2).creditAmountMinor).toBe(10_001);
  });

  it('computes in Kuwaiti fils (3 decimals)', () => {
    // KWD 1,000.005 = 1,000,005 fils × 30 % (98.99 %) = 300,001.5 fils → half_up 300,002 (KWD 300.002).
    expect(credit(tiered(), 1_000_005, 'KWD', 10_000, 101)).toEqual({
      creditPct: '30',
      creditAmountMinor: 300_002,
      capped: false,
      minimumApplied: false,
    });
    // × 10 % = 100,000.5 → half_up 100,001; × 10 % of 1,000,001 = 100,000.1 → half_up 100,000, up 100,001.
    expect(credit(tiered(), 1_000_005, 'KWD', 10_000, 2).creditAmountMinor).toBe(100_001);
    expect(credit(tiered(), 1_000_001, 'KWD', 10_000, 2).creditAmountMinor).toBe(100_000);
    expect(credit(tiered({ rounding: 'up' }), 1_000_001, 'KWD', 10_000, 2).creditAmountMinor).toBe(100_001);
  });

  it('computes in forint minor units (fillér, 2 decimals)', () => {
    // HUF 12,345.67 = 1,234,567 fillér × 10 % = 123,456.7 → half_up 123,457.
    expect(credit(tiered(), 1_234_567, 'HUF', 10_000, 2).creditAmountMinor).toBe(123_457);
  });

  it.each(['ABC', 'eur', '', 'EURO'])('refuses the currency %j with a typed unknown_currency error', (code) => {
    expect(() => credit(tiered(), 100_000, code, 10_000, 2)).toThrow(UnknownCurrencyError);
    expect(() => currencyExponent(code)).toThrow(UnknownCurrencyError);
    try {
      currencyExponent(code);
    } catch (e) {
      expect((e as UnknownCurrencyError).code).toBe('unknown_currency');
    }
  });
});

describe('inputs', () => {
  it('takes the fee as a bigint, and refuses a credit beyond 2^53', () => {
    // 10 % of 90,071,992,547,409,930 = 9,007,199,254,740,993 > 2^53 → refused as an unsafe integer result.
    expect(() => credit(tiered(), 90_071_992_547_409_930n, 'EUR', 10_000, 2)).toThrow(InvalidSlaInputError);
    // 10 % of 1,000,000,000,000,000n = 100,000,000,000,000 (safe).
    expect(credit(tiered(), 1_000_000_000_000_000n, 'EUR', 10_000, 2).creditAmountMinor).toBe(100_000_000_000_000);
  });

  it('refuses a negative or fractional fee, and an attainment that does not match the minutes', () => {
    expect(() => credit(tiered(), -1, 'EUR', 10_000, 2)).toThrow(InvalidSlaInputError);
    expect(() => credit(tiered(), 10.5, 'EUR', 10_000, 2)).toThrow(InvalidSlaInputError);
    expect(() => computeCredit(tiered(), 100_000, 'EUR', attainment(10_000, 1), 10_000, 2)).toThrow(
      InvalidSlaInputError,
    );
    expect(() => computeCredit(tiered(), 100_000, 'EUR', attainment(10_000, 1), 10_000, 10_001)).toThrow(
      InvalidSlaInputError,
    );
  });
});
