/**
 * The life of one alert as a pure state machine: what the alert workflow decides, without what
 * it does. The workflow feeds it events (what an activity answered, a wait that ended, a patch
 * decision) and executes the commands it answers with, in order; requests (signals and updates)
 * land in its inbox, where the next decision reads them.
 *
 * The machine fires, pages level after level (each level's delay before the next, a level that
 * reaches nobody passed at once), stops escalating when acknowledged or snoozed, holds while a
 * maintenance or silence covers the subject, starts over from the first level when a snooze ends
 * with the subject still firing, and resolves by hand or when the subject recovers or goes away,
 * telling everyone it told.
 *
 * Protocol: every step answers a batch of commands. Only `publishStatus` produces no outcome;
 * the batch's last command is either terminal (`finish`, `continueAsNew`) or the one whose outcome
 * is the next event. The machine waits for exactly one event at a time (its phase) and changes
 * what requests, queries and validators see only in a step, so the workflow reaches every
 * Temporal call at the same point of its run as the single function it replaced.
 */
import type { AlertAction } from './alert-message';
import type { EscalationStep } from './escalation';

/** The alert's state as queries, search attributes and the API show it. */
export type AlertStatus = 'evaluating' | 'not_firing' | 'triggered' | 'suppressed' | 'acknowledged' | 'resolved';

/** A maintenance or silence covering the subject (the evaluation's, passed through to the record). */
export interface AlertSuppression {
  kind: 'maintenance' | 'silence';
  id: string;
  title: string;
  until: string;
}

/** What the machine reads of an evaluation of the rule and its subject. */
export interface AlertReading {
  /** False when the rule or the subject is gone. */
  live: boolean;
  firing: boolean;
  status: string;
  autoResolve: boolean;
  suppression: AlertSuppression | null;
  steps: EscalationStep[];
  /** The installation's minute, in which snoozes are counted. */
  minuteMs: number;
}

export interface SkippedTarget {
  target: string;
  why: string;
}

/** A change of the alert to record (its row, timeline and webhook event), once per key. */
export type AlertChangeRecord =
  | { kind: 'escalated'; key: string; level: number; pass: number; skipped?: SkippedTarget[] }
  | { kind: 'notified_level'; key: string; level: number; pass: number; skipped?: SkippedTarget[] }
  | { kind: 'retriggered'; key: string; status: string }
  | { kind: 'suppressed'; key: string; suppression: AlertSuppression }
  | { kind: 'unsuppressed'; key: string }
  | { kind: 'acknowledged'; key: string; actor: string; note?: string }
  | { kind: 'snoozed'; key: string; actor: string; until: string }
  | { kind: 'snooze_ended'; key: string }
  | { kind: 'resolved'; key: string; actor: string; auto: boolean; note?: string };

/** Where a run that continues as new picks the alert up. */
export interface AlertResume {
  alertId: string;
  stepIndex: number;
  round: number;
  acknowledgedBy: string | null;
  seq: number;
}

/** What ends a wait besides its timer. */
export type WakeReason = 'signal' | 'resolve' | 'ack' | 'snooze';

export type AlertCommand =
  /** Evaluate the rule and subject; outcome `evaluated`. */
  | { type: 'evaluate' }
  /** Open the alert for the evaluation just read; outcome `opened`. */
  | { type: 'open' }
  /** Show the alert's state (search attribute); no outcome. */
  | { type: 'publishStatus'; status: AlertStatus }
  /** Record a change; outcome `recorded`. */
  | { type: 'record'; change: AlertChangeRecord }
  /** Resolve who a level pages now; outcome `planned`. */
  | { type: 'planLevel'; step: EscalationStep; action: AlertAction; round: number }
  /** Send the level's plan just made; outcome `paged` (the sends may still be retrying). */
  | { type: 'pageLevel'; step: EscalationStep }
  /** Tell everyone the alert told (after the sends still retrying); outcome `told`. */
  | { type: 'tellTold'; action: 'acknowledge' | 'resolve'; actor: string; round: number }
  /** Wait until a request of these kinds is in the inbox, or the timer runs out; outcome `woken` or `timerElapsed`. */
  | { type: 'wait'; wakeOn: WakeReason[]; timeoutMs: number | null }
  /** Ask whether this run takes a patched branch; outcome `patchChecked`. */
  | { type: 'checkPatch'; patch: 'escalate-past-unreachable-level' }
  /** End this run and carry the alert on in a new one (`resume` null: a new alert of the same rule and subject). */
  | { type: 'continueAsNew'; resume: AlertResume | null }
  | { type: 'finish'; result: 'not_firing' | 'resolved' };

export type AlertEvent =
  | { type: 'evaluated'; reading: AlertReading }
  | { type: 'opened'; alertId: string }
  | { type: 'recorded' }
  | { type: 'planned'; sendCount: number; skipped: SkippedTarget[] }
  | { type: 'paged' }
  | { type: 'told' }
  | { type: 'woken' }
  | { type: 'timerElapsed' }
  | { type: 'patchChecked'; applies: boolean };

/** Requests from outside: the subject's signals and people's updates. */
export type AlertRequest =
  | { type: 'subjectChanged'; signalId: string; firing: boolean }
  | { type: 'acknowledge'; by: string; note?: string }
  | { type: 'resolve'; by: string; note?: string }
  | { type: 'snooze'; by: string; minutes: number };

/** The workflow's clock and Temporal's advice at the moment an event is fed. */
export interface AlertMoment {
  now: number;
  continueAsNewSuggested: boolean;
}

export interface AlertInbox {
  /** Signal ids seen, so a signal delivered twice counts once. */
  seenSignals: string[];
  pending: { signalId: string; firing: boolean }[];
  ack: { by: string; note?: string } | null;
  resolveBy: string | null;
  resolveNote?: string;
  snooze: { by: string; minutes: number } | null;
}

/** What happens once a re-evaluation has neither resolved the alert nor been recorded as a retrigger. */
type AfterReevaluation =
  | { then: 'check-suppression' }
  | { then: 'snooze-goes-on'; endsAt: number }
  | { then: 'snooze-over' }
  | { then: 'carry-on' };

type AfterRecord =
  | { then: 'page'; step: EscalationStep; sendCount: number }
  | { then: 'hold-suppressed' }
  | { then: 'acknowledged'; by: string; tell: boolean }
  | { then: 'snoozed'; until: string; minutes: number }
  | { then: 'unsuppressed' }
  | { then: 'snooze-ended' }
  | { then: 'resolved'; by: string }
  | { then: 'retriggered'; after: AfterReevaluation };

type AlertWait =
  /** A level's delay (timed) or, after the last level, no timer: for a person or the subject. */
  | { for: 'level'; timed: boolean }
  /** Acknowledged: for a resolution, a snooze or the subject. */
  | { for: 'resolution' }
  | { for: 'suppression-end' }
  | { for: 'snooze-end'; endsAt: number };

export type AlertPhase =
  | { awaiting: 'first-evaluation' }
  | { awaiting: 'opening' }
  | { awaiting: 'plan'; step: EscalationStep }
  | { awaiting: 'record'; after: AfterRecord }
  | { awaiting: 'paging'; step: EscalationStep; sendCount: number }
  | { awaiting: 'patch'; step: EscalationStep }
  | { awaiting: 'wait'; wait: AlertWait }
  | { awaiting: 'telling'; then: 'carry-on' | 'end' }
  | { awaiting: 'reevaluation'; wasFiring: boolean; firingSignals: number; after: AfterReevaluation }
  | { awaiting: 'nothing' };

export interface AlertMachine {
  /** The run's tag in record keys (the first characters of its run id). */
  runTag: string;
  alertId: string | null;
  status: AlertStatus;
  snoozedUntil: string | null;
  /** Counter of record keys (and the round of told-targets plans). */
  seq: number;
  /** Index into the reading's steps: the level (of its pass) paged next or last. */
  stepIndex: number;
  /** One more after each snooze that ran out with the subject still firing. */
  round: number;
  acknowledgedBy: string | null;
  reading: AlertReading | null;
  inbox: AlertInbox;
  phase: AlertPhase;
}

export interface AlertStep {
  state: AlertMachine;
  commands: AlertCommand[];
}

/** A suppression is re-read at least this often, and at most this late after its end. */
const SUPPRESSION_WAIT_MIN_MS = 1_000;
const SUPPRESSION_WAIT_MAX_MS = 60_000;

const AUTO_RECOVERED = 'vigil (recovered)';
const AUTO_GONE = 'vigil (rule or subject removed)';

export function startAlert(init: { runTag: string; resume?: AlertResume }): AlertStep {
  const { resume } = init;
  const state: AlertMachine = {
    runTag: init.runTag,
    alertId: resume?.alertId ?? null,
    status: resume ? (resume.acknowledgedBy ? 'acknowledged' : 'triggered') : 'evaluating',
    snoozedUntil: null,
    seq: resume?.seq ?? 0,
    stepIndex: resume?.stepIndex ?? 0,
    round: resume?.round ?? 0,
    acknowledgedBy: resume?.acknowledgedBy ?? null,
    reading: null,
    inbox: { seenSignals: [], pending: [], ack: null, resolveBy: null, snooze: null },
    phase: { awaiting: 'first-evaluation' },
  };
  return { state, commands: [{ type: 'evaluate' }] };
}

/** Files a request in the inbox; the machine acts on it at its next decision. */
export function receive(s: AlertMachine, request: AlertRequest): AlertMachine {
  const inbox = s.inbox;
  switch (request.type) {
    case 'subjectChanged': {
      if (inbox.seenSignals.includes(request.signalId)) return s;
      const change = { signalId: request.signalId, firing: request.firing };
      return withInbox(s, {
        seenSignals: [...inbox.seenSignals, request.signalId],
        pending: [...inbox.pending, change],
      });
    }
    case 'acknowledge':
      // An acknowledged alert takes no second acknowledgement; a first one not yet acted on stays.
      if (s.status === 'acknowledged' || inbox.ack) return s;
      return withInbox(s, { ack: { by: request.by, ...(request.note ? { note: request.note } : {}) } });
    case 'resolve':
      if (inbox.resolveBy !== null) return s;
      return withInbox(s, { resolveBy: request.by, ...(request.note ? { resolveNote: request.note } : {}) });
    case 'snooze':
      return withInbox(s, { snooze: { by: request.by, minutes: request.minutes } });
  }
}

/** Why the alert refuses a person's request now, or null when it takes it. */
export function refusal(
  s: AlertMachine,
  request: { type: 'acknowledge' | 'resolve' } | { type: 'snooze'; minutes: number },
): string | null {
  if (!s.alertId || s.status === 'evaluating') return 'The alert is not open yet';
  if (s.status === 'resolved') return 'The alert is already resolved';
  if (request.type !== 'snooze') return null;
  if (s.status !== 'triggered' && s.status !== 'acknowledged') return `A ${s.status} alert cannot be snoozed`;
  if (!Number.isInteger(request.minutes) || request.minutes < 1 || request.minutes > 1440)
    return 'minutes must be a whole number from 1 to 1440';
  return null;
}

/** Whether the inbox holds something a wait for these reasons ends on. */
export function isAwake(s: AlertMachine, wakeOn: readonly WakeReason[]): boolean {
  return wakeOn.some((reason) => {
    switch (reason) {
      case 'signal':
        return s.inbox.pending.length > 0;
      case 'resolve':
        return s.inbox.resolveBy !== null;
      case 'ack':
        return s.inbox.ack !== null;
      case 'snooze':
        return s.inbox.snooze !== null;
    }
  });
}

/** The next step: the event is the outcome of the last command of the previous step. */
export function advance(s: AlertMachine, event: AlertEvent, at: AlertMoment): AlertStep {
  const phase = s.phase;
  switch (phase.awaiting) {
    case 'first-evaluation': {
      const reading = outcome(event, 'evaluated', phase).reading;
      // Signals that arrived while the alert was first read are what it just read.
      const t = withInbox({ ...s, reading }, { pending: [] });
      if (t.alertId) return opened(t, at);
      if (!reading.live || !reading.firing) return finish({ ...t, status: 'not_firing' }, 'not_firing', true);
      return { state: { ...t, phase: { awaiting: 'opening' } }, commands: [{ type: 'open' }] };
    }
    case 'opening':
      return opened({ ...s, alertId: outcome(event, 'opened', phase).alertId }, at);
    case 'plan': {
      const { skipped, sendCount } = outcome(event, 'planned', phase);
      const { step } = phase;
      return record(
        s,
        (key) => ({
          kind: s.stepIndex === 0 ? 'notified_level' : 'escalated',
          key: key(`step-${s.round}-${s.stepIndex}`),
          level: step.level,
          pass: step.pass,
          ...(skipped.length ? { skipped } : {}),
        }),
        { then: 'page', step, sendCount },
      );
    }
    case 'record':
      outcome(event, 'recorded', phase);
      return afterRecord(s, phase.after, at);
    case 'paging': {
      outcome(event, 'paged', phase);
      const { step } = phase;
      // A level that could reach nobody (everyone disabled, nobody on call) is passed at once, as
      // if nobody were on call there, instead of waiting out its delay with nobody paged.
      if (phase.sendCount === 0 && step.wait_after_ms !== null)
        return {
          state: { ...s, phase: { awaiting: 'patch', step } },
          commands: [{ type: 'checkPatch', patch: 'escalate-past-unreachable-level' }],
        };
      return levelWait(s, step.wait_after_ms);
    }
    case 'patch': {
      if (outcome(event, 'patchChecked', phase).applies) return decide({ ...s, stepIndex: s.stepIndex + 1 }, at);
      // Runs that paged before the pass-at-once existed wait out the delay of a level that reached nobody.
      return levelWait(s, phase.step.wait_after_ms);
    }
    case 'wait':
      return afterWait(s, phase.wait, event, at);
    case 'telling':
      outcome(event, 'told', phase);
      if (phase.then === 'carry-on') return decide(s, at);
      // A new trigger that arrived as this one resolved starts the next alert.
      if (s.inbox.pending.some((p) => p.firing))
        return { state: { ...s, phase: { awaiting: 'nothing' } }, commands: [{ type: 'continueAsNew', resume: null }] };
      return finish(s, 'resolved', false);
    case 'reevaluation':
      return reevaluated(s, phase, outcome(event, 'evaluated', phase).reading, at);
    case 'nothing':
      throw new Error(`The alert machine has ended; it got '${event.type}'`);
  }
}

function outcome<T extends AlertEvent['type']>(
  event: AlertEvent,
  type: T,
  phase: AlertPhase,
): Extract<AlertEvent, { type: T }> {
  if (event.type !== type)
    throw new Error(`The alert machine awaits '${type}' (${phase.awaiting}) but got '${event.type}'`);
  return event as Extract<AlertEvent, { type: T }>;
}

function withInbox(s: AlertMachine, inbox: Partial<AlertInbox>): AlertMachine {
  return { ...s, inbox: { ...s.inbox, ...inbox } };
}

function reading(s: AlertMachine): AlertReading {
  if (!s.reading) throw new Error('The alert machine has not read the alert yet');
  return s.reading;
}

function finish(s: AlertMachine, result: 'not_firing' | 'resolved', publish: boolean): AlertStep {
  return {
    state: { ...s, phase: { awaiting: 'nothing' } },
    commands: [...(publish ? [{ type: 'publishStatus', status: s.status } as const] : []), { type: 'finish', result }],
  };
}

/** Records a change under the next key, then carries on as `after` says. */
function record(
  s: AlertMachine,
  change: (key: (kind: string) => string) => AlertChangeRecord,
  after: AfterRecord,
): AlertStep {
  let seq = s.seq;
  const made = change((kind) => `${kind}:${s.runTag}:${++seq}`);
  return { state: { ...s, seq, phase: { awaiting: 'record', after } }, commands: [{ type: 'record', change: made }] };
}

/** Prepends a status change (shown at once) to the step that follows it. */
function publishing(s: AlertMachine, status: AlertStatus, next: (s: AlertMachine) => AlertStep): AlertStep {
  const step = next({ ...s, status });
  return { state: step.state, commands: [{ type: 'publishStatus', status }, ...step.commands] };
}

/** The alert is open: it starts as acknowledged (a continued run), suppressed or triggered. */
function opened(s: AlertMachine, at: AlertMoment): AlertStep {
  const status = s.acknowledgedBy ? 'acknowledged' : reading(s).suppression ? 'suppressed' : 'triggered';
  return publishing(s, status, (t) => decide(t, at));
}

/** The top of the escalation: what the alert does next, from its state and inbox. */
function decide(s: AlertMachine, at: AlertMoment): AlertStep {
  if (at.continueAsNewSuggested) {
    if (!s.alertId) throw new Error('The alert machine escalates an alert that is not open');
    const resume: AlertResume = {
      alertId: s.alertId,
      stepIndex: s.stepIndex,
      round: s.round,
      acknowledgedBy: s.acknowledgedBy,
      seq: s.seq,
    };
    return { state: { ...s, phase: { awaiting: 'nothing' } }, commands: [{ type: 'continueAsNew', resume }] };
  }
  if (s.inbox.resolveBy) return resolve(s, s.inbox.resolveBy, false);
  const r = reading(s);
  if (r.suppression && s.status !== 'acknowledged') {
    const suppression = r.suppression;
    if (s.status !== 'suppressed')
      return record(s, (key) => ({ kind: 'suppressed', key: key('suppressed'), suppression }), {
        then: 'hold-suppressed',
      });
    return suppressionWait(s, at);
  }
  if (s.status === 'triggered') {
    const step = r.steps[s.stepIndex];
    // Past the last step (or no policy): nobody more to page; wait for a person or a recovery.
    if (!step) return levelWait(s, null);
    const action: AlertAction = s.stepIndex === 0 && s.round === 0 ? 'trigger' : 'escalate';
    return {
      state: { ...s, phase: { awaiting: 'plan', step } },
      commands: [{ type: 'planLevel', step, action, round: s.round }],
    };
  }
  // Acknowledged: no more escalation; wait for a resolution, a recovery or a snooze.
  return waitFor(s, { for: 'resolution' }, ['signal', 'resolve', 'snooze'], null);
}

function waitFor(s: AlertMachine, wait: AlertWait, wakeOn: WakeReason[], timeoutMs: number | null): AlertStep {
  return { state: { ...s, phase: { awaiting: 'wait', wait } }, commands: [{ type: 'wait', wakeOn, timeoutMs }] };
}

/** A level's delay, or after the last level no timer: a person or the subject ends it early. */
function levelWait(s: AlertMachine, waitMs: number | null): AlertStep {
  return waitFor(s, { for: 'level', timed: waitMs !== null }, ['signal', 'resolve', 'ack', 'snooze'], waitMs);
}

/** Held while suppressed: the suppression is read again at its end, and at least every minute. */
function suppressionWait(s: AlertMachine, at: AlertMoment): AlertStep {
  const untilMs = Date.parse(reading(s).suppression?.until ?? '') - at.now;
  const timeoutMs = Math.max(SUPPRESSION_WAIT_MIN_MS, Math.min(untilMs, SUPPRESSION_WAIT_MAX_MS));
  return waitFor(s, { for: 'suppression-end' }, ['signal', 'resolve', 'ack'], timeoutMs);
}

/** Quiet until the snooze's end: the subject is still read, a person may still resolve or snooze again. */
function snoozeGoesOn(s: AlertMachine, endsAt: number, at: AlertMoment): AlertStep {
  if (at.now < endsAt)
    return waitFor(s, { for: 'snooze-end', endsAt }, ['resolve', 'signal', 'snooze'], endsAt - at.now);
  return reevaluate(s, { then: 'snooze-over' });
}

function afterWait(s: AlertMachine, wait: AlertWait, event: AlertEvent, at: AlertMoment): AlertStep {
  if (event.type !== 'woken' && event.type !== 'timerElapsed')
    throw new Error(`The alert machine awaits the end of a wait but got '${event.type}'`);
  const elapsed = event.type === 'timerElapsed';
  switch (wait.for) {
    case 'suppression-end': {
      // Woken or not, the suppression is looked at again.
      if (s.inbox.resolveBy) return decide(s, at);
      const ack = s.inbox.ack;
      if (ack) {
        const t = withInbox({ ...s, acknowledgedBy: ack.by }, { ack: null });
        return record(t, (key) => acknowledgement(key, ack), { then: 'acknowledged', by: ack.by, tell: false });
      }
      return reevaluate(s, { then: 'check-suppression' });
    }
    case 'snooze-end':
      if (elapsed) return reevaluate(s, { then: 'snooze-over' });
      // A resolution or a new snooze cuts the snooze short.
      if (s.inbox.resolveBy !== null || s.inbox.snooze !== null) return decide(s, at);
      return reevaluate(s, { then: 'snooze-goes-on', endsAt: wait.endsAt });
    case 'level':
      if (elapsed) {
        if (!wait.timed) throw new Error('The alert machine got a timer for a wait without one');
        return decide({ ...s, stepIndex: s.stepIndex + 1 }, at);
      }
      return woken(s, at);
    case 'resolution':
      if (elapsed) throw new Error('The alert machine got a timer for a wait without one');
      return woken(s, at);
  }
}

function acknowledgement(key: (kind: string) => string, ack: { by: string; note?: string }): AlertChangeRecord {
  return { kind: 'acknowledged', key: key('acknowledged'), actor: ack.by, ...(ack.note ? { note: ack.note } : {}) };
}

/** A person or the subject ended an escalation's wait: act on the inbox, one request at a time. */
function woken(s: AlertMachine, at: AlertMoment): AlertStep {
  if (s.inbox.resolveBy) return decide(s, at);
  const ack = s.inbox.ack;
  if (ack) {
    const t = withInbox(s, { ack: null });
    if (t.status === 'acknowledged') return decide(t, at);
    return record({ ...t, acknowledgedBy: ack.by }, (key) => acknowledgement(key, ack), {
      then: 'acknowledged',
      by: ack.by,
      tell: true,
    });
  }
  const snooze = s.inbox.snooze;
  if (snooze) {
    const until = new Date(at.now + snooze.minutes * reading(s).minuteMs).toISOString();
    return record(s, (key) => ({ kind: 'snoozed', key: key('snoozed'), actor: snooze.by, until }), {
      then: 'snoozed',
      until,
      minutes: snooze.minutes,
    });
  }
  if (s.inbox.pending.length) return reevaluate(s, { then: 'carry-on' });
  return decide(s, at);
}

function afterRecord(s: AlertMachine, after: AfterRecord, at: AlertMoment): AlertStep {
  switch (after.then) {
    case 'page':
      // A channel that is down must not hold the escalation: the level's delay runs from when it
      // was paged, while its sends retry (in runs that started with that patch; see the workflow).
      return {
        state: { ...s, phase: { awaiting: 'paging', step: after.step, sendCount: after.sendCount } },
        commands: [{ type: 'pageLevel', step: after.step }],
      };
    case 'hold-suppressed':
      return publishing(s, 'suppressed', (t) => suppressionWait(t, at));
    case 'acknowledged':
      if (!after.tell) return publishing(s, 'acknowledged', (t) => decide(t, at));
      return publishing(s, 'acknowledged', (t) => tell(t, 'acknowledge', after.by, 'carry-on'));
    case 'snoozed': {
      // The snooze's end counts from now, when it is on record.
      const endsAt = at.now + after.minutes * reading(s).minuteMs;
      const t = withInbox({ ...s, snoozedUntil: after.until }, { snooze: null });
      return publishing(t, 'acknowledged', (u) => snoozeGoesOn(u, endsAt, at));
    }
    case 'unsuppressed':
      return publishing(s, 'triggered', (t) => decide(t, at));
    case 'snooze-ended':
      // Escalation starts again from the first level, as a new round.
      return publishing(s, 'triggered', (t) => decide({ ...t, stepIndex: 0, round: t.round + 1 }, at));
    case 'resolved':
      return publishing(s, 'resolved', (t) => tell(t, 'resolve', after.by, 'end'));
    case 'retriggered':
      return carryOnAfterReevaluation(s, after.after, at);
  }
}

function tell(s: AlertMachine, action: 'acknowledge' | 'resolve', actor: string, then: 'carry-on' | 'end'): AlertStep {
  return {
    state: { ...s, phase: { awaiting: 'telling', then } },
    commands: [{ type: 'tellTold', action, actor, round: s.seq }],
  };
}

function resolve(s: AlertMachine, by: string, auto: boolean): AlertStep {
  const note = s.inbox.resolveNote;
  return record(
    s,
    (key) => ({ kind: 'resolved', key: key('resolved'), actor: by, auto, ...(note && !auto ? { note } : {}) }),
    { then: 'resolved', by },
  );
}

/** Reads the subject again after signals (or at a snooze's or suppression's end). */
function reevaluate(s: AlertMachine, after: AfterReevaluation): AlertStep {
  const firingSignals = s.inbox.pending.filter((p) => p.firing).length;
  const t = withInbox(s, { pending: [] });
  return {
    state: { ...t, phase: { awaiting: 'reevaluation', wasFiring: reading(s).firing, firingSignals, after } },
    commands: [{ type: 'evaluate' }],
  };
}

function reevaluated(
  s: AlertMachine,
  phase: Extract<AlertPhase, { awaiting: 'reevaluation' }>,
  r: AlertReading,
  at: AlertMoment,
): AlertStep {
  const t = { ...s, reading: r };
  if (!r.live) return resolve(t, AUTO_GONE, true);
  if (!r.firing && r.autoResolve) return resolve(t, AUTO_RECOVERED, true);
  if (r.firing && (!phase.wasFiring || phase.firingSignals > 0))
    return record(t, (key) => ({ kind: 'retriggered', key: key('retriggered'), status: r.status }), {
      then: 'retriggered',
      after: phase.after,
    });
  return carryOnAfterReevaluation(t, phase.after, at);
}

function carryOnAfterReevaluation(s: AlertMachine, after: AfterReevaluation, at: AlertMoment): AlertStep {
  switch (after.then) {
    case 'check-suppression':
      if (reading(s).suppression) return decide(s, at);
      return record(s, (key) => ({ kind: 'unsuppressed', key: key('unsuppressed') }), { then: 'unsuppressed' });
    case 'snooze-goes-on':
      return snoozeGoesOn(s, after.endsAt, at);
    case 'snooze-over': {
      // The snooze ran out: if it still fires, escalation starts again from the first level.
      const t = { ...s, snoozedUntil: null, acknowledgedBy: null };
      if (!reading(t).firing) return decide(t, at);
      return record(t, (key) => ({ kind: 'snooze_ended', key: key('snooze-ended') }), { then: 'snooze-ended' });
    }
    case 'carry-on':
      return decide(s, at);
  }
}
