import type { EntityManager } from '@mikro-orm/postgresql';
import { type SlaAuditEntry, SlaAuditEntrySchema, type SlaStatement, SlaStatementSchema } from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import { notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { StatementState } from '../../domain/sla/transitions';
import type { OrgContext } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { assertSlaLedger } from './contracts';

export interface StatementQuery {
  limit: number;
  cursor?: string;
  /** YYYY-MM: the label each statement carries in its own timezone. */
  period?: string;
  state?: StatementState;
  customer_id?: string;
  contract_id?: string;
}

/** Newest first (by when the revision was created), every revision of every period. */
export async function listStatements(ctx: OrgContext, q: StatementQuery) {
  assertSlaLedger(ctx);
  const where: Record<string, unknown> = { organization: ctx.org.id, ...afterCursor(q.cursor) };
  if (q.period) where.periodLabel = q.period;
  if (q.state) where.state = q.state;
  if (q.customer_id) where.customer = q.customer_id;
  if (q.contract_id) where.contract = q.contract_id;
  const rows = await ctx.em.find(SlaStatementSchema, where, {
    orderBy: NEWEST_FIRST,
    limit: q.limit + 1,
    exclude: ['document'] as never,
  });
  return pageOf(rows, q.limit);
}

export async function getStatement(ctx: OrgContext, id: string): Promise<SlaStatement> {
  assertSlaLedger(ctx);
  const row = isUuid(id) ? await ctx.em.findOne(SlaStatementSchema, { id, organization: ctx.org.id }) : null;
  if (!row) throw notFound('SLA statement');
  return row;
}

/** Every revision of `s`'s contract and period, newest first (without their documents). */
export function revisionsOf(
  em: EntityManager,
  s: Pick<SlaStatement, 'organization' | 'contract' | 'periodLabel'>,
): Promise<SlaStatement[]> {
  return em.find(
    SlaStatementSchema,
    { organization: s.organization, contract: s.contract, periodLabel: s.periodLabel },
    { orderBy: { revision: 'desc' }, exclude: ['document'] as never },
  );
}

/** The audit trail of these revisions, oldest first. */
export function auditOf(em: EntityManager, revisions: readonly SlaStatement[]): Promise<SlaAuditEntry[]> {
  return em.find(
    SlaAuditEntrySchema,
    { statement: { $in: revisions.map((r) => r.id) } },
    { orderBy: { at: 'asc', revision: 'asc', id: 'asc' } },
  );
}

export async function statementRevisions(ctx: OrgContext, id: string): Promise<SlaStatement[]> {
  return revisionsOf(ctx.em, await getStatement(ctx, id));
}

export async function statementAudit(ctx: OrgContext, id: string): Promise<SlaAuditEntry[]> {
  return auditOf(ctx.em, await statementRevisions(ctx, id));
}
