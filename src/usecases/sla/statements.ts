import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Contract,
  ContractSchema,
  CustomerSchema,
  OrganizationSchema,
  SlaAuditEntrySchema,
  SlaExclusionSchema,
  type SlaStatement,
  SlaStatementSchema,
} from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { withTermDefaults } from '../../domain/sla/credit-terms';
import { effectiveWindow, periodBounds, TZ_DATA_SOURCE } from '../../domain/sla/period';
import { type StatementDocument, buildStatementDocument } from '../../domain/sla/statement';
import { type StatementState, refuseTransition, stateAfter } from '../../domain/sla/transitions';
import type { SecretBox } from '../../crypto/secret-box';
import { canonicalStatement, signStatement } from '../../crypto/statement-signing';
import { recordEvent } from '../events/outbox';
import { documentOf } from './documents';
import { gatherEvidence } from './evidence';
import type { ActionInput, StatementFactsView, StatementRef } from './ports';
import { activeSigningKey } from './signing-keys';
import { statementView } from './view';

/** What computing and signing a statement needs besides the database. */
export interface StatementSigner {
  box: SecretBox;
  /** The tz data version the runtime's Intl uses (process.versions.tz). */
  tzDataVersion: string;
}

export const SYSTEM_ACTOR = 'system';

export function factsOf(s: SlaStatement): StatementFactsView {
  return {
    statementId: s.id,
    revision: s.revision,
    state: s.state,
    sha256: s.sha256,
    submittedBy: s.submittedBy ?? null,
    submittedAt: s.submittedAt?.getTime() ?? null,
  };
}

/** The current (highest) revision of a contract's statement for a period. */
export async function currentRevision(
  em: EntityManager,
  ref: StatementRef,
  lock = false,
): Promise<SlaStatement | null> {
  return em.findOne(
    SlaStatementSchema,
    { organization: ref.organizationId, contract: ref.contractId, periodLabel: ref.period },
    { orderBy: { revision: 'desc' }, ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) },
  );
}

interface Computed {
  document: StatementDocument;
  bytes: Buffer;
  sha256: string;
  signature: string;
  kid: string;
}

async function computeAndSign(
  em: EntityManager,
  signer: StatementSigner,
  contract: Contract,
  ref: StatementRef,
  statementId: string,
  revision: number,
  supersedes: StatementDocument['supersedes'],
  now: Date,
  previous: StatementDocument | null = null,
): Promise<Computed | null> {
  const period = periodBounds(ref.period, contract.timezone);
  const window = effectiveWindow(period, contract.effectiveFrom, contract.effectiveTo ?? null);
  if (!window) return null;
  const [organization, customer] = await Promise.all([
    em.findOneOrFail(OrganizationSchema, { id: contract.organization }),
    em.findOneOrFail(CustomerSchema, { id: contract.customer }),
  ]);
  const evidence = await gatherEvidence(em, contract, ref.period, window, now, period.end);
  const document = buildStatementDocument({
    statementId,
    revision,
    supersedes,
    generatedAt: now,
    organization: { id: organization.id, name: organization.name },
    customer: { id: customer.id, name: customer.name, externalId: customer.externalId ?? null },
    contract: {
      id: contract.id,
      name: contract.name,
      slaTargetPct: contract.slaTargetPct,
      currency: contract.currency,
      monthlyFeeMinor: contract.monthlyFeeMinor,
      creditTerms: withTermDefaults(contract.creditTerms),
    },
    period,
    window,
    tzDataVersion: signer.tzDataVersion,
    tzDataSource: TZ_DATA_SOURCE,
    ...evidence,
    previous,
  });
  const { bytes, sha256 } = canonicalStatement(document);
  const key = await activeSigningKey(em, signer.box, now);
  const signature = await signStatement(bytes, key, signer.box);
  return { document, bytes, sha256, signature, kid: key.kid };
}

function coverageColumn(d: StatementDocument): SlaStatement['coverage'] {
  const c = d.coverage;
  return c
    ? {
        measured_minutes: c.measured_minutes,
        unmeasured_minutes: c.unmeasured_minutes,
        coverage_pct: c.coverage_pct,
        min_coverage_pct: c.min_coverage_pct,
        no_data_counts_as: c.no_data_counts_as,
        sufficient: c.sufficient,
        warning: c.warning,
      }
    : null;
}

function newRow(
  em: EntityManager,
  contract: Contract,
  ref: StatementRef,
  id: string,
  c: Computed,
  previous: string | null,
  now: Date,
): SlaStatement {
  const d = c.document;
  return em.create(SlaStatementSchema, {
    id,
    organization: contract.organization,
    contract: contract.id,
    customer: contract.customer,
    customerName: d.customer.name,
    periodLabel: ref.period,
    periodStart: new Date(d.period.start),
    periodEnd: new Date(d.period.end),
    timezone: d.period.timezone,
    revision: d.revision,
    state: 'draft',
    document: c.bytes,
    sha256: c.sha256,
    signature: c.signature,
    signingKeyId: c.kid,
    attainmentMin: d.attainment.percent,
    creditPct: d.credit.credit_pct,
    creditAmountMinor: d.credit.amount_minor,
    currency: d.contract.currency,
    generatedAt: now,
    submittedAt: null,
    submittedBy: null,
    approvedAt: null,
    approvedBy: null,
    sentAt: null,
    sentTo: null,
    voidedAt: null,
    voidReason: null,
    supersededAt: null,
    previous,
    remindedAt: null,
    escalatedAt: null,
    reviewNote: null,
    coverage: coverageColumn(d),
    createdAt: now,
    updatedAt: now,
  });
}

function resign(row: SlaStatement, c: Computed, now: Date): void {
  row.document = c.bytes;
  row.sha256 = c.sha256;
  row.signature = c.signature;
  row.signingKeyId = c.kid;
  row.attainmentMin = c.document.attainment.percent;
  row.creditPct = c.document.credit.credit_pct;
  row.creditAmountMinor = c.document.credit.amount_minor;
  row.coverage = coverageColumn(c.document);
  row.generatedAt = now;
  row.updatedAt = now;
}

interface AuditInput {
  action: string;
  from: string | null;
  actor: string;
  actorName: string | null;
  note?: string | null;
  operationId?: string | null;
}

const EVENT_OF: Readonly<Record<string, string>> = {
  generate: 'sla_statement.drafted',
  submit: 'sla_statement.submitted',
  approve: 'sla_statement.approved',
  request_changes: 'sla_statement.changes_requested',
  add_exclusion: 'sla_statement.recomputed',
  remove_exclusion: 'sla_statement.recomputed',
  deliver: 'sla_statement.delivered',
  correct: 'sla_statement.corrected',
  supersede: 'sla_statement.superseded',
  void: 'sla_statement.voided',
};

/** The audit row and the webhook event of one transition, in the caller's unit of work. */
function recordTransition(em: EntityManager, row: SlaStatement, a: AuditInput, now: Date): void {
  em.create(SlaAuditEntrySchema, {
    id: randomUUID(),
    organization: row.organization,
    statement: row.id,
    action: a.action,
    fromState: a.from,
    toState: row.state,
    revision: row.revision,
    sha256: row.sha256,
    actor: a.actor,
    actorName: a.actorName,
    note: a.note ?? null,
    operationId: a.operationId ?? null,
    at: now,
  });
  const type = EVENT_OF[a.action];
  if (type)
    recordEvent(em, {
      organizationId: row.organization,
      type,
      resourceKind: 'sla_statement',
      resourceId: row.id,
      payload: statementView(row),
      now,
    });
}

async function liveContract(em: EntityManager, ref: StatementRef): Promise<Contract | null> {
  return em.findOne(ContractSchema, { id: ref.contractId, organization: ref.organizationId });
}

/**
 * Drafts revision 1 of the period's statement, or answers the current revision when one exists
 * (the workflow's activity may run twice). Null when the contract is gone or not in effect.
 */
export async function draftStatement(
  em: EntityManager,
  signer: StatementSigner,
  ref: StatementRef,
  now: Date,
): Promise<StatementFactsView | null> {
  const existing = await currentRevision(em, ref);
  if (existing) return factsOf(existing);
  const contract = await liveContract(em, ref);
  if (!contract || contract.deletedAt) return null;
  const id = randomUUID();
  const computed = await computeAndSign(em, signer, contract, ref, id, 1, null, now);
  if (!computed) return null;
  try {
    return await em.transactional(async (tx) => {
      const row = newRow(tx, contract, ref, id, computed, null, now);
      recordTransition(tx, row, { action: 'generate', from: null, actor: SYSTEM_ACTOR, actorName: 'Vigil' }, now);
      await tx.flush();
      return factsOf(row);
    });
  } catch (err) {
    // Another run drafted it first (unique contract + period + revision).
    if ((err as { code?: string }).code !== '23505') throw err;
    const row = await currentRevision(em.fork(), ref);
    if (!row) throw err;
    return factsOf(row);
  }
}

/** Extra facts an action carries once its side effect happened (deliver: where it was sent). */
export interface ActionOutcome {
  sentTo?: string;
}

/**
 * Applies one finance action to the current revision in one transaction: state, audit row and
 * event together. A retry of the same operation (same `operationId`) answers the state it left.
 * Refusals are ProblemErrors with the transition tokens.
 */
export async function applyStatementAction(
  em: EntityManager,
  signer: StatementSigner,
  ref: StatementRef,
  input: ActionInput,
  operationId: string,
  now: Date,
  outcome: ActionOutcome = {},
): Promise<StatementFactsView> {
  return em.transactional(async (t) => {
    const tx = t;
    const row = await currentRevision(tx, ref, true);
    if (!row) throw new ProblemError('not_found', 'No statement exists for this contract and period.');
    const done = await tx.findOne(SlaAuditEntrySchema, { organization: ref.organizationId, operationId });
    if (done) {
      const latest = await currentRevision(tx, ref);
      return factsOf(latest ?? row);
    }
    if (input.statementId !== undefined && input.statementId !== row.id) {
      throw new ProblemError(
        'stale_revision',
        `The statement is now revision ${row.revision} (${row.id}); act on that one.`,
      );
    }
    const refusal = refuseTransition(
      {
        state: row.state as StatementState,
        revision: row.revision,
        sha256: row.sha256,
        submittedBy: row.submittedBy ?? null,
      },
      input,
    );
    if (refusal) throw new ProblemError(refusal.token, refusal.detail);
    const gaps = evidenceGapRefusal(row, input);
    if (gaps) throw gaps;
    const from = row.state;
    const acknowledged = gapsAcknowledgement(row, input);
    const audit = { action: input.action, from, actor: input.actor, actorName: input.actorName, operationId };
    switch (input.action) {
      case 'submit':
        row.submittedAt = now;
        row.submittedBy = input.actor;
        row.reviewNote = null;
        break;
      case 'request_changes':
        row.reviewNote = input.note ?? null;
        row.submittedAt = null;
        row.submittedBy = null;
        row.remindedAt = null;
        row.escalatedAt = null;
        break;
      case 'approve':
        row.approvedAt = now;
        row.approvedBy = input.actor;
        break;
      case 'deliver':
        row.sentAt = now;
        row.sentTo = outcome.sentTo ?? null;
        break;
      case 'void':
        row.voidedAt = now;
        row.voidReason = input.note ?? null;
        break;
      case 'add_exclusion': {
        const contract = await liveContract(tx, ref);
        if (!contract || !input.exclusion) throw new ProblemError('not_found', 'The contract is gone.');
        // Checked again under the row lock: a retried request without a key must not exclude twice.
        await assertNoOverlappingExclusion(
          tx,
          ref,
          new Date(input.exclusion.starts_at),
          new Date(input.exclusion.ends_at),
        );
        tx.create(SlaExclusionSchema, {
          id: randomUUID(),
          organization: ref.organizationId,
          contract: ref.contractId,
          periodLabel: ref.period,
          startsAt: new Date(input.exclusion.starts_at),
          endsAt: new Date(input.exclusion.ends_at),
          justification: input.exclusion.justification,
          addedBy: input.actor,
          createdAt: now,
        });
        await tx.flush();
        const computed = await computeAndSign(
          tx,
          signer,
          contract,
          ref,
          row.id,
          row.revision,
          previousRef(await previousOf(tx, row)),
          now,
        );
        if (!computed)
          throw new ProblemError('statement_closed', 'The contract is no longer in effect for this period.');
        resign(row, computed, now);
        break;
      }
      case 'remove_exclusion': {
        // A draft's manual exclusion can be taken back; the draft is recomputed and signed again.
        const contract = await liveContract(tx, ref);
        if (!contract) throw new ProblemError('not_found', 'The contract is gone.');
        const exclusion = input.exclusionId
          ? await tx.findOne(SlaExclusionSchema, {
              id: input.exclusionId,
              organization: ref.organizationId,
              contract: ref.contractId,
              periodLabel: ref.period,
            })
          : null;
        if (!exclusion)
          throw new ProblemError(
            'not_found',
            'This statement has no such exclusion (it may have been removed already).',
          );
        tx.remove(exclusion);
        await tx.flush();
        const computed = await computeAndSign(
          tx,
          signer,
          contract,
          ref,
          row.id,
          row.revision,
          previousRef(await previousOf(tx, row)),
          now,
        );
        if (!computed)
          throw new ProblemError('statement_closed', 'The contract is no longer in effect for this period.');
        resign(row, computed, now);
        break;
      }
      case 'correct': {
        const contract = await liveContract(tx, ref);
        if (!contract) throw new ProblemError('not_found', 'The contract is gone.');
        const id = randomUUID();
        // The new revision says what changed; the superseded one keeps its bytes and signature.
        const computed = await computeAndSign(
          tx,
          signer,
          contract,
          ref,
          id,
          row.revision + 1,
          { statement_id: row.id, revision: row.revision, sha256: row.sha256 },
          now,
          documentOf(row),
        );
        if (!computed)
          throw new ProblemError('statement_closed', 'The contract is no longer in effect for this period.');
        const summary = computed.document.correction?.summary ?? null;
        const oldFrom = row.state;
        row.state = 'superseded';
        row.supersededAt = now;
        row.updatedAt = now;
        recordTransition(
          tx,
          row,
          {
            action: 'supersede',
            from: oldFrom,
            actor: input.actor,
            actorName: input.actorName,
            note: input.note ?? null,
          },
          now,
        );
        const next = newRow(tx, contract, ref, id, computed, row.id, now);
        recordTransition(
          tx,
          next,
          { ...audit, from: null, note: [input.note, summary].filter(Boolean).join(' — ') || null },
          now,
        );
        await tx.flush();
        return factsOf(next);
      }
    }
    row.state = stateAfter(input.action);
    row.updatedAt = now;
    recordTransition(
      tx,
      row,
      {
        ...audit,
        note: [input.note ?? input.exclusion?.justification, acknowledged].filter(Boolean).join(' — ') || null,
      },
      now,
    );
    await tx.flush();
    return factsOf(row);
  });
}

/** Submitting or approving a statement whose coverage is below the contract's minimum needs `acknowledge_gaps`. */
const GAP_CHECKED: readonly string[] = ['submit', 'approve'];

function evidenceGapRefusal(row: SlaStatement, input: ActionInput): ProblemError | null {
  if (!GAP_CHECKED.includes(input.action) || input.acknowledgeGaps) return null;
  const coverage = documentOf(row).coverage;
  if (!coverage || coverage.sufficient) return null;
  return new ProblemError(
    'insufficient_evidence',
    `A status was measured in only ${coverage.coverage_pct}% of the statement's minutes (${coverage.unmeasured_minutes} without one), below the contract's min_coverage_pct of ${coverage.min_coverage_pct}%. Send "acknowledge_gaps": true to ${input.action} it anyway; the acknowledgement is recorded in the audit trail.`,
  );
}

/** The audit trail's note when the gaps were acknowledged on a statement that needed it. */
function gapsAcknowledgement(row: SlaStatement, input: ActionInput): string | null {
  if (!GAP_CHECKED.includes(input.action) || !input.acknowledgeGaps) return null;
  const coverage = documentOf(row).coverage;
  if (!coverage || coverage.sufficient) return null;
  return `Evidence gaps acknowledged: coverage ${coverage.coverage_pct}% below ${coverage.min_coverage_pct}%.`;
}

/** 400 validation_failed when [from, to) overlaps an exclusion already made for the contract's period. */
export async function assertNoOverlappingExclusion(
  em: EntityManager,
  ref: Pick<StatementRef, 'contractId' | 'period'>,
  from: Date,
  to: Date,
): Promise<void> {
  const overlapping = await em.findOne(SlaExclusionSchema, {
    contract: ref.contractId,
    periodLabel: ref.period,
    startsAt: { $lt: to },
    endsAt: { $gt: from },
  });
  if (!overlapping) return;
  throw new ProblemError(
    'validation_failed',
    `The window overlaps the exclusion ${overlapping.startsAt.toISOString()} – ${overlapping.endsAt.toISOString()} ("${overlapping.justification}").`,
    {
      errors: [{ path: 'starts_at', message: 'Overlaps an existing exclusion' }],
    },
  );
}

async function previousOf(em: EntityManager, row: SlaStatement): Promise<SlaStatement | null> {
  return row.previous ? em.findOne(SlaStatementSchema, { id: row.previous }) : null;
}

function previousRef(prev: SlaStatement | null): StatementDocument['supersedes'] {
  return prev ? { statement_id: prev.id, revision: prev.revision, sha256: prev.sha256 } : null;
}
