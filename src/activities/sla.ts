import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { ContractSchema } from '../db/entities';
import { ProblemError } from '../domain/error-catalog';
import { effectiveWindow, periodBounds, periodDue } from '../domain/sla/period';
import { type SlaMailDeps, mailStatement, remindReviewers } from '../usecases/sla/delivery';
import type { ActionInput, SlaWorkflows, StatementFactsView, StatementRef } from '../usecases/sla/ports';
import { syncContractSchedules } from '../usecases/sla/contracts';
import {
  type ActionOutcome,
  type StatementSigner,
  applyStatementAction,
  draftStatement,
} from '../usecases/sla/statements';

export interface SlaDeps {
  signer: StatementSigner;
  /** Keeps contracts' Schedules in step (the housekeeping sweep); without it the sweep does nothing. */
  workflows?: SlaWorkflows;
  mail?: SlaMailDeps & { consoleUrl: string };
}

/** Use-case refusals end the activity for good, carrying their token as the failure type. */
async function asActivity<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProblemError && err.status < 500)
      throw ApplicationFailure.create({ type: err.token, message: err.message, nonRetryable: true });
    // PostgreSQL data exceptions (class 22: a value too long, out of range) fail the same way on every retry.
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('22'))
      throw ApplicationFailure.create({
        type: 'internal_error',
        message: `The database refused the data (${code}): ${(err as Error).message}`,
        nonRetryable: true,
      });
    throw err;
  }
}

export function createSlaActivities(deps: { orm: Orm; sla?: SlaDeps }) {
  const em = () => deps.orm.em.fork();
  const sla = () => {
    if (!deps.sla)
      throw ApplicationFailure.nonRetryable('This worker was started without SLA signing', 'not_configured');
    return deps.sla;
  };
  const mail = () => {
    const m = sla().mail;
    if (!m)
      throw ApplicationFailure.nonRetryable(
        'This worker was started without a mailer for SLA statements',
        'not_configured',
      );
    return m;
  };
  return {
    /** The period whose statement is due at `at` (the month before, in the contract's timezone, after its grace), or null. */
    async slaPeriodDue(input: {
      organizationId: string;
      contractId: string;
      at: number;
    }): Promise<{ period: string; title: string } | null> {
      const contract = await em().findOne(ContractSchema, {
        id: input.contractId,
        organization: input.organizationId,
        deletedAt: null,
      });
      if (!contract) return null;
      const period = periodDue(new Date(input.at), contract.timezone, contract.graceHours);
      if (
        !effectiveWindow(periodBounds(period, contract.timezone), contract.effectiveFrom, contract.effectiveTo ?? null)
      )
        return null;
      return { period, title: `SLA statement ${period} — ${contract.name}` };
    },
    async draftSlaStatement(ref: StatementRef): Promise<StatementFactsView | null> {
      return asActivity(() => draftStatement(em(), sla().signer, ref, new Date()));
    },
    async applySlaAction(input: {
      ref: StatementRef;
      input: ActionInput;
      operationId: string;
      outcome?: ActionOutcome;
    }): Promise<StatementFactsView> {
      return asActivity(() =>
        applyStatementAction(em(), sla().signer, input.ref, input.input, input.operationId, new Date(), input.outcome),
      );
    },
    /** Renders the PDF and emails it to the billing contact (before the row says delivered). */
    async deliverSlaStatement(input: { ref: StatementRef; statementId: string }): Promise<{ sentTo: string }> {
      return asActivity(() => mailStatement(em(), mail(), input.ref, input.statementId));
    },
    /** The housekeeping sweep: Schedules of contracts whose last sync failed or never happened. */
    async ensureContractSchedules(): Promise<number> {
      const workflows = deps.sla?.workflows;
      return workflows ? syncContractSchedules(em(), workflows, new Date()) : 0;
    },
    async remindSlaReview(input: {
      ref: StatementRef;
      statementId: string;
      kind: 'reminder' | 'escalation';
    }): Promise<boolean> {
      return asActivity(() => remindReviewers(em(), mail(), input.ref, input.statementId, input.kind, new Date()));
    },
  };
}
