import { z } from 'zod';
import type { Contract, SlaStatement } from '../../db/entities';
import { toIso, toIsoOrNull } from '../../domain/time';
import { DECIMAL_PATTERN, compareDecimals, isDecimalString } from '../../domain/sla/decimal';
import { NO_DATA_TREATMENTS, creditTermsSchema, withTermDefaults } from '../../domain/sla/credit-terms';
import { isKnownCurrency } from '../../domain/sla/currency';
import { PERIOD_LABEL_PATTERN, assertIanaTimeZone, isValidDate } from '../../domain/sla/period';
import { STATEMENT_STATES } from '../../domain/sla/transitions';
import { auditView, statementView } from '../../usecases/sla/view';
import { DateTime, ListQuery, Uuid } from './common';

const Name = z.string().trim().min(1).max(200);
const Email = z.email().max(320);
const TargetPct = z
  .string()
  .regex(DECIMAL_PATTERN, 'Expected a decimal string such as "99.9"')
  .refine(
    (v) => !isDecimalString(v) || (compareDecimals(v, '0') > 0 && compareDecimals(v, '100') <= 0),
    'Must be greater than 0 and at most 100',
  )
  .describe('The SLA target in percent, as a decimal string ("99.9")');
const TimeZone = z
  .string()
  .max(64)
  .refine((v) => {
    try {
      assertIanaTimeZone(v);
      return true;
    } catch {
      return false;
    }
  }, 'Expected an IANA time zone such as "Europe/Berlin"')
  .describe('IANA time zone the statements are computed in (periods are calendar months there)');
const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 code such as "EUR"')
  .refine(isKnownCurrency, 'Unknown ISO 4217 currency')
  .describe('ISO 4217 currency');
const DateOnly = z
  .string()
  .refine(isValidDate, 'Expected a calendar date YYYY-MM-DD')
  .describe("YYYY-MM-DD in the contract's timezone");
const Period = z.string().regex(PERIOD_LABEL_PATTERN, 'Expected YYYY-MM').describe('YYYY-MM');
const GraceHours = z
  .int()
  .min(0)
  .max(648)
  .describe("Hours after the period's end before its statement is drafted, for late samples (0..648, default 48)");

const contractFields = {
  customer_id: Uuid,
  name: Name,
  service_ids: z
    .array(Uuid)
    .max(50)
    .describe(
      'The services the SLA covers: a minute is down when any covered service or SLO is. May be left out when slo_ids names at least one SLO',
    ),
  slo_ids: z
    .array(Uuid)
    .max(50)
    .describe(
      'SLOs the SLA covers: each stands for its metric, or every metric of its service. service_ids and slo_ids together name at least one item',
    ),
  sla_target_pct: TargetPct,
  timezone: TimeZone,
  currency: Currency,
  monthly_fee_minor: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .describe('Monthly fee in minor units of the currency (cents; yen; fils)'),
  effective_from: DateOnly,
  effective_to: DateOnly.nullable().describe('Last day in effect (inclusive); null while open-ended'),
  credit_terms: creditTermsSchema,
  billing_email: Email.nullable().describe("Where delivered statements go; null uses the customer's contact_email"),
  finance_contacts: z.array(Email).max(20).describe('Reminded when a statement waits in review for 3 days'),
  escalation_contacts: z.array(Email).max(20).describe('Told when a statement waits in review for 7 days'),
  grace_hours: GraceHours,
};

export const ContractCreateBody = z
  .strictObject({
    ...contractFields,
    service_ids: contractFields.service_ids.optional(),
    effective_to: contractFields.effective_to.optional(),
    slo_ids: contractFields.slo_ids.optional(),
    billing_email: contractFields.billing_email.optional(),
    finance_contacts: contractFields.finance_contacts.optional(),
    escalation_contacts: contractFields.escalation_contacts.optional(),
    grace_hours: GraceHours.optional(),
  })
  .meta({ id: 'ContractCreate' });

export const ContractPatchBody = z
  .strictObject(
    Object.fromEntries(Object.entries(contractFields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof contractFields]: z.ZodOptional<(typeof contractFields)[K]>;
    },
  )
  .meta({ id: 'ContractPatch' });

export const ContractSchema = z
  .object({
    id: Uuid,
    config_key: z
      .string()
      .nullable()
      .describe('Its handle in configuration documents (config as code); null when created otherwise'),
    ...contractFields,
    credit_terms: z
      .looseObject({ type: z.enum(['tiered', 'proportional']) })
      .describe('The credit terms with their defaults applied'),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'Contract' });

export function presentContract(c: Contract): z.output<typeof ContractSchema> {
  return {
    id: c.id,
    config_key: c.configKey ?? null,
    customer_id: c.customer,
    name: c.name,
    service_ids: c.serviceIds,
    slo_ids: c.sloIds,
    sla_target_pct: c.slaTargetPct,
    timezone: c.timezone,
    currency: c.currency,
    monthly_fee_minor: c.monthlyFeeMinor,
    effective_from: c.effectiveFrom,
    effective_to: c.effectiveTo ?? null,
    credit_terms: withTermDefaults(c.creditTerms),
    billing_email: c.billingEmail ?? null,
    finance_contacts: c.financeContacts,
    escalation_contacts: c.escalationContacts,
    grace_hours: c.graceHours,
    created_at: toIso(c.createdAt),
    updated_at: toIso(c.updatedAt),
    deleted_at: toIsoOrNull(c.deletedAt),
  };
}

export const ContractListQuery = ListQuery.extend({
  customer_id: Uuid.optional().describe("Only this customer's contracts"),
});

export const StatementRequestBody = z.strictObject({ period: Period }).meta({ id: 'SlaStatementRequest' });

const StateEnum = z.enum(STATEMENT_STATES);

export const SlaStatementSchema = z
  .object({
    id: Uuid,
    customer_id: Uuid,
    customer_name: z.string(),
    contract_id: Uuid,
    period_label: Period.describe("YYYY-MM in the statement's own timezone"),
    period_start: DateTime,
    period_end: DateTime,
    timezone: z.string(),
    revision: z.int().min(1),
    state: StateEnum,
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('Lowercase hex SHA-256 of statement.json (its RFC 8785 canonical bytes)'),
    attainment_min: z
      .string()
      .describe('Attainment over the eligible minutes in percent, rounded toward zero at 4 places ("99.9949")'),
    credit_pct: z.string().describe('Credit in percent of the monthly fee, after the cap ("10")'),
    credit_amount_minor: z.int().min(0).describe('The credit in minor currency units, rounded once'),
    currency: z.string(),
    credit_state: z
      .enum(['none', 'pending', 'approved', 'issued', 'superseded', 'void'])
      .describe(
        'none: nothing owed; pending: drafted or in review; approved; issued: delivered to the customer; superseded; void',
      ),
    signature: z.string().describe('Detached JWS (RFC 7797, unencoded payload, EdDSA) over statement.json'),
    signing_key_id: z.string().describe('The kid (RFC 7638 thumbprint) of the key in /.well-known/jwks.json'),
    generated_at: DateTime,
    submitted_at: DateTime.nullable(),
    approved_at: DateTime.nullable(),
    sent_at: DateTime.nullable(),
    voided_at: DateTime.nullable(),
    void_reason: z.string().nullable(),
    superseded_at: DateTime.nullable(),
    supersedes_id: Uuid.nullable().describe('The revision this one corrects'),
    review_note: z.string().nullable().describe('The note of the last request for changes'),
    updated_at: DateTime,
    coverage: z
      .object({
        measured_minutes: z
          .int()
          .min(0)
          .describe('Minutes of the window in which every covered item had a measured status'),
        unmeasured_minutes: z.int().min(0).describe('Minutes with none: a measurement gap, or no metric yet'),
        coverage_pct: z.string().describe('measured ÷ total minutes in percent, rounded toward zero at 4 places'),
        min_coverage_pct: z.string().describe("The contract's min_coverage_pct when the statement was computed"),
        no_data_counts_as: z
          .enum(NO_DATA_TREATMENTS)
          .describe(
            "What the unmeasured minutes counted as (the contract's no_data_counts_as when the statement was computed)",
          ),
        sufficient: z
          .boolean()
          .describe('false: submit and approve need "acknowledge_gaps": true (409 insufficient_evidence otherwise)'),
      })
      .nullable()
      .describe('As statement.json states it; null for statements drafted before coverage was recorded'),
    warnings: z.array(z.string()).describe('Warnings of the signed document (insufficient evidence)'),
  })
  .meta({ id: 'SlaStatement' });

export const presentStatement = (s: SlaStatement): z.output<typeof SlaStatementSchema> => statementView(s);

export const SlaAuditEntrySchema = z
  .object({
    id: Uuid,
    statement_id: Uuid,
    action: z
      .string()
      .describe('generate, submit, request_changes, add_exclusion, approve, deliver, correct, supersede or void'),
    from_state: StateEnum.nullable(),
    to_state: StateEnum,
    revision: z.int(),
    sha256: z.string(),
    actor: z.string().describe('The API key id, or "system"'),
    actor_name: z.string().nullable(),
    note: z.string().nullable(),
    at: DateTime,
  })
  .meta({ id: 'SlaAuditEntry' });

export const presentAudit = auditView;

export const StatementListQuery = ListQuery.extend({
  period: Period.optional().describe("YYYY-MM, matched against each statement's own period label (its own timezone)"),
  state: StateEnum.optional().describe('Only statements in this state'),
  customer_id: Uuid.optional(),
  contract_id: Uuid.optional(),
});

const AcknowledgeGaps = z
  .boolean()
  .describe(
    "Submit or approve although the statement's coverage is below the contract's min_coverage_pct (409 insufficient_evidence otherwise); recorded in the audit trail",
  );
export const ApproveBody = z
  .strictObject({
    revision: z.int().min(1).describe('The revision you reviewed'),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .describe('The sha256 you reviewed'),
    acknowledge_gaps: AcknowledgeGaps.optional(),
  })
  .meta({ id: 'SlaApprove' });
export const SubmitBody = z.strictObject({ acknowledge_gaps: AcknowledgeGaps.optional() }).meta({ id: 'SlaSubmit' });
export const NoteBody = z.strictObject({ note: z.string().trim().min(1).max(2000) }).meta({ id: 'SlaNote' });
export const OptionalNoteBody = z
  .strictObject({ note: z.string().trim().min(1).max(2000).optional() })
  .meta({ id: 'SlaOptionalNote' });
export const VoidBody = z.strictObject({ reason: z.string().trim().min(1).max(2000) }).meta({ id: 'SlaVoid' });
export const ExclusionBody = z
  .strictObject({
    starts_at: DateTime,
    ends_at: DateTime,
    justification: z
      .string()
      .trim()
      .min(3)
      .max(2000)
      .describe('Why these minutes do not count (kept in the statement and its audit trail)'),
  })
  .meta({ id: 'SlaExclusion' });

export const JwksSchema = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal('OKP'),
        crv: z.literal('Ed25519'),
        x: z.string(),
        kid: z.string(),
        alg: z.literal('EdDSA'),
        use: z.literal('sig'),
      }),
    ),
  })
  .meta({ id: 'Jwks' });

export const StatementPending = z
  .object({ workflow_id: z.string(), period: Period, status: z.literal('drafting') })
  .meta({ id: 'SlaStatementPending' });
