import { createHash } from 'node:crypto';
import { ApiKeySchema, type SlaStatement, SlaStatementSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { InvalidPeriodError } from '../../domain/sla/errors';
import { effectiveWindow, periodBounds } from '../../domain/sla/period';
import type { StatementAction } from '../../domain/sla/transitions';
import type { OrgContext } from '../shared/context';
import { getContract } from './contracts';
import type { ActionInput, SlaWorkflows, StatementRef } from './ports';
import { getStatement } from './reads';
import { assertNoOverlappingExclusion, currentRevision } from './statements';

export interface ActionBody {
  revision?: number;
  sha256?: string;
  note?: string;
  reason?: string;
  starts_at?: string;
  ends_at?: string;
  justification?: string;
  /** submit / approve: go ahead although coverage is below the contract's min_coverage_pct. */
  acknowledge_gaps?: boolean;
  /** remove_exclusion: which exclusion. */
  exclusion_id?: string;
}

export const refOf = (s: SlaStatement): StatementRef => ({
  organizationId: s.organization,
  contractId: s.contract,
  period: s.periodLabel,
});

/**
 * Runs a finance action on a statement through its workflow (a Temporal update): the workflow
 * validates it against the current revision, then applies it. Answers the revision it left
 * current (a correction answers the new one). `actor` is the API key id, or `console:<user id>`
 * for a console user; the audit trail's readable name is `actorName` when given (the console
 * user's email), else the API key's name.
 */
export async function runStatementAction(
  ctx: OrgContext,
  workflows: SlaWorkflows,
  statementId: string,
  action: StatementAction,
  body: ActionBody,
  actor: string,
  idempotencyKey: string | undefined,
  actorName?: string | null,
): Promise<SlaStatement> {
  const statement = await getStatement(ctx, statementId);
  // A superseded revision is no longer current: the same answer the workflow gives when a correction wins a race (stale_revision).
  if (statement.state === 'superseded') {
    const current = await currentRevision(ctx.em, refOf(statement));
    throw new ProblemError(
      'stale_revision',
      `Revision ${statement.revision} is superseded: the statement is now revision ${current?.revision ?? '?'} (${current?.id ?? '?'}); act on that one.`,
    );
  }
  if (action === 'add_exclusion') await assertExclusion(ctx, statement, body);
  const name =
    actorName !== undefined
      ? actorName
      : ((
          (await ctx.em.findOne(ApiKeySchema, { id: actor }, { fields: ['name'] as never })) as {
            name?: string | null;
          } | null
        )?.name ?? null);
  const input: ActionInput = {
    action,
    statementId: statement.id,
    actor,
    actorName: name,
    ...(body.revision !== undefined ? { revision: body.revision } : {}),
    ...(body.sha256 !== undefined ? { sha256: body.sha256 } : {}),
    ...(body.note !== undefined || body.reason !== undefined ? { note: body.note ?? body.reason } : {}),
    ...(body.acknowledge_gaps === true ? { acknowledgeGaps: true } : {}),
    ...(action === 'add_exclusion'
      ? { exclusion: { starts_at: body.starts_at!, ends_at: body.ends_at!, justification: body.justification! } }
      : {}),
    ...(action === 'remove_exclusion' && body.exclusion_id !== undefined ? { exclusionId: body.exclusion_id } : {}),
  };
  // The key as the update id (hashed: keys are up to 255 characters), per action, so a retry of the same request runs once.
  const updateId = idempotencyKey
    ? `${action}:${createHash('sha256').update(`${ctx.org.id}\n${idempotencyKey}`).digest('hex')}`
    : undefined;
  const facts = await workflows.runAction(refOf(statement), input, updateId);
  ctx.em.clear();
  return ctx.em.findOneOrFail(SlaStatementSchema, { id: facts.statementId, organization: ctx.org.id });
}

/** A window inside the statement's period (to the minute) that overlaps no exclusion already made. */
async function assertExclusion(ctx: OrgContext, s: SlaStatement, body: ActionBody): Promise<void> {
  const start = Date.parse(body.starts_at ?? '');
  const end = Date.parse(body.ends_at ?? '');
  if (!(end > start))
    throw new ProblemError('validation_failed', 'ends_at must be after starts_at.', {
      errors: [{ path: 'ends_at', message: 'Must be after starts_at' }],
    });
  if (start < s.periodStart.getTime() || end > s.periodEnd.getTime()) {
    throw new ProblemError(
      'validation_failed',
      `The window must lie within the statement's period (${s.periodStart.toISOString()} – ${s.periodEnd.toISOString()}).`,
      {
        errors: [
          {
            path: start < s.periodStart.getTime() ? 'starts_at' : 'ends_at',
            message: 'Must lie within the statement period',
          },
        ],
      },
    );
  }
  if (start % 60_000 !== 0 || end % 60_000 !== 0) {
    throw new ProblemError(
      'validation_failed',
      'Exclusions are whole minutes: starts_at and ends_at must have zero seconds.',
      { errors: [{ path: start % 60_000 ? 'starts_at' : 'ends_at', message: 'Must be a whole minute' }] },
    );
  }
  await assertNoOverlappingExclusion(ctx.em, refOf(s), new Date(start), new Date(end));
}

/**
 * Drafts a contract's statement for a period now (backfill, or before the schedule's day):
 * starts the period's workflow unless it runs or ran, then answers the statement once drafted
 * (within `waitMs`), else null.
 */
export async function requestStatement(
  ctx: OrgContext,
  workflows: SlaWorkflows,
  contractId: string,
  period: string,
  waitMs = 10_000,
): Promise<{ statement: SlaStatement | null; workflowId: string; started: boolean }> {
  const contract = await getContract(ctx, contractId);
  const uncoverable = (why: string) =>
    new ProblemError('validation_failed', `No statement can cover ${period} in ${contract.timezone}: ${why}.`, {
      errors: [{ path: 'period', message: 'Not a period a statement can cover' }],
    });
  let bounds: ReturnType<typeof periodBounds>;
  try {
    bounds = periodBounds(period, contract.timezone);
  } catch (err) {
    // A month the zone's rules do not measure in whole minutes (a switch from local mean time, e.g. Europe/Berlin 1893-04).
    if (!(err instanceof InvalidPeriodError)) throw err;
    throw uncoverable(err.message);
  }
  // PostgreSQL holds no instant of year 0 (0000-01 anywhere, 0001-01 east of UTC).
  if (bounds.start.getUTCFullYear() < 1) throw uncoverable('it starts before the year 1');
  if (bounds.end.getTime() > ctx.now.getTime()) {
    throw new ProblemError(
      'validation_failed',
      `The period ${period} has not ended yet in ${contract.timezone} (it ends ${bounds.end.toISOString()}).`,
      { errors: [{ path: 'period', message: 'The period has not ended yet' }] },
    );
  }
  if (!effectiveWindow(bounds, contract.effectiveFrom, contract.effectiveTo ?? null)) {
    throw new ProblemError(
      'validation_failed',
      `The contract is not in effect during ${period} (effective ${contract.effectiveFrom} to ${contract.effectiveTo ?? 'open'}).`,
      { errors: [{ path: 'period', message: 'The contract is not in effect during this period' }] },
    );
  }
  const ref = { organizationId: ctx.org.id, contractId, period };
  const { workflowId, started } = await workflows.startStatement(ref, `SLA statement ${period} — ${contract.name}`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await currentRevision(ctx.em.fork(), ref);
    if (row || Date.now() >= deadline) return { statement: row, workflowId, started };
    await new Promise((r) => setTimeout(r, 100));
  }
}
