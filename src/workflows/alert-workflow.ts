import {
  ActivityFailure,
  condition,
  continueAsNew,
  patched,
  defineQuery,
  defineSignal,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AlertAction } from '../domain/alerting/alert-message';
import {
  type AlertEvent,
  type AlertResume,
  advance,
  isAwake,
  receive,
  refusal,
  startAlert,
} from '../domain/alerting/alert-machine';
import type { AlertEvaluation, AlertSubjectRef } from '../usecases/alerting/alert-store';
import type { SendSpec } from '../usecases/alerting/sends';
import { ALERT_STATE } from './search-attribute-keys';

const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
// Each notification is an activity of its own in the history: an engineer sees who was told and how it went.
const remote = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 6 },
});

export interface AlertWorkflowInput extends AlertSubjectRef {
  /** Set by continue-as-new: the alert this run carries on. */
  resume?: AlertResume;
}

export interface SubjectChange {
  signalId: string;
  firing: boolean;
}

export interface AlertActionResult {
  alert_id: string | null;
  state: string;
  snoozed_until?: string | null;
}

export const subjectChangedSignal = defineSignal<[SubjectChange]>('subjectChanged');
export const acknowledgeAlertUpdate = defineUpdate<AlertActionResult, [{ by: string; note?: string }]>('acknowledge');
export const resolveAlertUpdate = defineUpdate<AlertActionResult, [{ by: string; note?: string }]>('resolve');
export const snoozeAlertUpdate = defineUpdate<AlertActionResult, [{ by: string; minutes: number }]>('snooze');
export const alertStateQuery = defineQuery<AlertActionResult>('state');

/** Raised by an update's validator; the API answers 409 invalid_transition with its message. */
class InvalidTransition extends Error {
  override name = 'InvalidTransition';
}

/**
 * One alert of one rule and subject (`alert:<rule>:<subject>`). Evaluates the subject; when it
 * fires, opens the alert and walks the escalation policy, notifying each step's targets and
 * waiting on a timer before the next; stops escalating when acknowledged or snoozed; resolves by
 * hand or (per rule) when the subject recovers, telling everyone it told; then ends. A maintenance
 * or silence covering the subject holds it as suppressed (recorded, not dropped) until it ends.
 * Further triggers while open add to the alert, never a second page.
 *
 * What it does when is decided by the alert machine (src/domain/alerting/alert-machine.ts); this
 * function only makes the Temporal calls: it files signals and updates in the machine's inbox,
 * executes the commands the machine answers with, in order, and feeds their outcomes back. The
 * commands are executed inline (an activity is awaited right where it is called), so the run
 * issues the same Temporal commands in the same order as recorded histories hold.
 */
export async function alertWorkflow(input: AlertWorkflowInput): Promise<string> {
  const ref: AlertSubjectRef = {
    organizationId: input.organizationId,
    ruleId: input.ruleId,
    subjectId: input.subjectId,
  };
  const begun = startAlert({
    runTag: workflowInfo().runId.slice(0, 8),
    ...(input.resume ? { resume: input.resume } : {}),
  });
  // The machine as of now: handlers file requests in it between the main loop's awaits.
  let m = begun.state;
  const view = (): AlertActionResult => ({ alert_id: m.alertId, state: m.status, snoozed_until: m.snoozedUntil });

  setHandler(subjectChangedSignal, (change) => {
    m = receive(m, { type: 'subjectChanged', signalId: change.signalId, firing: change.firing });
  });
  setHandler(alertStateQuery, view);
  const refuse = (request: Parameters<typeof refusal>[1]) => {
    const why = refusal(m, request);
    if (why) throw new InvalidTransition(why);
  };
  setHandler(
    acknowledgeAlertUpdate,
    async ({ by, note }) => {
      m = receive(m, { type: 'acknowledge', by, ...(note ? { note } : {}) });
      await condition(() => m.status === 'acknowledged' || m.status === 'resolved');
      return view();
    },
    { validator: (_req: { by: string }) => refuse({ type: 'acknowledge' }) },
  );
  setHandler(
    resolveAlertUpdate,
    async ({ by, note }) => {
      m = receive(m, { type: 'resolve', by, ...(note ? { note } : {}) });
      await condition(() => m.status === 'resolved');
      return { alert_id: m.alertId, state: m.status };
    },
    { validator: (_req: { by: string }) => refuse({ type: 'resolve' }) },
  );
  setHandler(
    snoozeAlertUpdate,
    async ({ by, minutes }) => {
      m = receive(m, { type: 'snooze', by, minutes });
      await condition(() => m.inbox.snooze === null || m.status === 'resolved');
      return view();
    },
    { validator: (req: { by: string; minutes: number }) => refuse({ type: 'snooze', minutes: req.minutes }) },
  );

  const alertId = (): string => {
    if (!m.alertId) throw new Error('The alert is not open');
    return m.alertId;
  };
  const deliver = async (sends: SendSpec[], actor: string | null) => {
    const id = alertId();
    await Promise.all(
      sends.map(async (spec) => {
        try {
          await remote.deliverAlertNotification({ organizationId: ref.organizationId, alertId: id, spec, actor });
        } catch (err) {
          if (!(err instanceof ActivityFailure)) throw err;
          // Recorded as a failed send; escalation goes on (the next level is the fallback).
        }
      }),
    );
  };
  // A level's sends still retrying while the escalation has moved on (see pageLevel below).
  const inFlight: Promise<void>[] = [];
  const inBackground = (sends: Promise<void>) => {
    // Marked handled here, so an error (only a non-activity one is rethrown) is not an unhandled
    // rejection while the escalation waits; settle() still awaits it and throws it there.
    sends.catch(() => undefined);
    inFlight.push(sends);
  };
  const settle = async () => {
    while (inFlight.length) await Promise.all(inFlight.splice(0));
  };
  // Those still retrying are waited for first, so that a send delivered late is told the outcome too.
  const tellTold = async (action: AlertAction, actor: string, round: number) => {
    await settle();
    await deliver(await local.planToldTargets({ alertId: alertId(), action, round }), actor);
  };

  // What the machine's `open` and `pageLevel` act on: the evaluation and the plan just read.
  let evaluation: AlertEvaluation | null = null;
  let plan: { sends: SendSpec[] } | null = null;

  let commands = begun.commands;
  for (;;) {
    let event: AlertEvent | null = null;
    for (const command of commands) {
      switch (command.type) {
        case 'evaluate':
          evaluation = await local.evaluateAlert(ref);
          event = { type: 'evaluated', reading: evaluation };
          break;
        case 'open': {
          if (!evaluation) throw new Error('The alert machine opens an alert it has not evaluated');
          const opened = await local.openAlert({ ref, evaluation });
          event = { type: 'opened', alertId: opened.alertId };
          break;
        }
        case 'publishStatus':
          upsertSearchAttributes([{ key: ALERT_STATE, value: command.status }]);
          break;
        case 'record':
          await local.recordAlertChange({ alertId: alertId(), change: command.change });
          event = { type: 'recorded' };
          break;
        case 'planLevel': {
          const { step, action, round } = command;
          const planned = await local.planAlertStep({
            organizationId: ref.organizationId,
            alertId: alertId(),
            step,
            action,
            ...(round > 0 ? { round } : {}),
          });
          plan = planned;
          event = { type: 'planned', sendCount: planned.sends.length, skipped: planned.skipped };
          break;
        }
        case 'pageLevel': {
          if (!plan) throw new Error('The alert machine pages a level it has not planned');
          // A channel that is down must not hold the escalation (its retries last about a minute):
          // the level's delay runs from when it was paged, while its sends retry. Runs that
          // started before this awaited their sends and must go on doing so.
          if (patched('page-next-level-on-time')) inBackground(deliver(plan.sends, null));
          else await deliver(plan.sends, null);
          event = { type: 'paged' };
          break;
        }
        case 'checkPatch':
          // Runs that waited out the delay of a level that reached nobody must go on doing so.
          event = { type: 'patchChecked', applies: patched(command.patch) };
          break;
        case 'tellTold':
          await tellTold(command.action, command.actor, command.round);
          event = { type: 'told' };
          break;
        case 'wait': {
          const { wakeOn, timeoutMs } = command;
          const awake = () => isAwake(m, wakeOn);
          if (timeoutMs === null) {
            await condition(awake);
            event = { type: 'woken' };
          } else {
            event = (await condition(awake, timeoutMs)) ? { type: 'woken' } : { type: 'timerElapsed' };
          }
          break;
        }
        case 'continueAsNew':
          // Sends still retrying are awaited: a new run could not settle them.
          await settle();
          if (command.resume) await continueAsNew<typeof alertWorkflow>({ ...ref, resume: command.resume });
          else await continueAsNew<typeof alertWorkflow>({ ...ref });
          break;
        case 'finish':
          return command.result;
      }
    }
    if (!event) throw new Error('The alert machine left the workflow nothing to wait for');
    const next = advance(m, event, { now: Date.now(), continueAsNewSuggested: workflowInfo().continueAsNewSuggested });
    m = next.state;
    commands = next.commands;
  }
}
