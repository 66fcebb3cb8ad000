import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { StoredCreditTerms } from '../../domain/sla/credit-terms';
import { CustomerSchema } from './customer';
import { OrganizationSchema } from './organization';

/** What a customer was promised: covered services, target, money and credit terms. */
export const ContractSchema = defineEntity({
  name: 'Contract',
  tableName: 'contracts',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    customer: p.manyToOne(CustomerSchema).mapToPk(),
    name: p.string().length(200),
    /** Stable handle for config as code; unique among the organization's live contracts. */
    configKey: p.string().length(100).nullable(),
    serviceIds: p.array().columnType('uuid[]'),
    /** SLOs covered besides the services: each stands for its metric, or its service's metrics. */
    sloIds: p.array().columnType('uuid[]'),
    slaTargetPct: p.string().length(20),
    timezone: p.string().length(64),
    currency: p.string().length(3),
    monthlyFeeMinor: p.bigint('number'),
    /** `YYYY-MM-DD` in the contract's timezone; the statement window starts at that local midnight. */
    effectiveFrom: p.string().length(10),
    /** Last day in effect (inclusive), or null while open-ended. */
    effectiveTo: p.string().length(10).nullable(),
    creditTerms: p.json<StoredCreditTerms>(),
    /** Where delivered statements go; null → the customer's contact email. */
    billingEmail: p.string().length(320).nullable(),
    /** Reviewers reminded after 3 days in review. */
    financeContacts: p.array().columnType('text[]'),
    /** Told after 7 days in review. */
    escalationContacts: p.array().columnType('text[]'),
    /** Hours after the period's end before its statement is drafted (late samples). */
    graceHours: p.integer(),
    /** When its Schedule last matched the row; behind `updatedAt` (or null) the housekeeping sweep syncs it. */
    scheduleSyncedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    { properties: ['customer'] },
    {
      name: 'contracts_live_config_key_unique',
      expression:
        'create unique index contracts_live_config_key_unique on contracts (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
  ],
});
export type Contract = InferEntity<typeof ContractSchema>;

export interface StatementCoverage {
  measured_minutes: number;
  unmeasured_minutes: number;
  coverage_pct: string;
  min_coverage_pct: string;
  /** What unmeasured minutes counted as; absent on rows written before it was stored (the document has it). */
  no_data_counts_as?: 'up' | 'down' | 'excluded';
  sufficient: boolean;
  warning: string | null;
}

/**
 * One revision of one contract's statement for one period. `document` holds the RFC 8785 bytes
 * the signature covers, byte for byte; the other columns repeat what lists and filters need.
 */
export const SlaStatementSchema = defineEntity({
  name: 'SlaStatement',
  tableName: 'sla_statements',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    contract: p.manyToOne(ContractSchema).mapToPk(),
    customer: p.manyToOne(CustomerSchema).mapToPk(),
    customerName: p.string().length(200),
    periodLabel: p.string().length(7),
    periodStart: p.datetime(3),
    periodEnd: p.datetime(3),
    timezone: p.string().length(64),
    revision: p.integer(),
    state: p.string().length(16),
    document: p.blob(),
    sha256: p.string().length(64),
    signature: p.text(),
    signingKeyId: p.string().length(64),
    attainmentMin: p.string().length(20),
    creditPct: p.string().length(20),
    creditAmountMinor: p.bigint('number'),
    currency: p.string().length(3),
    generatedAt: p.datetime(3),
    submittedAt: p.datetime(3).nullable(),
    submittedBy: p.string().length(64).nullable(),
    approvedAt: p.datetime(3).nullable(),
    approvedBy: p.string().length(64).nullable(),
    sentAt: p.datetime(3).nullable(),
    sentTo: p.string().length(320).nullable(),
    voidedAt: p.datetime(3).nullable(),
    voidReason: p.text().nullable(),
    supersededAt: p.datetime(3).nullable(),
    /** The revision it supersedes. */
    previous: p.uuid().nullable(),
    remindedAt: p.datetime(3).nullable(),
    escalatedAt: p.datetime(3).nullable(),
    /** The last note with request_changes. */
    reviewNote: p.text().nullable(),
    /** The document's coverage and warning; null for statements drafted before it. */
    coverage: p.json<StatementCoverage>().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  uniques: [{ properties: ['contract', 'periodLabel', 'revision'] }],
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    { properties: ['organization', 'periodLabel', 'createdAt'] },
  ],
});
export type SlaStatement = InferEntity<typeof SlaStatementSchema>;

/** Every transition of a statement: who, when, from, to and the document's hash. */
export const SlaAuditEntrySchema = defineEntity({
  name: 'SlaAuditEntry',
  tableName: 'sla_audit_entries',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    statement: p.manyToOne(SlaStatementSchema).mapToPk(),
    action: p.string().length(32),
    fromState: p.string().length(16).nullable(),
    toState: p.string().length(16),
    revision: p.integer(),
    sha256: p.string().length(64),
    /** The API key id, or `system` for the workflow's own steps. */
    actor: p.string().length(64),
    actorName: p.string().length(200).nullable(),
    note: p.text().nullable(),
    /** The workflow update that made it: a retried activity finds its own row and changes nothing. */
    operationId: p.string().length(200).nullable(),
    at: p.datetime(3),
  },
  indexes: [{ properties: ['statement', 'at'] }],
  uniques: [{ properties: ['organization', 'operationId'] }],
});
export type SlaAuditEntry = InferEntity<typeof SlaAuditEntrySchema>;

/** A window finance excluded from a contract's period, with its justification. */
export const SlaExclusionSchema = defineEntity({
  name: 'SlaExclusion',
  tableName: 'sla_exclusions',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    contract: p.manyToOne(ContractSchema).mapToPk(),
    periodLabel: p.string().length(7),
    startsAt: p.datetime(3),
    endsAt: p.datetime(3),
    justification: p.text(),
    addedBy: p.string().length(64),
    createdAt: p.datetime(3),
  },
  indexes: [{ properties: ['contract', 'periodLabel'] }],
});
export type SlaExclusion = InferEntity<typeof SlaExclusionSchema>;

/** Ed25519 statement-signing keys: the newest unretired one signs; every one stays in the JWKS. */
export const StatementSigningKeySchema = defineEntity({
  name: 'StatementSigningKey',
  tableName: 'statement_signing_keys',
  properties: {
    kid: p.string().length(64).primary(),
    publicJwk: p.json<Record<string, string>>(),
    sealedPrivateKey: p.text(),
    createdAt: p.datetime(3),
    retiredAt: p.datetime(3).nullable(),
  },
});
export type StatementSigningKeyRow = InferEntity<typeof StatementSigningKeySchema>;
