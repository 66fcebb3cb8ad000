import {
  advance,
  isAwake,
  receive,
  refusal,
  startAlert,
  type AlertEvent,
  type AlertMachine,
  type AlertReading,
  type AlertStep,
  type WakeReason,
} from '../../src/domain/alerting/alert-machine';
import type { EscalationStep } from '../../src/domain/alerting/escalation';

const MIN = 60_000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const RUN = 'run00001';

const level = (n: number, waitMs: number | null, pass = 0): EscalationStep => ({
  level: n,
  pass,
  targets: [{ type: 'channel', id: `ch-${n}` }],
  wait_after_ms: waitMs,
});
/** Two levels, 5 and 10 minutes apart, no repeat. */
const TWO_LEVELS = [level(1, 5 * MIN), level(2, null)];

const reading = (over: Partial<AlertReading> = {}): AlertReading => ({
  live: true,
  firing: true,
  status: 'unhealthy',
  autoResolve: true,
  suppression: null,
  steps: TWO_LEVELS,
  minuteMs: MIN,
  ...over,
});

/** Feeds one event at a moment (the clock, and whether Temporal suggests continuing as new). */
const feed = (step: AlertStep | AlertMachine, event: AlertEvent, now = T0, continueAsNewSuggested = false) =>
  advance('state' in step ? step.state : step, event, { now, continueAsNewSuggested });
const file = (step: AlertStep, ...requests: Parameters<typeof receive>[1][]): AlertMachine =>
  requests.reduce(receive, step.state);

const ALL_WAKES: WakeReason[] = ['signal', 'resolve', 'ack', 'snooze'];

/** A new alert, evaluated as firing and opened: the first level is being planned. */
function opened(r = reading()): AlertStep {
  return feed(feed(startAlert({ runTag: RUN }), { type: 'evaluated', reading: r }), { type: 'opened', alertId: 'a1' });
}

/** The level being planned is planned with `sendCount` sends, recorded and paged. */
function paged(step: AlertStep, sendCount = 1, now = T0): AlertStep {
  const planned = feed(step, { type: 'planned', sendCount, skipped: [] }, now);
  return feed(feed(planned, { type: 'recorded' }, now), { type: 'paged' }, now);
}

/** Waiting out level 1's delay. */
const atLevel1 = () => paged(opened());

/** Acknowledged by ann: waiting for a resolution, a snooze or the subject. */
function acknowledged(): AlertStep {
  const woken = feed(file(atLevel1(), { type: 'acknowledge', by: 'ann' }), { type: 'woken' });
  return feed(feed(woken, { type: 'recorded' }), { type: 'told' });
}

/** Snoozed by bob for 3 minutes at T0, on record a second later. */
function snoozed(): AlertStep {
  const woken = feed(file(atLevel1(), { type: 'snooze', by: 'bob', minutes: 3 }), { type: 'woken' });
  return feed(woken, { type: 'recorded' }, T0 + 1_000);
}

describe('alert machine: the first evaluation', () => {
  it('starts by evaluating the rule and subject, not yet open', () => {
    const s = startAlert({ runTag: RUN });
    expect(s.commands).toEqual([{ type: 'evaluate' }]);
    expect(s.state).toMatchObject({ status: 'evaluating', alertId: null, seq: 0, stepIndex: 0, round: 0 });
  });

  it('ends as not firing when the subject does not fire, or the rule or subject is gone', () => {
    for (const r of [reading({ firing: false }), reading({ live: false })]) {
      const s = feed(startAlert({ runTag: RUN }), { type: 'evaluated', reading: r });
      expect(s.commands).toEqual([
        { type: 'publishStatus', status: 'not_firing' },
        { type: 'finish', result: 'not_firing' },
      ]);
      expect(s.state.status).toBe('not_firing');
    }
  });

  it('opens the alert when the subject fires, then shows it triggered and plans level 1 as the trigger', () => {
    const evaluated = feed(startAlert({ runTag: RUN }), { type: 'evaluated', reading: reading() });
    expect(evaluated.commands).toEqual([{ type: 'open' }]);
    expect(evaluated.state.status).toBe('evaluating');
    const s = feed(evaluated, { type: 'opened', alertId: 'a1' });
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'triggered' },
      { type: 'planLevel', step: TWO_LEVELS[0], action: 'trigger', round: 0 },
    ]);
    expect(s.state).toMatchObject({ alertId: 'a1', status: 'triggered' });
  });

  it('drops the signals that arrived while it first read the subject (that read already saw them)', () => {
    const started = startAlert({ runTag: RUN });
    const s = feed(file(started, { type: 'subjectChanged', signalId: 'sig-1', firing: true }), {
      type: 'evaluated',
      reading: reading(),
    });
    expect(s.state.inbox.pending).toEqual([]);
  });

  it('a run continued as new skips opening and carries on where the last run was', () => {
    const resume = { alertId: 'a1', stepIndex: 1, round: 2, acknowledgedBy: null, seq: 7 };
    const started = startAlert({ runTag: RUN, resume });
    expect(started.state).toMatchObject({ status: 'triggered', alertId: 'a1', seq: 7 });
    const s = feed(started, { type: 'evaluated', reading: reading() });
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'triggered' },
      { type: 'planLevel', step: TWO_LEVELS[1], action: 'escalate', round: 2 },
    ]);
  });

  it('a run continued as new while acknowledged stays acknowledged, even under a suppression', () => {
    const resume = { alertId: 'a1', stepIndex: 0, round: 0, acknowledgedBy: 'ann', seq: 3 };
    const started = startAlert({ runTag: RUN, resume });
    expect(started.state.status).toBe('acknowledged');
    const suppression = { kind: 'silence' as const, id: 's1', title: 'quiet', until: '2030-01-01T01:00:00.000Z' };
    const s = feed(started, { type: 'evaluated', reading: reading({ suppression }) });
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'acknowledged' },
      { type: 'wait', wakeOn: ['signal', 'resolve', 'snooze'], timeoutMs: null },
    ]);
  });
});

describe('alert machine: escalation through the levels', () => {
  it('records level 1 as notified once planned, with the targets it skipped, under a key of the run', () => {
    const skipped = [{ target: 'user:left@example.test', why: 'user disabled' }];
    const s = feed(opened(), { type: 'planned', sendCount: 2, skipped });
    expect(s.commands).toEqual([
      { type: 'record', change: { kind: 'notified_level', key: `step-0-0:${RUN}:1`, level: 1, pass: 0, skipped } },
    ]);
    expect(s.state.seq).toBe(1);
  });

  it('leaves skipped out of the record when nobody was skipped', () => {
    const s = feed(opened(), { type: 'planned', sendCount: 1, skipped: [] });
    expect(s.commands).toEqual([
      { type: 'record', change: { kind: 'notified_level', key: `step-0-0:${RUN}:1`, level: 1, pass: 0 } },
    ]);
  });

  it('pages the level once its change is on record', () => {
    const planned = feed(opened(), { type: 'planned', sendCount: 1, skipped: [] });
    expect(feed(planned, { type: 'recorded' }).commands).toEqual([{ type: 'pageLevel', step: TWO_LEVELS[0] }]);
  });

  it('waits out the level’s delay once paged; a person or the subject may end the wait early', () => {
    expect(atLevel1().commands).toEqual([{ type: 'wait', wakeOn: ALL_WAKES, timeoutMs: 5 * MIN }]);
  });

  it('plans the next level as an escalation when the delay elapses, and records it as escalated', () => {
    const s = feed(atLevel1(), { type: 'timerElapsed' });
    expect(s.state.stepIndex).toBe(1);
    expect(s.commands).toEqual([{ type: 'planLevel', step: TWO_LEVELS[1], action: 'escalate', round: 0 }]);
    expect(feed(s, { type: 'planned', sendCount: 1, skipped: [] }).commands).toEqual([
      { type: 'record', change: { kind: 'escalated', key: `step-0-1:${RUN}:2`, level: 2, pass: 0 } },
    ]);
  });

  it('walks the policy again on a repeat: level 1 of the second pass is an escalation', () => {
    const steps = [level(1, MIN), level(1, null, 1)];
    const s = feed(paged(opened(reading({ steps }))), { type: 'timerElapsed' });
    expect(s.commands).toEqual([{ type: 'planLevel', step: steps[1], action: 'escalate', round: 0 }]);
    expect(feed(s, { type: 'planned', sendCount: 1, skipped: [] }).commands).toEqual([
      { type: 'record', change: { kind: 'escalated', key: `step-0-1:${RUN}:2`, level: 1, pass: 1 } },
    ]);
  });

  it('gives up escalating after the last level: it waits, without a timer, for a person or the subject', () => {
    const s = paged(feed(atLevel1(), { type: 'timerElapsed' }));
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ALL_WAKES, timeoutMs: null }]);
    expect(() => feed(s, { type: 'timerElapsed' })).toThrow(/timer for a wait without one/);
  });

  it('without a policy, nobody is paged: it waits for a person or the subject', () => {
    expect(opened(reading({ steps: [] })).commands).toEqual([
      { type: 'publishStatus', status: 'triggered' },
      { type: 'wait', wakeOn: ALL_WAKES, timeoutMs: null },
    ]);
  });
});

describe('alert machine: a level that reaches nobody', () => {
  it('asks whether the run passes such a level at once', () => {
    expect(paged(opened(), 0).commands).toEqual([{ type: 'checkPatch', patch: 'escalate-past-unreachable-level' }]);
  });

  it('passes it at once to the next level when the run does', () => {
    const s = feed(paged(opened(), 0), { type: 'patchChecked', applies: true });
    expect(s.state.stepIndex).toBe(1);
    expect(s.commands).toEqual([{ type: 'planLevel', step: TWO_LEVELS[1], action: 'escalate', round: 0 }]);
  });

  it('waits out its delay in a run from before that (whose history waited)', () => {
    const s = feed(paged(opened(), 0), { type: 'patchChecked', applies: false });
    expect(s.state.stepIndex).toBe(0);
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ALL_WAKES, timeoutMs: 5 * MIN }]);
  });

  it('asks nothing for the last level, which has no delay to pass', () => {
    const s = paged(feed(atLevel1(), { type: 'timerElapsed' }), 0);
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ALL_WAKES, timeoutMs: null }]);
  });
});

describe('alert machine: acknowledgement', () => {
  it('records an acknowledgement that ends a level’s wait, with its note, and remembers who', () => {
    const waiting = file(atLevel1(), { type: 'acknowledge', by: 'ann', note: 'on it' });
    expect(isAwake(waiting, ALL_WAKES)).toBe(true);
    const s = feed(waiting, { type: 'woken' });
    expect(s.commands).toEqual([
      { type: 'record', change: { kind: 'acknowledged', key: `acknowledged:${RUN}:2`, actor: 'ann', note: 'on it' } },
    ]);
    expect(s.state).toMatchObject({ acknowledgedBy: 'ann', status: 'triggered', inbox: { ack: null } });
  });

  it('once recorded, shows it acknowledged and tells everyone it told', () => {
    const woken = feed(file(atLevel1(), { type: 'acknowledge', by: 'ann' }), { type: 'woken' });
    const s = feed(woken, { type: 'recorded' });
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'acknowledged' },
      { type: 'tellTold', action: 'acknowledge', actor: 'ann', round: 2 },
    ]);
    expect(s.state.status).toBe('acknowledged');
  });

  it('escalates no further once acknowledged: it waits, without a timer, for a resolution, a snooze or the subject', () => {
    const s = acknowledged();
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ['signal', 'resolve', 'snooze'], timeoutMs: null }]);
    expect(() => feed(s, { type: 'timerElapsed' })).toThrow(/timer for a wait without one/);
  });

  it('takes no second acknowledgement: an acknowledged alert ignores it, a pending one keeps the first', () => {
    const s = acknowledged();
    expect(receive(s.state, { type: 'acknowledge', by: 'bob' })).toBe(s.state);
    const twice = file(atLevel1(), { type: 'acknowledge', by: 'ann' }, { type: 'acknowledge', by: 'bob' });
    expect(twice.inbox.ack).toEqual({ by: 'ann' });
  });

  it('an acknowledgement filed while the first was being recorded is dropped without a record', () => {
    const recording = feed(file(atLevel1(), { type: 'acknowledge', by: 'ann' }), { type: 'woken' });
    const told = feed(feed(file(recording, { type: 'acknowledge', by: 'bob' }), { type: 'recorded' }), {
      type: 'told',
    });
    // A snooze wakes the acknowledged wait; bob's request is consumed first, quietly.
    const s = feed(file(told, { type: 'snooze', by: 'cy', minutes: 1 }), { type: 'woken' });
    expect(s.state.inbox.ack).toBeNull();
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ['signal', 'resolve', 'snooze'], timeoutMs: null }]);
    expect(feed(s, { type: 'woken' }).commands[0]).toMatchObject({ type: 'record', change: { kind: 'snoozed' } });
  });
});

describe('alert machine: snooze', () => {
  it('records a snooze that ends a level’s wait, until its minutes from now', () => {
    const s = feed(file(atLevel1(), { type: 'snooze', by: 'bob', minutes: 3 }), { type: 'woken' });
    expect(s.commands).toEqual([
      {
        type: 'record',
        change: { kind: 'snoozed', key: `snoozed:${RUN}:2`, actor: 'bob', until: '2030-01-01T00:03:00.000Z' },
      },
    ]);
    // The request stays in the inbox until the snooze is on record (its update answers then).
    expect(s.state.inbox.snooze).toEqual({ by: 'bob', minutes: 3 });
  });

  it('once recorded, shows it acknowledged and stays quiet until the snooze’s end, counted from the record', () => {
    const s = snoozed();
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'acknowledged' },
      { type: 'wait', wakeOn: ['resolve', 'signal', 'snooze'], timeoutMs: 3 * MIN },
    ]);
    expect(s.state).toMatchObject({
      status: 'acknowledged',
      snoozedUntil: '2030-01-01T00:03:00.000Z',
      inbox: { snooze: null },
    });
  });

  it('at the snooze’s end reads the subject; still firing, escalation starts again from level 1 in a new round', () => {
    const ended = feed(snoozed(), { type: 'timerElapsed' }, T0 + 1_000 + 3 * MIN);
    expect(ended.commands).toEqual([{ type: 'evaluate' }]);
    const s = feed(ended, { type: 'evaluated', reading: reading() });
    expect(s.commands).toEqual([{ type: 'record', change: { kind: 'snooze_ended', key: `snooze-ended:${RUN}:3` } }]);
    expect(s.state).toMatchObject({ snoozedUntil: null, acknowledgedBy: null });
    const again = feed(s, { type: 'recorded' });
    expect(again.commands).toEqual([
      { type: 'publishStatus', status: 'triggered' },
      { type: 'planLevel', step: TWO_LEVELS[0], action: 'escalate', round: 1 },
    ]);
    expect(feed(again, { type: 'planned', sendCount: 1, skipped: [] }).commands).toEqual([
      { type: 'record', change: { kind: 'notified_level', key: `step-1-0:${RUN}:4`, level: 1, pass: 0 } },
    ]);
  });

  it('at the snooze’s end, a subject that recovered resolves the alert (auto-resolving rule)', () => {
    const ended = feed(snoozed(), { type: 'timerElapsed' });
    const s = feed(ended, { type: 'evaluated', reading: reading({ firing: false, status: 'healthy' }) });
    expect(s.commands).toEqual([
      {
        type: 'record',
        change: { kind: 'resolved', key: `resolved:${RUN}:3`, actor: 'vigil (recovered)', auto: true },
      },
    ]);
  });

  it('at the snooze’s end, a subject no longer firing under a rule that does not auto-resolve stays acknowledged', () => {
    const ended = feed(snoozed(), { type: 'timerElapsed' });
    const s = feed(ended, { type: 'evaluated', reading: reading({ firing: false, autoResolve: false }) });
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ['signal', 'resolve', 'snooze'], timeoutMs: null }]);
    expect(s.state).toMatchObject({ status: 'acknowledged', snoozedUntil: null, acknowledgedBy: null });
  });

  it('a signal during the snooze is read; the snooze goes on for its remaining time', () => {
    const signalled = file(snoozed(), { type: 'subjectChanged', signalId: 'sig-1', firing: true });
    const woken = feed(signalled, { type: 'woken' }, T0 + MIN);
    expect(woken.commands).toEqual([{ type: 'evaluate' }]);
    expect(woken.state.inbox.pending).toEqual([]);
    const retriggered = feed(woken, { type: 'evaluated', reading: reading() }, T0 + MIN);
    expect(retriggered.commands).toEqual([
      { type: 'record', change: { kind: 'retriggered', key: `retriggered:${RUN}:3`, status: 'unhealthy' } },
    ]);
    expect(feed(retriggered, { type: 'recorded' }, T0 + 2 * MIN).commands).toEqual([
      { type: 'wait', wakeOn: ['resolve', 'signal', 'snooze'], timeoutMs: MIN + 1_000 },
    ]);
  });

  it('a signal read just as the snooze ran out goes straight to the snooze’s end', () => {
    const signalled = file(snoozed(), { type: 'subjectChanged', signalId: 'sig-1', firing: false });
    const woken = feed(signalled, { type: 'woken' });
    const s = feed(woken, { type: 'evaluated', reading: reading() }, T0 + 1_000 + 3 * MIN);
    expect(s.commands).toEqual([{ type: 'evaluate' }]);
  });

  it('a new snooze cuts the running one short and is recorded in its place', () => {
    const s = feed(file(snoozed(), { type: 'snooze', by: 'cy', minutes: 10 }), { type: 'woken' }, T0 + MIN);
    expect(s.commands).toEqual([{ type: 'wait', wakeOn: ['signal', 'resolve', 'snooze'], timeoutMs: null }]);
    expect(feed(s, { type: 'woken' }, T0 + MIN).commands).toEqual([
      {
        type: 'record',
        change: { kind: 'snoozed', key: `snoozed:${RUN}:3`, actor: 'cy', until: '2030-01-01T00:11:00.000Z' },
      },
    ]);
  });

  it('is refused unless the alert is open and triggered or acknowledged, for 1 to 1440 whole minutes', () => {
    const fresh = startAlert({ runTag: RUN }).state;
    expect(refusal(fresh, { type: 'snooze', minutes: 5 })).toBe('The alert is not open yet');
    expect(refusal(atLevel1().state, { type: 'snooze', minutes: 5 })).toBeNull();
    expect(refusal(acknowledged().state, { type: 'snooze', minutes: 1440 })).toBeNull();
    for (const minutes of [0, 1441, 2.5])
      expect(refusal(atLevel1().state, { type: 'snooze', minutes })).toBe(
        'minutes must be a whole number from 1 to 1440',
      );
    const suppressed = { ...atLevel1().state, status: 'suppressed' as const };
    expect(refusal(suppressed, { type: 'snooze', minutes: 5 })).toBe('A suppressed alert cannot be snoozed');
  });
});

describe('alert machine: resolution', () => {
  it('a resolution ends the wait and is recorded by hand, with its note', () => {
    const waiting = file(atLevel1(), { type: 'resolve', by: 'ann', note: 'fixed' }, { type: 'resolve', by: 'bob' });
    const s = feed(waiting, { type: 'woken' });
    expect(s.commands).toEqual([
      {
        type: 'record',
        change: { kind: 'resolved', key: `resolved:${RUN}:2`, actor: 'ann', auto: false, note: 'fixed' },
      },
    ]);
  });

  it('once recorded, shows it resolved, tells everyone it told, then finishes', () => {
    const recording = feed(file(atLevel1(), { type: 'resolve', by: 'ann' }), { type: 'woken' });
    const s = feed(recording, { type: 'recorded' });
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'resolved' },
      { type: 'tellTold', action: 'resolve', actor: 'ann', round: 2 },
    ]);
    expect(feed(s, { type: 'told' }).commands).toEqual([{ type: 'finish', result: 'resolved' }]);
  });

  it('a new trigger that arrived as it resolved starts the next alert as a new run', () => {
    const recording = feed(file(atLevel1(), { type: 'resolve', by: 'ann' }), { type: 'woken' });
    const telling = feed(recording, { type: 'recorded' });
    const s = feed(file(telling, { type: 'subjectChanged', signalId: 'sig-2', firing: true }), { type: 'told' });
    expect(s.commands).toEqual([{ type: 'continueAsNew', resume: null }]);
  });

  it('is refused before the alert is open and once it is resolved', () => {
    const telling = feed(feed(file(atLevel1(), { type: 'resolve', by: 'ann' }), { type: 'woken' }), {
      type: 'recorded',
    });
    expect(refusal(startAlert({ runTag: RUN }).state, { type: 'resolve' })).toBe('The alert is not open yet');
    expect(refusal(telling.state, { type: 'acknowledge' })).toBe('The alert is already resolved');
  });
});

describe('alert machine: the subject changes', () => {
  const signal = (s: AlertStep, firing: boolean, signalId = 'sig-1') =>
    file(s, { type: 'subjectChanged', signalId, firing });

  it('counts a signal delivered twice once', () => {
    const s = file(
      atLevel1(),
      { type: 'subjectChanged', signalId: 'sig-1', firing: true },
      { type: 'subjectChanged', signalId: 'sig-1', firing: true },
    );
    expect(s.inbox.pending).toEqual([{ signalId: 'sig-1', firing: true }]);
  });

  it('a subject that recovered resolves the alert on its own', () => {
    const woken = feed(signal(atLevel1(), false), { type: 'woken' });
    expect(woken.commands).toEqual([{ type: 'evaluate' }]);
    const s = feed(woken, { type: 'evaluated', reading: reading({ firing: false, status: 'healthy' }) });
    expect(s.commands).toEqual([
      {
        type: 'record',
        change: { kind: 'resolved', key: `resolved:${RUN}:2`, actor: 'vigil (recovered)', auto: true },
      },
    ]);
    expect(feed(s, { type: 'recorded' }).commands).toEqual([
      { type: 'publishStatus', status: 'resolved' },
      { type: 'tellTold', action: 'resolve', actor: 'vigil (recovered)', round: 2 },
    ]);
  });

  it('a rule or subject that is gone resolves the alert, whatever the rule says about recoveries', () => {
    const woken = feed(signal(atLevel1(), false), { type: 'woken' });
    const s = feed(woken, { type: 'evaluated', reading: reading({ live: false, firing: false, autoResolve: false }) });
    expect(s.commands[0]).toMatchObject({
      type: 'record',
      change: { kind: 'resolved', actor: 'vigil (rule or subject removed)', auto: true },
    });
  });

  it('a new trigger while firing is recorded as a retrigger, and the level is paged again under its same key', () => {
    const woken = feed(signal(atLevel1(), true), { type: 'woken' });
    const s = feed(woken, { type: 'evaluated', reading: reading({ status: 'degraded' }) });
    expect(s.commands).toEqual([
      { type: 'record', change: { kind: 'retriggered', key: `retriggered:${RUN}:2`, status: 'degraded' } },
    ]);
    const again = feed(s, { type: 'recorded' });
    expect(again.commands).toEqual([{ type: 'planLevel', step: TWO_LEVELS[0], action: 'trigger', round: 0 }]);
    expect(feed(again, { type: 'planned', sendCount: 1, skipped: [] }).commands).toEqual([
      { type: 'record', change: { kind: 'notified_level', key: `step-0-0:${RUN}:3`, level: 1, pass: 0 } },
    ]);
  });

  it('a signal that changes nothing (still firing, no new trigger) records nothing', () => {
    const woken = feed(signal(atLevel1(), false), { type: 'woken' });
    const s = feed(woken, { type: 'evaluated', reading: reading({ autoResolve: false }) });
    expect(s.commands).toEqual([{ type: 'planLevel', step: TWO_LEVELS[0], action: 'trigger', round: 0 }]);
  });

  it('a subject firing again after it stopped is a retrigger even without a firing signal', () => {
    const quiet = feed(feed(signal(atLevel1(), false), { type: 'woken' }), {
      type: 'evaluated',
      reading: reading({ firing: false, autoResolve: false }),
    });
    const waiting = paged(quiet);
    const s = feed(feed(signal(waiting, false, 'sig-2'), { type: 'woken' }), {
      type: 'evaluated',
      reading: reading(),
    });
    expect(s.commands[0]).toMatchObject({ type: 'record', change: { kind: 'retriggered' } });
  });
});

describe('alert machine: suppression', () => {
  const suppression = {
    kind: 'maintenance' as const,
    id: 'm1',
    title: 'db upgrade',
    until: '2030-01-01T00:10:00.000Z',
  };

  it('a suppression found on re-reading is recorded, shown and held', () => {
    const woken = feed(file(atLevel1(), { type: 'subjectChanged', signalId: 'sig-1', firing: true }), {
      type: 'woken',
    });
    const s = feed(woken, { type: 'evaluated', reading: reading({ suppression }) });
    expect(s.commands).toEqual([
      { type: 'record', change: { kind: 'retriggered', key: `retriggered:${RUN}:2`, status: 'unhealthy' } },
    ]);
    const held = feed(s, { type: 'recorded' });
    expect(held.commands).toEqual([
      { type: 'record', change: { kind: 'suppressed', key: `suppressed:${RUN}:3`, suppression } },
    ]);
    expect(feed(held, { type: 'recorded' }, T0 + 9.5 * MIN).commands).toEqual([
      { type: 'publishStatus', status: 'suppressed' },
      { type: 'wait', wakeOn: ['signal', 'resolve', 'ack'], timeoutMs: 30_000 },
    ]);
  });

  it('an alert opened under a suppression is shown suppressed and re-reads it every minute at most, every second at least', () => {
    const s = opened(reading({ suppression }));
    expect(s.commands).toEqual([
      { type: 'publishStatus', status: 'suppressed' },
      { type: 'wait', wakeOn: ['signal', 'resolve', 'ack'], timeoutMs: 60_000 },
    ]);
    const late = feed(feed(s, { type: 'timerElapsed' }), { type: 'evaluated', reading: reading({ suppression }) });
    expect(late.commands).toEqual([{ type: 'wait', wakeOn: ['signal', 'resolve', 'ack'], timeoutMs: 60_000 }]);
    const past = feed(
      feed(s, { type: 'timerElapsed' }),
      { type: 'evaluated', reading: reading({ suppression }) },
      T0 + 11 * MIN,
    );
    expect(past.commands).toEqual([{ type: 'wait', wakeOn: ['signal', 'resolve', 'ack'], timeoutMs: 1_000 }]);
  });

  it('when the suppression ends, it is recorded and the escalation pages level 1', () => {
    const s = feed(feed(opened(reading({ suppression })), { type: 'timerElapsed' }), {
      type: 'evaluated',
      reading: reading(),
    });
    expect(s.commands).toEqual([{ type: 'record', change: { kind: 'unsuppressed', key: `unsuppressed:${RUN}:1` } }]);
    expect(feed(s, { type: 'recorded' }).commands).toEqual([
      { type: 'publishStatus', status: 'triggered' },
      { type: 'planLevel', step: TWO_LEVELS[0], action: 'trigger', round: 0 },
    ]);
  });

  it('an acknowledgement while suppressed is recorded without telling anyone (nobody was paged)', () => {
    const s = feed(file(opened(reading({ suppression })), { type: 'acknowledge', by: 'ann' }), { type: 'woken' });
    expect(s.commands).toEqual([
      { type: 'record', change: { kind: 'acknowledged', key: `acknowledged:${RUN}:1`, actor: 'ann' } },
    ]);
    expect(feed(s, { type: 'recorded' }).commands).toEqual([
      { type: 'publishStatus', status: 'acknowledged' },
      { type: 'wait', wakeOn: ['signal', 'resolve', 'snooze'], timeoutMs: null },
    ]);
  });

  it('a resolution while suppressed resolves the alert', () => {
    const s = feed(file(opened(reading({ suppression })), { type: 'resolve', by: 'ann' }), { type: 'woken' });
    expect(s.commands[0]).toMatchObject({ type: 'record', change: { kind: 'resolved', actor: 'ann', auto: false } });
  });
});

describe('alert machine: continuing as new', () => {
  it('when Temporal suggests it, carries the alert on in a new run from where it is', () => {
    const s = feed(atLevel1(), { type: 'timerElapsed' }, T0, true);
    expect(s.commands).toEqual([
      { type: 'continueAsNew', resume: { alertId: 'a1', stepIndex: 1, round: 0, acknowledgedBy: null, seq: 1 } },
    ]);
  });
});

describe('alert machine: protocol', () => {
  it('refuses an event it does not await, and any event once it has ended', () => {
    expect(() => feed(atLevel1(), { type: 'recorded' })).toThrow(/awaits the end of a wait but got 'recorded'/);
    expect(() => feed(opened(), { type: 'paged' })).toThrow(/awaits 'planned' \(plan\) but got 'paged'/);
    const ended = feed(startAlert({ runTag: RUN }), { type: 'evaluated', reading: reading({ firing: false }) });
    expect(() => feed(ended, { type: 'woken' })).toThrow(/has ended/);
  });
});
