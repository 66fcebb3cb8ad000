import type { SlaAuditEntry, SlaStatement } from '../../db/entities';
import { creditStateOf } from '../../domain/sla/transitions';
import type { StatementState } from '../../domain/sla/transitions';

/** The signed document's `no_data_counts_as`, for coverage columns written before they repeated it. */
function documentTreatment(s: SlaStatement): 'up' | 'down' | 'excluded' {
  const doc = JSON.parse(Buffer.from(s.document).toString('utf8')) as {
    coverage?: { no_data_counts_as?: 'up' | 'down' | 'excluded' };
  };
  return doc.coverage?.no_data_counts_as ?? 'up';
}

/** The coverage the signed document states, and its warning; null for documents drafted before it. */
function coverageOf(s: SlaStatement) {
  const c = s.coverage ?? null;
  if (!c) return { coverage: null, warnings: [] as string[] };
  const noDataCountsAs = c.no_data_counts_as ?? documentTreatment(s);
  return {
    coverage: {
      measured_minutes: c.measured_minutes,
      unmeasured_minutes: c.unmeasured_minutes,
      coverage_pct: c.coverage_pct,
      min_coverage_pct: c.min_coverage_pct,
      no_data_counts_as: noDataCountsAs,
      sufficient: c.sufficient,
    },
    warnings: c.warning ? [c.warning] : [],
  };
}

/** A statement as the API and its events show it (spec §2.6, plus the review trail's fields and, additively, its coverage). */
export function statementView(s: SlaStatement) {
  return {
    id: s.id,
    customer_id: s.customer,
    customer_name: s.customerName,
    contract_id: s.contract,
    period_label: s.periodLabel,
    period_start: s.periodStart.toISOString(),
    period_end: s.periodEnd.toISOString(),
    timezone: s.timezone,
    revision: s.revision,
    state: s.state as StatementState,
    sha256: s.sha256,
    attainment_min: s.attainmentMin,
    credit_pct: s.creditPct,
    credit_amount_minor: s.creditAmountMinor,
    currency: s.currency,
    credit_state: creditStateOf(s.state as StatementState, s.creditAmountMinor),
    signature: s.signature,
    signing_key_id: s.signingKeyId,
    generated_at: s.generatedAt.toISOString(),
    submitted_at: s.submittedAt?.toISOString() ?? null,
    approved_at: s.approvedAt?.toISOString() ?? null,
    sent_at: s.sentAt?.toISOString() ?? null,
    voided_at: s.voidedAt?.toISOString() ?? null,
    void_reason: s.voidReason ?? null,
    superseded_at: s.supersededAt?.toISOString() ?? null,
    supersedes_id: s.previous ?? null,
    review_note: s.reviewNote ?? null,
    updated_at: s.updatedAt.toISOString(),
    ...coverageOf(s),
  };
}
export type StatementView = ReturnType<typeof statementView>;

export function auditView(a: SlaAuditEntry) {
  return {
    id: a.id,
    statement_id: a.statement,
    action: a.action,
    from_state: (a.fromState ?? null) as StatementState | null,
    to_state: a.toState as StatementState,
    revision: a.revision,
    sha256: a.sha256,
    actor: a.actor,
    actor_name: a.actorName ?? null,
    note: a.note ?? null,
    at: a.at.toISOString(),
  };
}
export type AuditView = ReturnType<typeof auditView>;
