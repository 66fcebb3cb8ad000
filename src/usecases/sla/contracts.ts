import { randomUUID } from 'node:crypto';
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Contract, ContractSchema, SloSchema, SlaStatementSchema } from '../../db/entities';
import { isUuid } from '../../domain/ids';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { assertPlanFeature } from '../../domain/quota';
import type { StoredCreditTerms } from '../../domain/sla/credit-terms';
import type { OrgContext } from '../shared/context';
import { assertCustomersExist, assertServicesExist } from '../shared/org-refs';
import { findLive, listLive } from '../shared/org-resources';
import type { SlaWorkflows } from './ports';

export interface ContractInput {
  customer_id: string;
  name: string;
  /** May be left out when slo_ids names an SLO: one service or SLO is enough. */
  service_ids?: string[];
  slo_ids?: string[];
  sla_target_pct: string;
  timezone: string;
  currency: string;
  monthly_fee_minor: number;
  effective_from: string;
  effective_to?: string | null;
  credit_terms: StoredCreditTerms;
  billing_email?: string | null;
  finance_contacts?: string[];
  escalation_contacts?: string[];
  grace_hours?: number;
}

export type ContractPatch = Partial<ContractInput>;

export const DEFAULT_GRACE_HOURS = 48;

/** Every SLA route needs the plan's SLA Ledger (403 feature_locked otherwise). */
export function assertSlaLedger(ctx: OrgContext): void {
  assertPlanFeature(ctx.org.plan, 'sla_ledger', 'the SLA Ledger (contracts and SLA statements)', ctx.pricingUrl);
}

function assertEffectiveRange(from: string, to: string | null): void {
  if (to !== null && to < from) {
    throw new ProblemError('validation_failed', 'effective_to is before effective_from.', {
      errors: [{ path: 'effective_to', message: 'Must be on or after effective_from' }],
    });
  }
}

/**
 * Once a statement exists, the fields that define what a period is and who it belongs to stay:
 * a correction recomputes the same period label, so another timezone, currency or customer would
 * change what was already issued. Fees, terms and coverage may change (future statements and
 * corrections use them).
 */
async function assertStatementFieldsKept(ctx: OrgContext, contract: Contract, patch: ContractPatch): Promise<void> {
  const changed = (
    [
      ['customer_id', patch.customer_id !== undefined && patch.customer_id !== contract.customer],
      ['timezone', patch.timezone !== undefined && patch.timezone !== contract.timezone],
      ['currency', patch.currency !== undefined && patch.currency !== contract.currency],
    ] as const
  ).filter(([, c]) => c);
  if (!changed.length) return;
  const statements = await ctx.em.count(SlaStatementSchema, { contract: contract.id });
  if (!statements) return;
  throw new ProblemError(
    'in_use',
    `The contract has ${statements} SLA statement${statements > 1 ? 's' : ''}; its ${changed.map(([f]) => f).join(', ')} cannot change any more. Close it with effective_to and create a new contract.`,
    {
      referenced_by: { slos: [], pages: [], subscribers: 0, sla_statements: statements },
      errors: changed.map(([f]) => ({ path: f, message: 'Fixed once statements exist' })),
    },
  );
}

/** At least one covered item, and every SLO a live one of the organization. */
async function assertCovered(ctx: OrgContext, serviceIds: string[], sloIds: string[]): Promise<void> {
  if (!serviceIds.length && !sloIds.length) {
    throw new ProblemError('validation_failed', 'A contract covers at least one service or SLO.', {
      errors: [{ path: 'service_ids', message: 'Name at least one service (or an SLO in slo_ids)' }],
    });
  }
  if (!sloIds.length) return;
  const found = await ctx.em.find(
    SloSchema,
    { id: { $in: sloIds.filter(isUuid) }, organization: ctx.org.id, deletedAt: null },
    { fields: ['id'] as never },
  );
  const known = new Set(found.map((s) => s.id));
  const unknown = sloIds.map((id, i) => [id, i] as const).filter(([id]) => !known.has(id));
  if (unknown.length) {
    throw new ProblemError('validation_failed', `No such SLO: ${unknown.map(([id]) => id).join(', ')}.`, {
      errors: unknown.map(([, i]) => ({ path: `slo_ids.${i}`, message: 'No such SLO' })),
    });
  }
}

async function assertCustomer(ctx: OrgContext, id: string): Promise<void> {
  await assertCustomersExist(ctx, [id], 'customer_id');
}

export async function createContract(
  ctx: OrgContext,
  input: ContractInput,
  workflows: SlaWorkflows,
): Promise<Contract> {
  assertSlaLedger(ctx);
  assertEffectiveRange(input.effective_from, input.effective_to ?? null);
  await assertCustomer(ctx, input.customer_id);
  const serviceIds = input.service_ids ?? [];
  await assertServicesExist(ctx, serviceIds, 'service_ids');
  await assertCovered(ctx, serviceIds, input.slo_ids ?? []);
  const contract = ctx.em.create(ContractSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    customer: input.customer_id,
    name: input.name,
    serviceIds: [...new Set(serviceIds)],
    sloIds: [...new Set(input.slo_ids ?? [])],
    slaTargetPct: input.sla_target_pct,
    timezone: input.timezone,
    currency: input.currency,
    monthlyFeeMinor: input.monthly_fee_minor,
    effectiveFrom: input.effective_from,
    effectiveTo: input.effective_to ?? null,
    creditTerms: input.credit_terms,
    billingEmail: input.billing_email ?? null,
    financeContacts: input.finance_contacts ?? [],
    escalationContacts: input.escalation_contacts ?? [],
    graceHours: input.grace_hours ?? DEFAULT_GRACE_HOURS,
    scheduleSyncedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    deletedAt: null,
  });
  await ctx.em.flush();
  await syncSchedule(ctx, contract, workflows);
  return contract;
}

export async function getContract(ctx: OrgContext, id: string): Promise<Contract> {
  assertSlaLedger(ctx);
  return findLive(ctx, ContractSchema, id, 'Contract');
}

export async function listContracts(ctx: OrgContext, query: { limit: number; cursor?: string; customer_id?: string }) {
  assertSlaLedger(ctx);
  return listLive(ctx, ContractSchema, query, query.customer_id ? { customer: query.customer_id } : {});
}

export async function updateContract(
  ctx: OrgContext,
  id: string,
  patch: ContractPatch,
  workflows: SlaWorkflows,
): Promise<Contract> {
  const contract = await getContract(ctx, id);
  await assertStatementFieldsKept(ctx, contract, patch);
  if (patch.customer_id !== undefined && patch.customer_id !== contract.customer)
    await assertCustomer(ctx, patch.customer_id);
  if (patch.service_ids !== undefined) await assertServicesExist(ctx, patch.service_ids, 'service_ids');
  if (patch.service_ids !== undefined || patch.slo_ids !== undefined)
    await assertCovered(ctx, patch.service_ids ?? contract.serviceIds, patch.slo_ids ?? contract.sloIds);
  const from = patch.effective_from ?? contract.effectiveFrom;
  const to = patch.effective_to !== undefined ? patch.effective_to : (contract.effectiveTo ?? null);
  assertEffectiveRange(from, to);
  if (patch.customer_id !== undefined) contract.customer = patch.customer_id;
  if (patch.name !== undefined) contract.name = patch.name;
  if (patch.service_ids !== undefined) contract.serviceIds = [...new Set(patch.service_ids)];
  if (patch.slo_ids !== undefined) contract.sloIds = [...new Set(patch.slo_ids)];
  if (patch.sla_target_pct !== undefined) contract.slaTargetPct = patch.sla_target_pct;
  if (patch.timezone !== undefined) contract.timezone = patch.timezone;
  if (patch.currency !== undefined) contract.currency = patch.currency;
  if (patch.monthly_fee_minor !== undefined) contract.monthlyFeeMinor = patch.monthly_fee_minor;
  contract.effectiveFrom = from;
  contract.effectiveTo = to;
  if (patch.credit_terms !== undefined) contract.creditTerms = patch.credit_terms;
  if (patch.billing_email !== undefined) contract.billingEmail = patch.billing_email;
  if (patch.finance_contacts !== undefined) contract.financeContacts = patch.finance_contacts;
  if (patch.escalation_contacts !== undefined) contract.escalationContacts = patch.escalation_contacts;
  if (patch.grace_hours !== undefined) contract.graceHours = patch.grace_hours;
  contract.updatedAt = ctx.now;
  await ctx.em.flush();
  await syncSchedule(ctx, contract, workflows);
  return contract;
}

/** Soft delete; refused (409 in_use) once a statement was issued under the contract. */
export async function deleteContract(ctx: OrgContext, id: string, workflows: SlaWorkflows): Promise<Contract> {
  assertSlaLedger(ctx);
  // A malformed id is no contract (the query would fail on the uuid column).
  const contract = isUuid(id) ? await ctx.em.findOne(ContractSchema, { id, organization: ctx.org.id }) : null;
  if (!contract) throw notFound('Contract');
  if (contract.deletedAt) return contract;
  const statements = await ctx.em.count(SlaStatementSchema, { contract: contract.id });
  if (statements > 0) {
    throw new ProblemError(
      'in_use',
      `The contract has ${statements} SLA statement${statements > 1 ? 's' : ''}; statements stay with their contract for the audit trail. Set effective_to to end it instead.`,
      {
        referenced_by: { slos: [], pages: [], subscribers: 0, sla_statements: statements },
      },
    );
  }
  contract.deletedAt = ctx.now;
  contract.updatedAt = ctx.now;
  await ctx.em.flush();
  await syncSchedule(ctx, contract, workflows);
  return contract;
}

/** The schedule follows the committed row; a Temporal outage is logged and mended by the housekeeping sweep (syncContractSchedules). */
export async function syncSchedule(ctx: OrgContext, contract: Contract, workflows: SlaWorkflows): Promise<void> {
  try {
    await workflows.contractChanged(contract);
    await ctx.em.nativeUpdate(
      ContractSchema,
      { id: contract.id, updatedAt: contract.updatedAt },
      { scheduleSyncedAt: contract.updatedAt },
    );
  } catch (err) {
    ctx.log?.error(
      { err, contractId: contract.id },
      "could not update the contract's statement schedule; the housekeeping sweep retries",
    );
  }
}

/**
 * Brings the Schedules of contracts changed since their last sync (a Temporal outage during the
 * API call, or a crash) in step with their rows, deleted contracts included. Answers how many.
 */
export async function syncContractSchedules(
  em: EntityManager,
  workflows: SlaWorkflows,
  now: Date,
  limit = 500,
): Promise<number> {
  // A row younger than a minute may still be on its way to Temporal from the API: leave it.
  const settled = new Date(now.getTime() - 60_000);
  const stale = await em.find(
    ContractSchema,
    {
      updatedAt: { $lt: settled },
      $or: [{ scheduleSyncedAt: null }, { scheduleSyncedAt: { $lt: raw<object, Date>('updated_at') } }],
    },
    { limit, orderBy: { updatedAt: 'asc', id: 'asc' } },
  );
  for (const contract of stale) {
    await workflows.contractChanged(contract);
    await em.nativeUpdate(
      ContractSchema,
      { id: contract.id, updatedAt: contract.updatedAt },
      { scheduleSyncedAt: contract.updatedAt },
    );
  }
  return stale.length;
}
