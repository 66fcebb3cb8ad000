import { creditTermsSchema, type CreditTermsInput } from '../../src/domain/sla';

const tiered = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'tiered',
  steps: [
    { below_pct: '99.99', credit_pct: '10' },
    { below_pct: '99.0', credit_pct: '30' },
    { below_pct: '95.0', credit_pct: '100' },
  ],
  maintenance_notice_hours: 72,
  ...extra,
});
const proportional = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'proportional',
  multiplier: '10',
  maintenance_notice_hours: 48,
  ...extra,
});

describe('creditTermsSchema: a discriminated union of tiered and proportional terms', () => {
  it('parses tiered terms and fills the defaults', () => {
    expect(creditTermsSchema.parse(tiered())).toEqual({
      type: 'tiered',
      steps: [
        { below_pct: '99.99', credit_pct: '10' },
        { below_pct: '99.0', credit_pct: '30' },
        { below_pct: '95.0', credit_pct: '100' },
      ],
      cap_pct: '100',
      minimum_credit_minor: 0,
      rounding: 'half_up',
      count_degraded_as_down: false,
      maintenance_notice_hours: 72,
      no_data_counts_as: 'up',
      min_coverage_pct: '99',
    });
  });

  it('parses proportional terms with every field given', () => {
    const input: CreditTermsInput = {
      type: 'proportional',
      multiplier: '2.5',
      cap_pct: '50',
      minimum_credit_minor: 1_000,
      rounding: 'up',
      count_degraded_as_down: true,
      maintenance_notice_hours: 0,
      no_data_counts_as: 'excluded',
      min_coverage_pct: '95.5',
    };
    expect(creditTermsSchema.parse(input)).toEqual(input);
  });

  it('accepts a single step and the bounds 100 and 0.000001', () => {
    expect(creditTermsSchema.safeParse(tiered({ steps: [{ below_pct: '100', credit_pct: '100' }] })).success).toBe(
      true,
    );
    expect(
      creditTermsSchema.safeParse(tiered({ steps: [{ below_pct: '0.000001', credit_pct: '0.000001' }] })).success,
    ).toBe(true);
    expect(creditTermsSchema.safeParse(proportional({ multiplier: '1000' })).success).toBe(true);
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'below_pct not decreasing',
      tiered({
        steps: [
          { below_pct: '99.0', credit_pct: '10' },
          { below_pct: '99.99', credit_pct: '30' },
        ],
      }),
    ],
    [
      'equal below_pct',
      tiered({
        steps: [
          { below_pct: '99.0', credit_pct: '10' },
          { below_pct: '99.00', credit_pct: '30' },
        ],
      }),
    ],
    [
      'credit_pct not increasing',
      tiered({
        steps: [
          { below_pct: '99.99', credit_pct: '30' },
          { below_pct: '99.0', credit_pct: '10' },
        ],
      }),
    ],
    [
      'equal credit_pct',
      tiered({
        steps: [
          { below_pct: '99.99', credit_pct: '10' },
          { below_pct: '99.0', credit_pct: '10' },
        ],
      }),
    ],
    ['below_pct above 100', tiered({ steps: [{ below_pct: '100.5', credit_pct: '10' }] })],
    ['below_pct 0', tiered({ steps: [{ below_pct: '0', credit_pct: '10' }] })],
    ['credit_pct 0', tiered({ steps: [{ below_pct: '99', credit_pct: '0' }] })],
    ['credit_pct above 100', tiered({ steps: [{ below_pct: '99', credit_pct: '101' }] })],
    ['a negative credit_pct', tiered({ steps: [{ below_pct: '99', credit_pct: '-1' }] })],
    ['an exponent', tiered({ steps: [{ below_pct: '9.999e1', credit_pct: '10' }] })],
    ['a number instead of a string', tiered({ steps: [{ below_pct: 99.99, credit_pct: '10' }] })],
    ['7 decimal places', tiered({ steps: [{ below_pct: '99.9999999', credit_pct: '10' }] })],
    ['no steps', tiered({ steps: [] })],
    ['an unknown key in a step', tiered({ steps: [{ below_pct: '99', credit_pct: '10', note: 'x' }] })],
    ['cap_pct 0', tiered({ cap_pct: '0' })],
    ['cap_pct above 100', tiered({ cap_pct: '100.01' })],
    ['a negative minimum', tiered({ minimum_credit_minor: -1 })],
    ['a fractional minimum', tiered({ minimum_credit_minor: 1.5 })],
    ['an unknown rounding mode', tiered({ rounding: 'down' })],
    ['a negative notice', tiered({ maintenance_notice_hours: -1 })],
    ['a fractional notice', tiered({ maintenance_notice_hours: 1.5 })],
    ['no notice', tiered({ maintenance_notice_hours: undefined })],
    ['a non-boolean degraded rule', tiered({ count_degraded_as_down: 'yes' })],
    ['an unknown key', tiered({ grace: 1 })],
    ['an unknown type', { ...tiered(), type: 'stepped' }],
    ['multiplier 0', proportional({ multiplier: '0' })],
    ['multiplier above 1000', proportional({ multiplier: '1000.5' })],
    ['no multiplier', proportional({ multiplier: undefined })],
    ['steps on proportional terms', proportional({ steps: [{ below_pct: '99', credit_pct: '10' }] })],
  ])('refuses %s', (_why, input) => {
    expect(creditTermsSchema.safeParse(input).success).toBe(false);
  });

  it('points at the offending step', () => {
    const r = creditTermsSchema.safeParse(
      tiered({
        steps: [
          { below_pct: '99.9', credit_pct: '10' },
          { below_pct: '99.95', credit_pct: '20' },
        ],
      }),
    );
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toContain('steps.1.below_pct');
  });
});
