import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { ERROR_CATALOG, type ErrorToken, ProblemError } from '../domain/error-catalog';
import type { SlaWorkflows } from '../usecases/sla/ports';
import { contractScheduleId, slaPeriodWorkflowId, slaStatementWorkflowId } from '../domain/workflow-ids';
import { slaStatementSearchAttributes } from '../workflows/search-attribute-keys';
import { type SlaTimings, slaUpdates } from '../workflows/sla-statement-workflow';
import type { TemporalHandle } from './connection';
import { searchAttributes } from './search-attributes';

export { contractScheduleId };

/** The first ApplicationFailure in a failure's cause chain (an activity's refusal arrives wrapped). */
function applicationFailureIn(err: unknown): ApplicationFailure | null {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof ApplicationFailure) return e;
    if (!(e instanceof TemporalFailure) && !(e instanceof WorkflowUpdateFailedError)) break;
  }
  return null;
}

function isToken(type: string | null | undefined): type is ErrorToken {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOG, type);
}

/** How long an API request waits for the workflow to take and apply an action before answering 409 statement_busy. */
const UPDATE_WAIT_MS = 30_000;

export function temporalSlaWorkflows(
  temporal: TemporalHandle,
  timings: Partial<SlaTimings> = {},
  opts: { updateWaitMs?: number } = {},
): SlaWorkflows {
  return {
    async contractChanged(contract) {
      const handle = temporal.client.schedule.getHandle(contractScheduleId(contract.id));
      if (contract.deletedAt) {
        await handle.delete().catch((err) => {
          if (!(err instanceof ScheduleNotFoundError)) throw err;
        });
        return;
      }
      // Each month in the contract's timezone: the first day's midnight plus the grace. Contracts
      // sharing a zone and grace would all fire at once; the jitter spreads them over half an hour
      // (bench/sla: a burst of a thousand stalls Temporal's scheduler for a minute).
      const spec = {
        calendars: [
          { dayOfMonth: 1 + Math.floor(contract.graceHours / 24), hour: contract.graceHours % 24, minute: 0 },
        ],
        timezone: contract.timezone,
        jitter: '30 minutes' as const,
      };
      const action = {
        type: 'startWorkflow' as const,
        workflowType: 'slaPeriodWorkflow',
        workflowId: slaPeriodWorkflowId(contract.id),
        taskQueue: temporal.taskQueue,
        args: [{ organizationId: contract.organization, contractId: contract.id, timings }],
        memo: { title: `SLA statements: ${contract.name}` },
        typedSearchAttributes: searchAttributes(contract.organization, 'contract', contract.id),
      };
      const policies = { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: '7 days' as const };
      try {
        await handle.update((prev) => ({ ...prev, spec, action, policies }));
      } catch (err) {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
        await temporal.client.schedule.create({
          scheduleId: contractScheduleId(contract.id),
          spec,
          action,
          policies,
          memo: { organization: contract.organization },
        });
      }
    },

    async startStatement(ref, title) {
      const workflowId = slaStatementWorkflowId(ref.contractId, ref.period);
      try {
        await temporal.client.workflow.start('slaStatementWorkflow', {
          workflowId,
          taskQueue: temporal.taskQueue,
          args: [{ ...ref, timings }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
          typedSearchAttributes: slaStatementSearchAttributes(ref.organizationId, ref.contractId, ref.period),
          memo: { title },
          staticSummary: title,
        });
        return { workflowId, started: true };
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
        throw err;
      }
    },

    async runAction(ref, input, updateId) {
      const handle = temporal.client.workflow.getHandle(slaStatementWorkflowId(ref.contractId, ref.period));
      let timer: NodeJS.Timeout | undefined;
      // Without a worker the update would wait for ever; it stays queued under its id, so a retry
      // with the same Idempotency-Key picks up its outcome.
      const busy = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new ProblemError(
                'statement_busy',
                "The statement's workflow did not take the action in time; retry with the same Idempotency-Key to get its outcome.",
              ),
            ),
          opts.updateWaitMs ?? UPDATE_WAIT_MS,
        );
      });
      try {
        return await Promise.race([
          handle.executeUpdate(slaUpdates[input.action], { args: [input], ...(updateId ? { updateId } : {}) }),
          busy,
        ]);
      } catch (err) {
        if (err instanceof ProblemError) throw err;
        if (
          err instanceof WorkflowNotFoundError ||
          /workflow execution already completed/i.test(String((err as Error)?.message))
        ) {
          throw new ProblemError(
            'statement_closed',
            "The statement's workflow has ended: it is void or its correction window has passed.",
          );
        }
        const failure = applicationFailureIn(err);
        if (failure && isToken(failure.type)) throw new ProblemError(failure.type, failure.message);
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
