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
import type { AlertEvaluation, AlertSubjectRef } from '../usecases/alerting/alert-store';
import type { SendSpec } from '../usecases/alerting/alert-sends';
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
  resume?: { alertId: string; stepIndex: number; round: number; acknowledgedBy: string | null; seq: number };
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
 */
export async function alertWorkflow(input: AlertWorkflowInput): Promise<string> {
  const ref: AlertSubjectRef = {
    organizationId: input.organizationId,
    ruleId: input.ruleId,
    subjectId: input.subjectId,
  };
  const pending: SubjectChange[] = [];
  const seenSignals = new Set<string>();
  let ack: { by: string; note?: string } | null = null;
  let resolveNote: string | undefined;
  let resolveBy: string | null = null;
  let snooze: { by: string; minutes: number } | null = null;
  let alertId: string | null = input.resume?.alertId ?? null;
  let state = input.resume ? (input.resume.acknowledgedBy ? 'acknowledged' : 'triggered') : 'evaluating';
  let snoozedUntil: string | null = null;
  let seq = input.resume?.seq ?? 0;
  const key = (kind: string) => `${kind}:${workflowInfo().runId.slice(0, 8)}:${++seq}`;

  setHandler(subjectChangedSignal, (change) => {
    if (seenSignals.has(change.signalId)) return;
    seenSignals.add(change.signalId);
    pending.push(change);
  });
  setHandler(alertStateQuery, () => ({ alert_id: alertId, state, snoozed_until: snoozedUntil }));
  const openValidator = () => {
    if (!alertId || state === 'evaluating') throw new InvalidTransition('The alert is not open yet');
    if (state === 'resolved') throw new InvalidTransition('The alert is already resolved');
  };
  setHandler(
    acknowledgeAlertUpdate,
    async ({ by, note }) => {
      if (state !== 'acknowledged') ack = ack ?? { by, ...(note ? { note } : {}) };
      await condition(() => state === 'acknowledged' || state === 'resolved');
      return { alert_id: alertId, state, snoozed_until: snoozedUntil };
    },
    { validator: (_req: { by: string }) => openValidator() },
  );
  setHandler(
    resolveAlertUpdate,
    async ({ by, note }) => {
      if (resolveBy === null && note) resolveNote = note;
      resolveBy = resolveBy ?? by;
      await condition(() => state === 'resolved');
      return { alert_id: alertId, state };
    },
    { validator: (_req: { by: string }) => openValidator() },
  );
  setHandler(
    snoozeAlertUpdate,
    async (req) => {
      snooze = req;
      await condition(() => snooze === null || state === 'resolved');
      return { alert_id: alertId, state, snoozed_until: snoozedUntil };
    },
    {
      validator: (req: { by: string; minutes: number }) => {
        openValidator();
        if (state !== 'triggered' && state !== 'acknowledged')
          throw new InvalidTransition(`A ${state} alert cannot be snoozed`);
        if (!Number.isInteger(req.minutes) || req.minutes < 1 || req.minutes > 1440)
          throw new InvalidTransition('minutes must be a whole number from 1 to 1440');
      },
    },
  );

  // Read through functions: the handlers change these between awaits, which TypeScript's narrowing cannot see.
  const ackReq = (): { by: string; note?: string } | null => ack;
  const snoozeReq = (): { by: string; minutes: number } | null => snooze;
  const resolveReq = (): string | null => resolveBy;
  const setState = (s: string) => {
    state = s;
    upsertSearchAttributes([{ key: ALERT_STATE, value: s }]);
  };

  let ev: AlertEvaluation = await local.evaluateAlert(ref);
  pending.length = 0;
  if (!alertId) {
    if (!ev.live || !ev.firing) {
      setState('not_firing');
      return 'not_firing';
    }
    alertId = (await local.openAlert({ ref, evaluation: ev })).alertId;
  }
  const id = alertId;
  setState(input.resume?.acknowledgedBy ? 'acknowledged' : ev.suppression ? 'suppressed' : 'triggered');
  let stepIndex = input.resume?.stepIndex ?? 0;
  let round = input.resume?.round ?? 0;
  let acknowledgedBy: string | null = input.resume?.acknowledgedBy ?? null;

  const change = (c: Parameters<Activities['recordAlertChange']>[0]['change']) =>
    local.recordAlertChange({ alertId: id, change: c });
  const deliver = async (sends: SendSpec[], actor: string | null) => {
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
  // A level's sends still retrying while the escalation has moved on (see the level's step below).
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
  const tellTold = async (action: AlertAction, actor: string) => {
    await settle();
    await deliver(await local.planToldTargets({ alertId: id, action, round: seq }), actor);
  };

  const resolve = async (by: string, auto: boolean): Promise<string> => {
    await change({
      kind: 'resolved',
      key: key('resolved'),
      actor: by,
      auto,
      ...(resolveNote && !auto ? { note: resolveNote } : {}),
    });
    setState('resolved');
    await tellTold('resolve', by);
    // A new trigger that arrived as this one resolved starts the next alert.
    if (pending.some((p) => p.firing)) await continueAsNew<typeof alertWorkflow>({ ...ref });
    return 'resolved';
  };

  /** Re-reads the subject after signals; answers a resolution when it ends the alert. */
  const reevaluate = async (): Promise<string | null> => {
    const firingSignals = pending.filter((p) => p.firing).length;
    pending.length = 0;
    const wasFiring = ev.firing;
    ev = await local.evaluateAlert(ref);
    if (!ev.live) return resolve('vigil (rule or subject removed)', true);
    if (!ev.firing && ev.autoResolve) return resolve('vigil (recovered)', true);
    if (ev.firing && (!wasFiring || firingSignals > 0))
      await change({ kind: 'retriggered', key: key('retriggered'), status: ev.status });
    return null;
  };

  for (;;) {
    if (workflowInfo().continueAsNewSuggested) {
      await settle();
      await continueAsNew<typeof alertWorkflow>({
        ...ref,
        resume: { alertId: id, stepIndex, round, acknowledgedBy, seq },
      });
    }
    const by = resolveReq();
    if (by) return resolve(by, false);

    if (ev.suppression && state !== 'acknowledged') {
      if (state !== 'suppressed') {
        await change({ kind: 'suppressed', key: key('suppressed'), suppression: ev.suppression });
        setState('suppressed');
      }
      const untilMs = Date.parse(ev.suppression.until) - Date.now();
      await condition(
        () => pending.length > 0 || resolveBy !== null || ack !== null,
        Math.max(1_000, Math.min(untilMs, 60_000)),
      );
      if (resolveReq()) continue;
      const a = ackReq();
      if (a) {
        acknowledgedBy = a.by;
        ack = null;
        await change({
          kind: 'acknowledged',
          key: key('acknowledged'),
          actor: a.by,
          ...(a.note ? { note: a.note } : {}),
        });
        setState('acknowledged');
        continue;
      }
      const done = await reevaluate();
      if (done) return done;
      if (!ev.suppression) {
        await change({ kind: 'unsuppressed', key: key('unsuppressed') });
        setState('triggered');
      }
      continue;
    }

    if (state === 'triggered') {
      const step = ev.steps[stepIndex];
      if (step) {
        const action: AlertAction = stepIndex === 0 && round === 0 ? 'trigger' : 'escalate';
        const plan = await local.planAlertStep({
          organizationId: ref.organizationId,
          alertId: id,
          step,
          action,
          ...(round > 0 ? { round } : {}),
        });
        const skipped = plan.skipped.length ? { skipped: plan.skipped } : {};
        await change({
          kind: stepIndex === 0 ? 'notified_level' : 'escalated',
          key: key(`step-${round}-${stepIndex}`),
          level: step.level,
          pass: step.pass,
          ...skipped,
        });
        // A channel that is down must not hold the escalation (its retries last about a minute):
        // the level's delay runs from when it was paged, while its sends retry.
        if (patched('page-next-level-on-time')) inBackground(deliver(plan.sends, null));
        else await deliver(plan.sends, null);
        // A level that could reach nobody (everyone disabled, nobody on call) is passed at once, as
        // if nobody were on call there, instead of waiting out its delay with nobody paged.
        if (plan.sends.length === 0 && step.wait_after_ms !== null && patched('escalate-past-unreachable-level')) {
          stepIndex += 1;
          continue;
        }
      }
      const wait = step?.wait_after_ms ?? null;
      const wake = () => pending.length > 0 || resolveBy !== null || ack !== null || snooze !== null;
      if (wait === null) {
        // The last step (or no policy): wait for a person or a recovery.
        await condition(wake);
      } else if (!(await condition(wake, wait))) {
        stepIndex += 1;
        continue;
      }
    } else {
      // Acknowledged: no more escalation; wait for a resolution, a recovery or a snooze.
      await condition(
        () => pending.length > 0 || resolveBy !== null || snooze !== null || (ack !== null && state !== 'acknowledged'),
      );
    }

    if (resolveReq()) continue;
    const a = ackReq();
    if (a) {
      const by = a.by;
      ack = null;
      if (state !== 'acknowledged') {
        acknowledgedBy = by;
        await change({
          kind: 'acknowledged',
          key: key('acknowledged'),
          actor: by,
          ...(a.note ? { note: a.note } : {}),
        });
        setState('acknowledged');
        await tellTold('acknowledge', by);
      }
      continue;
    }
    const req = snoozeReq();
    if (req) {
      const minuteMs = ev.minuteMs;
      const until = new Date(Date.now() + req.minutes * minuteMs).toISOString();
      await change({ kind: 'snoozed', key: key('snoozed'), actor: req.by, until });
      snoozedUntil = until;
      setState('acknowledged');
      snooze = null;
      // Quiet until the snooze's end: a change of the subject meanwhile is read (it may resolve the alert), a person may still resolve or snooze again.
      const until_ = Date.now() + req.minutes * minuteMs;
      let cut = false;
      while (Date.now() < until_) {
        const woke = await condition(
          () => resolveBy !== null || pending.length > 0 || snooze !== null,
          until_ - Date.now(),
        );
        if (!woke) break;
        if (resolveBy !== null || snoozeReq() !== null) {
          cut = true;
          break;
        }
        const done = await reevaluate();
        if (done) return done;
      }
      if (cut) continue;
      // The snooze ran out: if it still fires, escalation starts again from the first level.
      const done = await reevaluate();
      if (done) return done;
      snoozedUntil = null;
      acknowledgedBy = null;
      if (ev.firing) {
        await change({ kind: 'snooze_ended', key: key('snooze-ended') });
        setState('triggered');
        stepIndex = 0;
        round += 1;
      }
      continue;
    }
    if (pending.length) {
      const done = await reevaluate();
      if (done) return done;
    }
  }
}
