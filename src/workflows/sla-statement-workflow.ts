import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  currentUpdateInfo,
  defineQuery,
  defineUpdate,
  proxyActivities,
  log,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { type StatementAction, type StatementState, refuseTransition } from '../domain/sla/transitions';
import type { ActionInput, StatementFactsView } from '../usecases/sla/ports';
import { SLA_REVISION, SLA_STATE } from './search-attribute-keys';

const acts = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [
      'not_found',
      'statement_closed',
      'no_billing_contact',
      'invalid_transition',
      'stale_revision',
      'approver_is_submitter',
    ],
  },
});

/** Reminders are a courtesy: a few attempts, then the run goes on without them. */
const reminders = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

const DAY_MS = 86_400_000;

export interface SlaTimings {
  /** In review this long: the contract's finance contacts get a reminder (default 3 days). */
  reminderAfterMs: number;
  /** In review this long: the escalation contacts are told (default 7 days). */
  escalateAfterMs: number;
  /** After delivery, corrections are accepted this long; then the run ends (default 90 days). */
  correctionWindowMs: number;
}

export const DEFAULT_SLA_TIMINGS: SlaTimings = {
  reminderAfterMs: 3 * DAY_MS,
  escalateAfterMs: 7 * DAY_MS,
  correctionWindowMs: 90 * DAY_MS,
};

export interface SlaStatementInput {
  organizationId: string;
  contractId: string;
  /** YYYY-MM in the contract's timezone. */
  period: string;
  timings?: Partial<SlaTimings>;
}

/** Each finance action is a workflow update: validated against the current revision before it is accepted. */
export const slaUpdates: Readonly<
  Record<StatementAction, ReturnType<typeof defineUpdate<StatementFactsView, [ActionInput]>>>
> = {
  submit: defineUpdate<StatementFactsView, [ActionInput]>('submit'),
  approve: defineUpdate<StatementFactsView, [ActionInput]>('approve'),
  request_changes: defineUpdate<StatementFactsView, [ActionInput]>('requestChanges'),
  add_exclusion: defineUpdate<StatementFactsView, [ActionInput]>('addExclusion'),
  remove_exclusion: defineUpdate<StatementFactsView, [ActionInput]>('removeExclusion'),
  deliver: defineUpdate<StatementFactsView, [ActionInput]>('deliver'),
  correct: defineUpdate<StatementFactsView, [ActionInput]>('correct'),
  void: defineUpdate<StatementFactsView, [ActionInput]>('void'),
};

export const slaStatementFacts = defineQuery<StatementFactsView | null>('statement');

function refusal(token: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: token, message, nonRetryable: true });
}

/**
 * One per contract and period (id `sla-statement:<contract>:<YYYY-MM>`): drafts and signs the
 * statement, then waits for finance's actions (updates), reminds reviewers of a statement left in
 * review, and ends when the statement is void or its correction window after delivery has passed.
 * The row owns the truth; the workflow owns the clock and serializes the actions.
 */
export async function slaStatementWorkflow(input: SlaStatementInput): Promise<string> {
  const timings: SlaTimings = { ...DEFAULT_SLA_TIMINGS, ...input.timings };
  const ref = { organizationId: input.organizationId, contractId: input.contractId, period: input.period };
  let current: StatementFactsView | null = null;
  let closed = false;
  let busy = false;
  let changes = 0;
  let deliveredAt: number | null = null;

  setHandler(slaStatementFacts, () => current);

  const publish = (facts: StatementFactsView) => {
    current = facts;
    changes++;
    upsertSearchAttributes([
      { key: SLA_STATE, value: facts.state },
      { key: SLA_REVISION, value: facts.revision },
    ]);
  };

  /** Why `request` may not run on the current revision `facts`, checked when accepted and again when its turn comes. */
  const refuse = (
    facts: StatementFactsView,
    action: StatementAction,
    request: ActionInput,
  ): ApplicationFailure | null => {
    if (request.statementId !== undefined && request.statementId !== facts.statementId) {
      return refusal(
        'stale_revision',
        `The statement is now revision ${facts.revision} (${facts.statementId}); act on that one.`,
      );
    }
    const why = refuseTransition(
      {
        state: facts.state as StatementState,
        revision: facts.revision,
        sha256: facts.sha256,
        submittedBy: facts.submittedBy,
      },
      { ...request, action },
    );
    return why ? refusal(why.token, why.detail) : null;
  };

  for (const action of Object.keys(slaUpdates) as StatementAction[]) {
    setHandler(
      slaUpdates[action],
      async (request: ActionInput) => {
        // An action that came while the statement was being drafted waits for the draft (the row is
        // written before the draft activity's result reaches the workflow), so it is never refused for it.
        if (!current) {
          await condition(() => current !== null || closed);
          if (!current)
            throw refusal(
              'statement_closed',
              'The contract is not in effect during this period: no statement was drafted.',
            );
        }
        // One action at a time: every waiter wakes in the same activation, so each checks again.
        while (busy) await condition(() => !busy);
        busy = true;
        try {
          // Read after the waits (an action before this one may have published new facts); never null again once drafted.
          const taken = current;
          const stale = refuse(taken, action, request);
          if (stale) throw stale;
          const operationId = `${workflowInfo().workflowId}/${currentUpdateInfo()?.id ?? `${action}:${changes}`}`;
          const outcome =
            action === 'deliver' ? await acts.deliverSlaStatement({ ref, statementId: taken.statementId }) : {};
          const facts = await acts.applySlaAction({ ref, input: { ...request, action }, operationId, outcome });
          if (action === 'deliver') deliveredAt = Date.now();
          publish(facts);
          return facts;
        } finally {
          busy = false;
        }
      },
      {
        validator: (request: ActionInput) => {
          if (closed)
            throw refusal(
              'statement_closed',
              "The statement's period is closed: it is void or its correction window has passed.",
            );
          if (!current) return; // still drafting: the handler waits for it, then checks
          const why = refuse(current, action, request);
          if (why) throw why;
        },
      },
    );
  }

  const drafted = await acts.draftSlaStatement(ref);
  if (!drafted) {
    closed = true;
    await condition(allHandlersFinished);
    return 'not_in_effect';
  }
  publish(drafted);

  const remind = async (statementId: string, kind: 'reminder' | 'escalation') => {
    try {
      await reminders.remindSlaReview({ ref, statementId, kind });
    } catch (err) {
      log.warn('SLA review reminder not sent', { statementId, kind, error: String(err) });
    }
  };

  let remindedFor: number | null = null;
  let escalatedFor: number | null = null;
  for (;;) {
    const facts = current as StatementFactsView | null;
    if (!facts || facts.state === 'void') break;
    const seen = changes;
    const changed = () => changes !== seen;
    if (facts.state === 'in_review' && facts.submittedAt !== null) {
      const submittedAt = facts.submittedAt;
      if (remindedFor !== submittedAt) {
        const wait = submittedAt + timings.reminderAfterMs - Date.now();
        if (wait > 0 && (await condition(changed, wait))) continue;
        await remind(facts.statementId, 'reminder');
        remindedFor = submittedAt;
        continue;
      }
      if (escalatedFor !== submittedAt) {
        const wait = submittedAt + timings.escalateAfterMs - Date.now();
        if (wait > 0 && (await condition(changed, wait))) continue;
        await remind(facts.statementId, 'escalation');
        escalatedFor = submittedAt;
        continue;
      }
      await condition(changed);
      continue;
    }
    if (facts.state === 'delivered') {
      const wait = (deliveredAt ?? Date.now()) + timings.correctionWindowMs - Date.now();
      if (wait > 0 && (await condition(changed, wait))) continue;
      // The window has passed: refuse new actions, let accepted ones finish; a correction among them reopens the loop.
      closed = true;
      await condition(allHandlersFinished);
      if ((current as StatementFactsView | null)?.state === 'delivered') break;
      closed = false;
      continue;
    }
    await condition(changed);
  }
  closed = true;
  await condition(allHandlersFinished);
  return (current as StatementFactsView | null)?.state ?? 'gone';
}
