/**
 * A contract's credit terms ("Contracts and credit terms"): a zod discriminated union on
 * `type`, validated here once so the arithmetic can trust its input.
 *
 * - `tiered`: `steps` of `{ below_pct, credit_pct }`. A step applies when the attainment is
 *   strictly below `below_pct` ("less than 99.99%", as AWS words it); of the steps that apply the
 *   highest `credit_pct` wins. Steps are listed from the mildest to the most severe: `below_pct`
 *   strictly decreasing and `credit_pct` strictly increasing (e.g. <99.99 → 10, <99 → 30,
 *   <95 → 100), each in (0, 100].
 * - `proportional`: credit = fee × down minutes ÷ eligible minutes × `multiplier` (a decimal
 *   string in (0, 1000]).
 * - Common fields: `cap_pct` (in (0, 100], % of the monthly fee; default `"100"`, i.e. never more
 *   than the fee), `minimum_credit_minor` (integer ≥ 0 in the contract currency's minor units,
 *   default 0), `rounding` (`half_up` default, or `up` in the customer's favour),
 *   `count_degraded_as_down` (default false: only `unhealthy` is down), and
 *   `maintenance_notice_hours` (required integer 0..8784: scheduled maintenance announced at
 *   least that many hours before it starts is excluded from the eligible minutes).
 * - Evidence gaps: `no_data_counts_as` says what a minute with no measured status is
 *   (`up`, the default; `down`; or `excluded` from the eligible minutes), and `min_coverage_pct`
 *   (decimal string in [0, 100], default `"99"`) the share of measured minutes below which the
 *   statement carries a warning and needs `acknowledge_gaps` to be submitted or approved.
 * - Percentages and multipliers are decimal strings (decimal.ts: up to 6 decimal places), never
 *   numbers, so `"99.99"` is exactly 99.99. Unknown keys are refused (strict objects).
 */
import { z } from 'zod';
import { DECIMAL_PATTERN, MAX_DECIMAL_PLACES, compareDecimals, isDecimalString } from './decimal';

const MAX_STEPS = 20;
/** A leap year of notice. */
export const MAX_MAINTENANCE_NOTICE_HOURS = 8_784;
export const MAX_MULTIPLIER = '1000';
export const ROUNDING_MODES = ['half_up', 'up'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];
export const NO_DATA_TREATMENTS = ['up', 'down', 'excluded'] as const;
export type NoDataTreatment = (typeof NO_DATA_TREATMENTS)[number];
export const DEFAULT_MIN_COVERAGE_PCT = '99';

const decimalString = z
  .string({ error: 'Expected a decimal string such as "99.99"' })
  .regex(
    DECIMAL_PATTERN,
    `Expected a decimal string such as "99.99" (no sign or exponent, at most ${MAX_DECIMAL_PLACES} decimal places)`,
  );

/** A decimal string in (0, max]. */
const positiveDecimalUpTo = (max: string, what: string) =>
  decimalString.refine(
    (v) => !isDecimalString(v) || (compareDecimals(v, '0') > 0 && compareDecimals(v, max) <= 0),
    `${what} must be greater than 0 and at most ${max}`,
  );

const percent = (what: string) => positiveDecimalUpTo('100', what);

export const tierStepSchema = z.strictObject({
  below_pct: percent('below_pct'),
  credit_pct: percent('credit_pct'),
});

const commonFields = {
  cap_pct: percent('cap_pct').default('100'),
  minimum_credit_minor: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  rounding: z.enum(ROUNDING_MODES).default('half_up'),
  count_degraded_as_down: z.boolean().default(false),
  maintenance_notice_hours: z.int().min(0).max(MAX_MAINTENANCE_NOTICE_HOURS),
  no_data_counts_as: z.enum(NO_DATA_TREATMENTS).default('up'),
  // "0" turns the check off.
  min_coverage_pct: decimalString
    .refine((v) => !isDecimalString(v) || compareDecimals(v, '100') <= 0, 'min_coverage_pct must be at most 100')
    .default(DEFAULT_MIN_COVERAGE_PCT),
};

export const tieredTermsSchema = z.strictObject({
  type: z.literal('tiered'),
  steps: z
    .array(tierStepSchema)
    .min(1)
    .max(MAX_STEPS)
    .superRefine((steps, ctx) => {
      for (let i = 1; i < steps.length; i++) {
        const prev = steps[i - 1];
        const step = steps[i];
        if (!prev || !step || !isDecimalString(prev.below_pct) || !isDecimalString(step.below_pct)) continue;
        if (compareDecimals(step.below_pct, prev.below_pct) >= 0) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'below_pct'],
            message: 'Steps must be ordered with below_pct strictly decreasing (mildest breach first)',
          });
        }
        if (
          isDecimalString(prev.credit_pct) &&
          isDecimalString(step.credit_pct) &&
          compareDecimals(step.credit_pct, prev.credit_pct) <= 0
        ) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'credit_pct'],
            message: 'A more severe step must give a strictly higher credit_pct',
          });
        }
      }
    }),
  ...commonFields,
});

export const proportionalTermsSchema = z.strictObject({
  type: z.literal('proportional'),
  multiplier: positiveDecimalUpTo(MAX_MULTIPLIER, 'multiplier'),
  ...commonFields,
});

export const creditTermsSchema = z.discriminatedUnion('type', [tieredTermsSchema, proportionalTermsSchema]);

/** Terms as stored and used (defaults applied). */
export type CreditTerms = z.output<typeof creditTermsSchema>;
/** Terms as stored on a contract: rows written before evidence gaps existed lack the evidence-gap fields (read them through `withTermDefaults`). */
export type StoredCreditTerms = CreditTerms extends infer T
  ? T extends CreditTerms
    ? Omit<T, 'no_data_counts_as' | 'min_coverage_pct'> & Partial<Pick<T, 'no_data_counts_as' | 'min_coverage_pct'>>
    : never
  : never;

/** Stored terms with every default applied. */
export function withTermDefaults(terms: StoredCreditTerms): CreditTerms {
  return creditTermsSchema.parse(terms);
}
/** Terms as a client may send them (defaulted fields optional). */
export type CreditTermsInput = z.input<typeof creditTermsSchema>;
export type TieredTerms = z.output<typeof tieredTermsSchema>;
export type ProportionalTerms = z.output<typeof proportionalTermsSchema>;
export type TierStep = z.output<typeof tierStepSchema>;
/** The part of the terms that decides which minutes are down or excluded (downtime.ts). */
export type DowntimeRule = Pick<CreditTerms, 'count_degraded_as_down' | 'maintenance_notice_hours'> & {
  no_data_counts_as?: NoDataTreatment;
};
