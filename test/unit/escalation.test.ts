import { escalationSteps, validateEscalationPolicy, type EscalationPolicy } from '../../src/domain/alerting/escalation';

const MIN = 60_000;
const slack = { type: 'channel', id: 'ch_slack' } as const;
const primary = { type: 'schedule', id: 'sch_primary' } as const;
const lead = { type: 'user', email: 'lead@example.com' } as const;

describe('escalationSteps', () => {
  it('walks the levels, waits each delay, repeats the whole policy and waits nothing after the very last step', () => {
    const policy: EscalationPolicy = {
      levels: [
        { delay_minutes: 5, targets: [slack, primary] },
        { delay_minutes: 15, targets: [lead] },
      ],
      repeat: 1,
    };
    expect(escalationSteps(policy)).toEqual([
      { level: 1, pass: 0, targets: [slack, primary], wait_after_ms: 5 * MIN },
      { level: 2, pass: 0, targets: [lead], wait_after_ms: 15 * MIN },
      { level: 1, pass: 1, targets: [slack, primary], wait_after_ms: 5 * MIN },
      { level: 2, pass: 1, targets: [lead], wait_after_ms: null },
    ]);
  });

  it('is one step for one level without repeats', () => {
    expect(escalationSteps({ levels: [{ delay_minutes: 30, targets: [slack] }], repeat: 0 })).toEqual([
      { level: 1, pass: 0, targets: [slack], wait_after_ms: null },
    ]);
  });

  it('has levels × (repeat + 1) steps at the largest policy', () => {
    const levels = Array.from({ length: 20 }, () => ({ delay_minutes: 1, targets: [slack] }));
    const steps = escalationSteps({ levels, repeat: 10 });
    expect(steps).toHaveLength(220);
    expect(steps.filter((s) => s.wait_after_ms === null)).toHaveLength(1);
  });
});

describe('validateEscalationPolicy', () => {
  const level = { delay_minutes: 10, targets: [slack] };
  const errorsOf = (input: unknown) => {
    const result = validateEscalationPolicy(input);
    if (result.ok) throw new Error('expected errors');
    return result.errors;
  };

  it('accepts a policy and defaults repeat to 0', () => {
    expect(validateEscalationPolicy({ levels: [{ delay_minutes: 1, targets: [slack, primary, lead] }] })).toEqual({
      ok: true,
      value: { levels: [{ delay_minutes: 1, targets: [slack, primary, lead] }], repeat: 0 },
    });
    expect(validateEscalationPolicy({ levels: [{ ...level, delay_minutes: 1440 }], repeat: 10 }).ok).toBe(true);
  });

  it.each([
    ['no levels', { levels: [] }, 'levels', /at least one level/],
    ['21 levels', { levels: Array.from({ length: 21 }, () => level) }, 'levels', /at most 20/],
    ['a missing levels field', {}, 'levels', /is required/],
    ['a delay of 0', { levels: [{ ...level, delay_minutes: 0 }] }, 'levels[0].delay_minutes', /1 to 1440/],
    [
      'a delay over a day',
      { levels: [level, { ...level, delay_minutes: 1441 }] },
      'levels[1].delay_minutes',
      /1 to 1440/,
    ],
    ['a fractional delay', { levels: [{ ...level, delay_minutes: 2.5 }] }, 'levels[0].delay_minutes', /whole number/],
    ['a missing delay', { levels: [{ targets: [slack] }] }, 'levels[0].delay_minutes', /is required/],
    ['no targets', { levels: [{ ...level, targets: [] }] }, 'levels[0].targets', /at least one target/],
    [
      '21 targets',
      { levels: [{ ...level, targets: Array.from({ length: 21 }, (_, i) => ({ type: 'channel', id: `c${i}` })) }] },
      'levels[0].targets',
      /at most 20/,
    ],
    [
      'an unknown target type',
      { levels: [{ ...level, targets: [{ type: 'sms', id: 'x' }] }] },
      'levels[0].targets[0].type',
      /'channel', 'schedule' or 'user'/,
    ],
    [
      'an empty channel id',
      { levels: [{ ...level, targets: [{ type: 'channel', id: '' }] }] },
      'levels[0].targets[0].id',
      /must not be empty/,
    ],
    [
      'a blank schedule id',
      { levels: [{ ...level, targets: [{ type: 'schedule', id: '  ' }] }] },
      'levels[0].targets[0].id',
      /must not be empty/,
    ],
    [
      'a user without email',
      { levels: [{ ...level, targets: [{ type: 'user' }] }] },
      'levels[0].targets[0].email',
      /is required/,
    ],
    [
      'a malformed email',
      { levels: [{ ...level, targets: [{ type: 'user', email: 'lead' }] }] },
      'levels[0].targets[0].email',
      /email address/,
    ],
    [
      'a user target with an id',
      { levels: [{ ...level, targets: [{ ...lead, id: 'u1' }] }] },
      'levels[0].targets[0].id',
      /not a known field/,
    ],
    [
      'the same target twice in a level',
      { levels: [{ ...level, targets: [lead, { type: 'user', email: 'LEAD@example.com' }] }] },
      'levels[0].targets[1]',
      /same target twice/,
    ],
    ['repeat 11', { levels: [level], repeat: 11 }, 'repeat', /0 to 10/],
    ['a negative repeat', { levels: [level], repeat: -1 }, 'repeat', /0 to 10/],
    ['an unknown field', { levels: [level], name: 'x' }, 'name', /not a known field/],
    ['a list as input', [level], '', /expected object/],
  ])('refuses %s', (_what, input, path, message) => {
    expect(errorsOf(input)).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('allows the same target on different levels', () => {
    expect(validateEscalationPolicy({ levels: [level, level] }).ok).toBe(true);
  });
});
