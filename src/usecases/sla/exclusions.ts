import { type SlaExclusion, SlaExclusionSchema, type SlaStatement } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import type { OrgContext } from '../shared/context';
import { runStatementAction } from './actions';
import type { SlaWorkflows } from './ports';
import { getStatement } from './reads';

/** The manual exclusions of a statement's contract and period (the ones finance may remove in draft), oldest first. */
export async function statementExclusions(ctx: OrgContext, s: SlaStatement): Promise<SlaExclusion[]> {
  return ctx.em.find(
    SlaExclusionSchema,
    { organization: ctx.org.id, contract: s.contract, periodLabel: s.periodLabel },
    { orderBy: { startsAt: 'asc', id: 'asc' } },
  );
}

/**
 * Removes a manual exclusion from a draft statement: a workflow update like every finance action,
 * so the draft is recomputed and signed again, with an audit row (its note names the window and
 * the justification removed) and a `sla_statement.recomputed` event. 404 for an exclusion this
 * statement does not have; 409 invalid_transition when the statement is not a draft.
 */
export async function removeStatementExclusion(
  ctx: OrgContext,
  workflows: SlaWorkflows,
  statementId: string,
  exclusionId: string,
  actor: string,
  idempotencyKey: string | undefined,
  actorName?: string | null,
): Promise<SlaStatement> {
  const statement = await getStatement(ctx, statementId);
  const exclusion = /^[0-9a-f-]{36}$/i.test(exclusionId)
    ? await ctx.em.findOne(SlaExclusionSchema, {
        id: exclusionId,
        organization: ctx.org.id,
        contract: statement.contract,
        periodLabel: statement.periodLabel,
      })
    : null;
  if (!exclusion) throw new ProblemError('not_found', 'This statement has no such exclusion.');
  const note = `Removed the exclusion ${exclusion.startsAt.toISOString()} – ${exclusion.endsAt.toISOString()} ("${exclusion.justification}")`;
  return runStatementAction(
    ctx,
    workflows,
    statementId,
    'remove_exclusion',
    { exclusion_id: exclusion.id, note: note.slice(0, 2000) },
    actor,
    idempotencyKey,
    actorName,
  );
}
