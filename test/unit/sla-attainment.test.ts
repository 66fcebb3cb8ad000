import {
  InvalidDecimalError,
  InvalidSlaInputError,
  attainment,
  canonicalDecimal,
  compareDecimals,
  compareWithPercent,
  formatPercent,
  isBelowPercent,
  parseDecimal,
} from '../../src/domain/sla';

describe('attainment: (eligible − down) / eligible as an exact fraction', () => {
  it('keeps the integers exactly', () => {
    // 44,640 eligible, 5 down → 44,635 / 44,640.
    expect(attainment(44_640, 5)).toEqual({ numerator: 44_635n, denominator: 44_640n });
    expect(attainment(44_640n, 0n)).toEqual({ numerator: 44_640n, denominator: 44_640n });
  });

  it('is 100% when nothing is eligible', () => {
    expect(attainment(0, 0)).toEqual({ numerator: 1n, denominator: 1n });
    expect(formatPercent(attainment(0, 0), 2)).toBe('100.00');
    expect(isBelowPercent(attainment(0, 0), '100')).toBe(false);
  });

  it.each([
    [10, 11],
    [-1, 0],
    [10, -1],
    [10.5, 1],
    [Number.NaN, 0],
  ])('refuses eligible %p, down %p', (eligible, down) => {
    expect(() => attainment(eligible, down)).toThrow(InvalidSlaInputError);
  });
});

describe('comparing with a decimal threshold by cross-multiplying, never through a float', () => {
  it('finds 99.9949% above 99.99% but below 99.995%, where a 3-place display would say "99.995"', () => {
    // 999,949 / 1,000,000 = 99.9949 %.
    // vs 99.99:  999,949 × 100 × 100 = 9,999,490,000 > 9,999 × 1,000,000 = 9,999,000,000 → above, not below.
    // vs 99.995: 999,949 × 100 × 1,000 = 99,994,900,000 < 99,995 × 1,000,000 = 99,995,000,000 → below,
    //            although 99.9949 rounded half-up to 3 places reads 99.995, which is not below.
    const a = attainment(1_000_000, 51);
    expect(compareWithPercent(a, '99.99')).toBe(1);
    expect(isBelowPercent(a, '99.99')).toBe(false);
    expect(isBelowPercent(a, '99.995')).toBe(true);
    expect(formatPercent(a, 4)).toBe('99.9949');
  });

  it('finds 99.98995% below 99.99% although a half-up 2-place display would read 99.99', () => {
    // 9,998,995 / 10,000,000 = 99.98995 %; 9,998,995 × 10,000 = 99,989,950,000 < 9,999 × 10,000,000 = 99,990,000,000.
    const a = attainment(10_000_000, 1_005);
    expect(isBelowPercent(a, '99.99')).toBe(true);
    // Floor display at 2 places: 99.98 (a statement never shows more than was measured).
    expect(formatPercent(a, 2)).toBe('99.98');
    expect(formatPercent(a, 5)).toBe('99.98995');
  });

  it('finds exactly 99.99% not below 99.99% (strict "<")', () => {
    // 9,999 / 10,000 = 99.99 % exactly: 9,999 × 100 × 100 = 99,990,000 = 9,999 × 10,000.
    const a = attainment(10_000, 1);
    expect(compareWithPercent(a, '99.99')).toBe(0);
    expect(isBelowPercent(a, '99.99')).toBe(false);
    expect(isBelowPercent(a, '99.990')).toBe(false);
    // One more down minute: 9,998 / 10,000 = 99.98 % → below.
    expect(isBelowPercent(attainment(10_000, 2), '99.99')).toBe(true);
  });

  it('works on a month of minutes: 5 down of 44,640 is below 99.99, 4 is not', () => {
    // 44,635 / 44,640 = 99.98879…%: 44,635 × 10,000 = 446,350,000 < 9,999 × 44,640 = 446,355,360 → below.
    expect(isBelowPercent(attainment(44_640, 5), '99.99')).toBe(true);
    // 44,636 / 44,640 = 99.99103…%: 446,360,000 > 446,355,360 → not below.
    expect(isBelowPercent(attainment(44_640, 4), '99.99')).toBe(false);
    expect(formatPercent(attainment(44_640, 5), 4)).toBe('99.9887');
    expect(formatPercent(attainment(44_640, 4), 4)).toBe('99.9910');
  });
});

describe('formatPercent: display rounded toward zero', () => {
  it.each([
    // 2/3 = 66.666…% → floor at 2 places 66.66 (half-up would give 66.67).
    [2n, 3n, 2, '66.66'],
    [2n, 3n, 0, '66'],
    [1n, 1n, 2, '100.00'],
    [1n, 1n, 0, '100'],
    [0n, 5n, 2, '0.00'],
    // 1/3000 = 0.0333…% → "0.0333" at 4 places.
    [1n, 3000n, 4, '0.0333'],
    // 999,949 / 1,000,000 at 6 places: 99.994900.
    [999_949n, 1_000_000n, 6, '99.994900'],
  ])('%p/%p at %p places → %s', (numerator, denominator, decimals, text) => {
    expect(formatPercent({ numerator, denominator }, decimals)).toBe(text);
  });

  it('refuses bad decimals and bad fractions', () => {
    expect(() => formatPercent({ numerator: 1n, denominator: 1n }, -1)).toThrow(InvalidSlaInputError);
    expect(() => formatPercent({ numerator: 1n, denominator: 1n }, 1.5)).toThrow(InvalidSlaInputError);
    expect(() => formatPercent({ numerator: 1n, denominator: 0n }, 2)).toThrow(InvalidSlaInputError);
  });
});

describe('decimal strings', () => {
  it('parses exactly', () => {
    expect(parseDecimal('99.99')).toEqual({ units: 9_999n, scale: 2 });
    expect(parseDecimal('100')).toEqual({ units: 100n, scale: 0 });
    expect(parseDecimal('0.000001')).toEqual({ units: 1n, scale: 6 });
  });

  it.each(['', '.5', '5.', '-1', '+1', '1e2', '00.5', '01', '0.1234567', ' 1', '1,5', 'NaN', '1234567'])(
    'refuses %j',
    (text) => {
      expect(() => parseDecimal(text)).toThrow(InvalidDecimalError);
      expect(() => isBelowPercent({ numerator: 1n, denominator: 1n }, text)).toThrow(InvalidDecimalError);
    },
  );

  it('compares and canonicalizes', () => {
    expect(compareDecimals('99.99', '99.990')).toBe(0);
    expect(compareDecimals('99.9', '99.89')).toBe(1);
    expect(compareDecimals('5', '10')).toBe(-1);
    expect(canonicalDecimal('10.50')).toBe('10.5');
    expect(canonicalDecimal('100.000')).toBe('100');
    expect(canonicalDecimal('0.0')).toBe('0');
    expect(canonicalDecimal('100')).toBe('100');
  });
});
