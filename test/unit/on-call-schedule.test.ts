import { Temporal } from 'temporal-polyfill';
import {
  onCallAmong,
  onCallAt,
  type Rotation,
  type ScheduleOverride,
  type ScheduleSpec,
} from '../../src/domain/on-call/schedule';
import { validateSchedule } from '../../src/domain/on-call/schedule-input';
import { shiftsBetween } from '../../src/domain/on-call/shifts';

const H = 3_600_000;
const at = (iso: string): Date => new Date(iso);

function schedule(timezone: string, rotations: Rotation[], overrides: ScheduleOverride[] = []): ScheduleSpec {
  const result = validateSchedule({
    timezone,
    layers: rotations.map((rotation, i) => ({ name: `layer ${i}`, rotation })),
    overrides,
  });
  if (!result.ok) throw new Error(`invalid test schedule: ${JSON.stringify(result.errors)}`);
  return result.value;
}

/** user and shift bounds as ISO strings, for compact expectations. */
function who(spec: ScheduleSpec, iso: string): { user: string; start: string; end: string } | null {
  const answer = onCallAt(spec, at(iso));
  return answer && { user: answer.user, start: answer.shift_start.toISOString(), end: answer.shift_end.toISOString() };
}

const localTime = (d: Date, zone: string): string =>
  Temporal.Instant.fromEpochMilliseconds(d.getTime()).toZonedDateTimeISO(zone).toPlainTime().toString().slice(0, 5);

describe('daily rotations across DST', () => {
  it('hands off at 09:00 Europe/Berlin on both sides of the spring change, so that day is 23 hours', () => {
    const spec = schedule('Europe/Berlin', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-25', participants: ['ana', 'ben', 'cem'] },
    ]);
    expect(who(spec, '2026-03-28T12:00:00Z')).toEqual({
      user: 'ana',
      start: '2026-03-28T08:00:00.000Z',
      end: '2026-03-29T07:00:00.000Z',
    });
    expect(who(spec, '2026-03-29T06:59:59.999Z')?.user).toBe('ana');
    expect(who(spec, '2026-03-29T07:00:00Z')).toEqual({
      user: 'ben',
      start: '2026-03-29T07:00:00.000Z',
      end: '2026-03-30T07:00:00.000Z',
    });
    const answer = onCallAt(spec, at('2026-03-29T07:00:00Z'))!;
    expect(localTime(answer.shift_start, 'Europe/Berlin')).toBe('09:00');
  });

  it('makes the autumn change day 25 hours in Europe/Berlin', () => {
    const spec = schedule('Europe/Berlin', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-10-24', participants: ['ana', 'ben'] },
    ]);
    expect(who(spec, '2026-10-25T07:30:00Z')).toEqual({
      user: 'ana',
      start: '2026-10-24T07:00:00.000Z',
      end: '2026-10-25T08:00:00.000Z',
    });
    expect(who(spec, '2026-10-25T08:00:00Z')?.user).toBe('ben');
  });

  it('keeps 09:00 America/New_York across 2026-03-08 (23 h) and 2026-11-01 (25 h)', () => {
    const spring = schedule('America/New_York', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-07', participants: ['ana', 'ben'] },
    ]);
    expect(who(spring, '2026-03-08T12:59:59Z')).toEqual({
      user: 'ana',
      start: '2026-03-07T14:00:00.000Z',
      end: '2026-03-08T13:00:00.000Z',
    });
    expect(who(spring, '2026-03-08T13:00:00Z')).toEqual({
      user: 'ben',
      start: '2026-03-08T13:00:00.000Z',
      end: '2026-03-09T13:00:00.000Z',
    });
    const autumn = schedule('America/New_York', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-10-31', participants: ['ana', 'ben'] },
    ]);
    expect(who(autumn, '2026-11-01T13:30:00Z')).toEqual({
      user: 'ana',
      start: '2026-10-31T13:00:00.000Z',
      end: '2026-11-01T14:00:00.000Z',
    });
  });

  it("resolves a handoff in the spring gap with 'compatible' (02:30 → 03:30) and a repeated one to its first occurrence", () => {
    const spec = schedule('America/New_York', [
      { kind: 'daily', handoff_time: '02:30', starts_on: '2026-03-07', participants: ['ana', 'ben'] },
    ]);
    // 2026-03-07 02:30 EST = 07:30Z; 2026-03-08 02:30 does not exist → 03:30 EDT = 07:30Z: a 24-hour shift.
    expect(who(spec, '2026-03-08T07:29:00Z')).toEqual({
      user: 'ana',
      start: '2026-03-07T07:30:00.000Z',
      end: '2026-03-08T07:30:00.000Z',
    });
    expect(who(spec, '2026-03-08T12:00:00Z')).toEqual({
      user: 'ben',
      start: '2026-03-08T07:30:00.000Z',
      end: '2026-03-09T06:30:00.000Z',
    });
    const autumn = schedule('America/New_York', [
      { kind: 'daily', handoff_time: '01:30', starts_on: '2026-10-31', participants: ['ana', 'ben'] },
    ]);
    // 01:30 happens twice on 2026-11-01: the earlier, EDT (05:30Z), is the handoff.
    expect(who(autumn, '2026-11-01T05:30:00Z')).toEqual({
      user: 'ben',
      start: '2026-11-01T05:30:00.000Z',
      end: '2026-11-02T06:30:00.000Z',
    });
  });
});

describe('weekly rotations across DST', () => {
  it('keeps a Monday 09:00 Europe/Berlin handoff at 09:00 local: 167 hours in March, 169 in October', () => {
    const march = schedule('Europe/Berlin', [
      { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-03-23', participants: ['ana', 'ben'] },
    ]);
    const a = onCallAt(march, at('2026-03-29T12:00:00Z'))!;
    expect(a.user).toBe('ana');
    expect([a.shift_start.toISOString(), a.shift_end.toISOString()]).toEqual([
      '2026-03-23T08:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    expect((a.shift_end.getTime() - a.shift_start.getTime()) / H).toBe(167);
    expect([localTime(a.shift_start, 'Europe/Berlin'), localTime(a.shift_end, 'Europe/Berlin')]).toEqual([
      '09:00',
      '09:00',
    ]);
    expect(who(march, '2026-03-30T07:00:00Z')?.user).toBe('ben');

    const october = schedule('Europe/Berlin', [
      { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-10-19', participants: ['ana', 'ben'] },
    ]);
    const o = onCallAt(october, at('2026-10-25T12:00:00Z'))!;
    expect([o.shift_start.toISOString(), o.shift_end.toISOString()]).toEqual([
      '2026-10-19T07:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
    expect((o.shift_end.getTime() - o.shift_start.getTime()) / H).toBe(169);
  });

  it('keeps a Monday 09:00 America/New_York handoff across both 2026 changes', () => {
    const spec = schedule('America/New_York', [
      {
        kind: 'weekly',
        handoff_time: '09:00',
        handoff_weekday: 1,
        starts_on: '2026-03-02',
        participants: ['ana', 'ben'],
      },
    ]);
    expect(who(spec, '2026-03-08T12:00:00Z')).toEqual({
      user: 'ana',
      start: '2026-03-02T14:00:00.000Z',
      end: '2026-03-09T13:00:00.000Z',
    });
    // 34 weeks later: 2026-10-26 09:00 EDT → 2026-11-02 09:00 EST; shift 34 is ana's again.
    expect(who(spec, '2026-11-01T12:00:00Z')).toEqual({
      user: 'ana',
      start: '2026-10-26T13:00:00.000Z',
      end: '2026-11-02T14:00:00.000Z',
    });
  });

  it('starts with a short shift when starts_on is not the handoff weekday', () => {
    // 2026-03-25 is a Wednesday; handoffs are on Mondays.
    const spec = schedule('Europe/Berlin', [
      { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-03-25', participants: ['ana', 'ben'] },
    ]);
    expect(who(spec, '2026-03-25T07:59:59Z')).toBeNull();
    expect(who(spec, '2026-03-26T00:00:00Z')).toEqual({
      user: 'ana',
      start: '2026-03-25T08:00:00.000Z',
      end: '2026-03-30T07:00:00.000Z',
    });
    expect(who(spec, '2026-04-01T00:00:00Z')).toEqual({
      user: 'ben',
      start: '2026-03-30T07:00:00.000Z',
      end: '2026-04-06T07:00:00.000Z',
    });
  });

  it('moves a Sunday 02:30 handoff that falls in the Berlin gap to 03:30', () => {
    const spec = schedule('Europe/Berlin', [
      {
        kind: 'weekly',
        handoff_time: '02:30',
        handoff_weekday: 7,
        starts_on: '2026-03-22',
        participants: ['ana', 'ben'],
      },
    ]);
    // 2026-03-22 02:30 CET = 01:30Z; 2026-03-29 02:30 does not exist → 03:30 CEST = 01:30Z; 2026-04-05 02:30 CEST = 00:30Z.
    expect(who(spec, '2026-03-29T01:29:59Z')).toEqual({
      user: 'ana',
      start: '2026-03-22T01:30:00.000Z',
      end: '2026-03-29T01:30:00.000Z',
    });
    expect(who(spec, '2026-03-29T01:30:00Z')).toEqual({
      user: 'ben',
      start: '2026-03-29T01:30:00.000Z',
      end: '2026-04-05T00:30:00.000Z',
    });
  });
});

describe('hourly rotations count elapsed hours from the first handoff', () => {
  it('shifts the local handoff time by the skipped hour in Europe/Berlin', () => {
    const spec = schedule('Europe/Berlin', [
      { kind: 'hourly', shift_hours: 12, handoff_time: '08:00', starts_on: '2026-03-28', participants: ['ana', 'ben'] },
    ]);
    expect(who(spec, '2026-03-28T07:00:00Z')).toEqual({
      user: 'ana',
      start: '2026-03-28T07:00:00.000Z',
      end: '2026-03-28T19:00:00.000Z',
    });
    expect(who(spec, '2026-03-29T06:59:59Z')).toEqual({
      user: 'ben',
      start: '2026-03-28T19:00:00.000Z',
      end: '2026-03-29T07:00:00.000Z',
    });
    const after = onCallAt(spec, at('2026-03-29T08:00:00Z'))!;
    expect(after.user).toBe('ana');
    expect(after.shift_start.toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(localTime(after.shift_start, 'Europe/Berlin')).toBe('09:00');
  });

  it('shifts them back an hour at the Berlin autumn change', () => {
    const spec = schedule('Europe/Berlin', [
      {
        kind: 'hourly',
        shift_hours: 8,
        handoff_time: '08:00',
        starts_on: '2026-10-24',
        participants: ['ana', 'ben', 'cem'],
      },
    ]);
    // 08:00 CEST = 06:00Z, then 14:00Z, 22:00Z, 2026-10-25 06:00Z (07:00 CET).
    const a = onCallAt(spec, at('2026-10-25T06:00:00Z'))!;
    expect(a.user).toBe('ana');
    expect([a.shift_start.toISOString(), a.shift_end.toISOString()]).toEqual([
      '2026-10-25T06:00:00.000Z',
      '2026-10-25T14:00:00.000Z',
    ]);
    expect(localTime(a.shift_start, 'Europe/Berlin')).toBe('07:00');
  });

  it('differs from a daily rotation in America/New_York: 24 elapsed hours after 09:00 EST is 10:00 EDT', () => {
    const spec = schedule('America/New_York', [
      { kind: 'hourly', shift_hours: 24, handoff_time: '09:00', starts_on: '2026-03-07', participants: ['ana', 'ben'] },
    ]);
    expect(who(spec, '2026-03-08T13:30:00Z')).toEqual({
      user: 'ana',
      start: '2026-03-07T14:00:00.000Z',
      end: '2026-03-08T14:00:00.000Z',
    });
    const autumn = schedule('America/New_York', [
      { kind: 'hourly', shift_hours: 6, handoff_time: '00:00', starts_on: '2026-11-01', participants: ['ana', 'ben'] },
    ]);
    // 00:00 EDT = 04:00Z; six elapsed hours later is 05:00 EST (10:00Z).
    expect(who(autumn, '2026-11-01T09:00:00Z')).toEqual({
      user: 'ana',
      start: '2026-11-01T04:00:00.000Z',
      end: '2026-11-01T10:00:00.000Z',
    });
  });
});

describe('layers', () => {
  const base: Rotation = {
    kind: 'weekly',
    handoff_time: '09:00',
    starts_on: '2026-01-05',
    participants: ['ana', 'ben'],
  };
  // Starts on a Wednesday at 12:00, away from the base layer's Monday 09:00 handoffs.
  const later: Rotation = {
    kind: 'daily',
    handoff_time: '12:00',
    starts_on: '2026-06-03',
    participants: ['xia', 'yan'],
  };

  it('answers from the lower layer until the higher one starts, and cuts its shift there', () => {
    const spec = schedule('Europe/Berlin', [base, later]);
    const before = onCallAt(spec, at('2026-06-02T12:00:00Z'))!;
    // Week 21 after 2026-01-05 (CET 08:00Z) starts Monday 2026-06-01 09:00 CEST = 07:00Z; week 21 is ben's.
    expect(before).toMatchObject({ user: 'ben', source: 'layer', layer: 0, layer_name: 'layer 0' });
    expect(before.shift_start.toISOString()).toBe('2026-06-01T07:00:00.000Z');
    expect(before.shift_end.toISOString()).toBe('2026-06-03T10:00:00.000Z');
    expect(onCallAt(spec, at('2026-06-03T10:00:00Z'))).toMatchObject({ user: 'xia', layer: 1, layer_name: 'layer 1' });
    expect(onCallAt(spec, at('2026-06-04T10:00:00Z'))).toMatchObject({ user: 'yan', layer: 1 });
  });

  it('has nobody on call before every layer starts', () => {
    const spec = schedule('Europe/Berlin', [later]);
    expect(onCallAt(spec, at('2026-06-03T09:59:59.999Z'))).toBeNull();
    expect(
      shiftsBetween(spec, at('2026-05-30T00:00:00Z'), at('2026-06-03T12:00:00Z')).shifts.map((s) => [
        s.user,
        s.start.toISOString(),
      ]),
    ).toEqual([['xia', '2026-06-03T10:00:00.000Z']]);
  });

  it('lets the lower layer answer when the higher layer is listed first', () => {
    const spec = schedule('Europe/Berlin', [later, base]);
    expect(onCallAt(spec, at('2026-06-10T12:00:00Z'))).toMatchObject({ layer: 1, layer_name: 'layer 1' });
  });
});

describe('overrides', () => {
  const daily: Rotation = {
    kind: 'daily',
    handoff_time: '09:00',
    starts_on: '2026-03-01',
    participants: ['ana', 'ben'],
  };
  // On 2026-03-10 (day 9), ben is on call from 08:00Z to 2026-03-11 08:00Z.
  const wide = { user: 'ola', start_at: '2026-03-10T10:00:00Z', end_at: '2026-03-10T20:00:00Z' };
  const narrow = { user: 'pia', start_at: '2026-03-10T13:00:00+01:00', end_at: '2026-03-10T14:00:00Z' };

  it('win over the layer from their start (inclusive) to their end (exclusive), and cut the layer shift', () => {
    const spec = schedule('Europe/Berlin', [daily], [wide]);
    expect(who(spec, '2026-03-10T09:59:59.999Z')).toEqual({
      user: 'ben',
      start: '2026-03-10T08:00:00.000Z',
      end: '2026-03-10T10:00:00.000Z',
    });
    expect(onCallAt(spec, at('2026-03-10T10:00:00Z'))).toMatchObject({
      user: 'ola',
      source: 'override',
      layer: null,
      layer_name: null,
    });
    expect(who(spec, '2026-03-10T20:00:00Z')).toEqual({
      user: 'ben',
      start: '2026-03-10T20:00:00.000Z',
      end: '2026-03-11T08:00:00.000Z',
    });
  });

  it('later in the list wins where overrides overlap, and the earlier one is cut around it', () => {
    const spec = schedule('Europe/Berlin', [daily], [wide, narrow]);
    expect(who(spec, '2026-03-10T11:00:00Z')).toEqual({
      user: 'ola',
      start: '2026-03-10T10:00:00.000Z',
      end: '2026-03-10T12:00:00.000Z',
    });
    expect(who(spec, '2026-03-10T12:00:00Z')).toEqual({
      user: 'pia',
      start: '2026-03-10T12:00:00.000Z',
      end: '2026-03-10T14:00:00.000Z',
    });
    expect(who(spec, '2026-03-10T14:00:00Z')).toEqual({
      user: 'ola',
      start: '2026-03-10T14:00:00.000Z',
      end: '2026-03-10T20:00:00.000Z',
    });

    const reversed = schedule('Europe/Berlin', [daily], [narrow, wide]);
    expect(who(reversed, '2026-03-10T13:00:00Z')).toEqual({
      user: 'ola',
      start: '2026-03-10T10:00:00.000Z',
      end: '2026-03-10T20:00:00.000Z',
    });
  });

  it('cover time before any layer starts', () => {
    const spec = schedule(
      'Europe/Berlin',
      [daily],
      [{ user: 'ola', start_at: '2026-02-27T00:00:00Z', end_at: '2026-02-28T00:00:00Z' }],
    );
    expect(who(spec, '2026-02-27T12:00:00Z')).toEqual({
      user: 'ola',
      start: '2026-02-27T00:00:00.000Z',
      end: '2026-02-28T00:00:00.000Z',
    });
    expect(who(spec, '2026-02-28T12:00:00Z')).toBeNull();
  });
});

describe('onCallAmong: only people who can be paged', () => {
  const base: Rotation = {
    kind: 'weekly',
    handoff_time: '09:00',
    starts_on: '2026-01-05',
    participants: ['ana', 'ben'],
  };
  const upper: Rotation = {
    kind: 'daily',
    handoff_time: '12:00',
    starts_on: '2026-06-03',
    participants: ['xia', 'yan'],
  };
  const spec = schedule(
    'Europe/Berlin',
    [base, upper],
    [{ user: 'ola', start_at: '2026-06-10T10:00:00Z', end_at: '2026-06-10T20:00:00Z' }],
  );
  const everyone = () => true;
  const except =
    (...gone: string[]) =>
    (u: string) =>
      !gone.includes(u);

  it('answers as onCallAt when everyone can be paged', () => {
    for (const iso of ['2026-06-02T12:00:00Z', '2026-06-04T10:00:00Z', '2026-06-10T12:00:00Z']) {
      const { answer, passedOver } = onCallAmong(spec, at(iso), everyone);
      expect(answer).toEqual(onCallAt(spec, at(iso)));
      expect(passedOver).toEqual([]);
    }
  });

  it('falls through to the layer below when the higher layer’s person cannot be paged', () => {
    // 2026-06-04T10:00Z: yan on the upper layer (day 1), ben on the base layer (week 21).
    const { answer, passedOver } = onCallAmong(spec, at('2026-06-04T10:00:00Z'), except('yan'));
    expect(answer).toMatchObject({ user: 'ben', source: 'layer', layer: 0, layer_name: 'layer 0' });
    expect(passedOver).toEqual([{ user: 'yan', source: 'layer', layer_name: 'layer 1' }]);
  });

  it('keeps the layer’s own index when a higher layer was dropped', () => {
    const three = schedule('Europe/Berlin', [base, upper, { ...upper, participants: ['zoe'] }]);
    const { answer, passedOver } = onCallAmong(three, at('2026-06-04T10:00:00Z'), except('zoe'));
    expect(answer).toMatchObject({ user: 'yan', layer: 1, layer_name: 'layer 1' });
    expect(passedOver.map((p) => p.user)).toEqual(['zoe']);
  });

  it('passes over an override to the layers', () => {
    const { answer, passedOver } = onCallAmong(spec, at('2026-06-10T12:00:00Z'), except('ola'));
    expect(answer).toMatchObject({ source: 'layer', layer: 1 });
    expect(passedOver).toEqual([{ user: 'ola', source: 'override', layer_name: null }]);
  });

  it('is a gap when nobody left can be paged, naming everyone passed over', () => {
    const { answer, passedOver } = onCallAmong(spec, at('2026-06-04T10:00:00Z'), except('yan', 'ben'));
    expect(answer).toBeNull();
    expect(passedOver.map((p) => p.user)).toEqual(['yan', 'ben']);
    // Before any layer starts there is nobody to pass over.
    expect(onCallAmong(spec, at('2025-12-01T00:00:00Z'), everyone)).toEqual({ answer: null, passedOver: [] });
  });
});

describe('shiftsBetween', () => {
  it('lists the final timeline across the Berlin spring change with exact instants', () => {
    const spec = schedule(
      'Europe/Berlin',
      [{ kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-27', participants: ['ana', 'ben'] }],
      [{ user: 'ola', start_at: '2026-03-29T10:00:00Z', end_at: '2026-03-29T12:00:00Z' }],
    );
    const { shifts, truncated } = shiftsBetween(spec, at('2026-03-28T00:00:00Z'), at('2026-03-30T00:00:00Z'));
    expect(truncated).toBe(false);
    expect(shifts.map((s) => [s.user, s.source, s.layer, s.start.toISOString(), s.end.toISOString()])).toEqual([
      ['ana', 'layer', 0, '2026-03-28T00:00:00.000Z', '2026-03-28T08:00:00.000Z'],
      ['ben', 'layer', 0, '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
      ['ana', 'layer', 0, '2026-03-29T07:00:00.000Z', '2026-03-29T10:00:00.000Z'],
      ['ola', 'override', null, '2026-03-29T10:00:00.000Z', '2026-03-29T12:00:00.000Z'],
      ['ana', 'layer', 0, '2026-03-29T12:00:00.000Z', '2026-03-30T00:00:00.000Z'],
    ]);
  });

  it('lists the New York autumn change with a 25-hour shift and a higher layer taking over', () => {
    const spec = schedule('America/New_York', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-10-30', participants: ['ana', 'ben'] },
      { kind: 'weekly', handoff_time: '12:00', handoff_weekday: 1, starts_on: '2026-11-02', participants: ['xia'] },
    ]);
    const { shifts } = shiftsBetween(spec, at('2026-10-31T00:00:00Z'), at('2026-11-10T00:00:00Z'));
    expect(shifts.map((s) => [s.user, s.layer, s.start.toISOString(), s.end.toISOString()])).toEqual([
      ['ana', 0, '2026-10-31T00:00:00.000Z', '2026-10-31T13:00:00.000Z'],
      ['ben', 0, '2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z'],
      ['ana', 0, '2026-11-01T14:00:00.000Z', '2026-11-02T14:00:00.000Z'],
      ['ben', 0, '2026-11-02T14:00:00.000Z', '2026-11-02T17:00:00.000Z'],
      ['xia', 1, '2026-11-02T17:00:00.000Z', '2026-11-10T00:00:00.000Z'],
    ]);
  });

  it('merges the same user from the same source, but not a layer with an override for the same user', () => {
    const spec = schedule(
      'Europe/Berlin',
      [{ kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-01', participants: ['ana'] }],
      [
        { user: 'ana', start_at: '2026-03-05T00:00:00Z', end_at: '2026-03-05T06:00:00Z' },
        { user: 'ana', start_at: '2026-03-05T06:00:00Z', end_at: '2026-03-05T12:00:00Z' },
      ],
    );
    const { shifts } = shiftsBetween(spec, at('2026-03-01T00:00:00Z'), at('2026-04-15T00:00:00Z'));
    expect(shifts.map((s) => [s.source, s.start.toISOString(), s.end.toISOString()])).toEqual([
      ['layer', '2026-03-01T08:00:00.000Z', '2026-03-05T00:00:00.000Z'],
      ['override', '2026-03-05T00:00:00.000Z', '2026-03-05T12:00:00.000Z'],
      ['layer', '2026-03-05T12:00:00.000Z', '2026-04-15T00:00:00.000Z'],
    ]);
  });

  it('stops at the limit with a flag, and the next page starts exactly at the last end', () => {
    const spec = schedule('Europe/Berlin', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-01', participants: ['ana', 'ben'] },
    ]);
    const from = at('2026-03-20T12:00:00Z');
    const to = at('2026-04-01T00:00:00Z');
    const all = shiftsBetween(spec, from, to);
    expect(all.truncated).toBe(false);
    expect(all.shifts).toHaveLength(12);
    const first = shiftsBetween(spec, from, to, 5);
    expect(first.truncated).toBe(true);
    expect(first.shifts).toEqual(all.shifts.slice(0, 5));
    const rest = shiftsBetween(spec, first.shifts[4]!.end, to);
    expect([...first.shifts, ...rest.shifts]).toEqual(all.shifts);
    expect(shiftsBetween(spec, from, to, 12).truncated).toBe(false);
  });

  it('returns nothing for an empty or reversed range', () => {
    const spec = schedule('Europe/Berlin', [
      { kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-01', participants: ['ana'] },
    ]);
    expect(shiftsBetween(spec, at('2026-03-10T00:00:00Z'), at('2026-03-10T00:00:00Z')).shifts).toEqual([]);
    expect(shiftsBetween(spec, at('2026-03-11T00:00:00Z'), at('2026-03-10T00:00:00Z')).shifts).toEqual([]);
  });
});

describe('arithmetic against a walk through every handoff', () => {
  // A reference that steps one handoff at a time with Temporal, for a year of instants 7h37m apart.
  function walkedHandoffs(rotation: Rotation, zone: string, until: number): number[] {
    const out: number[] = [];
    const start = Temporal.PlainDate.from(rotation.starts_on);
    const local = (date: Temporal.PlainDate) =>
      date.toPlainDateTime(Temporal.PlainTime.from(rotation.handoff_time)).toZonedDateTime(zone).epochMilliseconds;
    out.push(local(start));
    let date = start;
    if (rotation.kind === 'weekly')
      while (date.dayOfWeek !== (rotation.handoff_weekday ?? 1) || date.equals(start)) date = date.add({ days: 1 });
    while (out[out.length - 1]! <= until) {
      if (rotation.kind === 'hourly') out.push(out[out.length - 1]! + rotation.shift_hours! * H);
      else {
        if (rotation.kind === 'daily') date = date.add({ days: 1 });
        out.push(local(date));
        if (rotation.kind === 'weekly') date = date.add({ weeks: 1 });
      }
    }
    return out;
  }

  it.each([
    ['daily', { kind: 'daily', handoff_time: '02:30', starts_on: '2025-12-30', participants: ['a', 'b', 'c'] }],
    [
      'weekly',
      {
        kind: 'weekly',
        handoff_time: '02:30',
        handoff_weekday: 7,
        starts_on: '2025-12-31',
        participants: ['a', 'b', 'c'],
      },
    ],
    [
      'hourly',
      {
        kind: 'hourly',
        shift_hours: 7,
        handoff_time: '01:15',
        starts_on: '2025-12-30',
        participants: ['a', 'b', 'c', 'd'],
      },
    ],
  ] as [string, Rotation][])('%s in America/New_York', (_kind, rotation) => {
    const zone = 'America/New_York';
    const spec = schedule(zone, [rotation]);
    const end = Date.parse('2027-01-05T00:00:00Z');
    const handoffs = walkedHandoffs(rotation, zone, end);
    let k = 0;
    for (let t = Date.parse('2026-01-01T00:00:00Z'); t < end; t += 7 * H + 37 * 60_000) {
      while (handoffs[k + 1]! <= t) k++;
      const answer = onCallAt(spec, new Date(t))!;
      expect([answer.user, answer.shift_start.getTime(), answer.shift_end.getTime()]).toEqual([
        rotation.participants[k % rotation.participants.length],
        handoffs[k],
        handoffs[k + 1],
      ]);
    }
  });
});

describe('a rotation started in 2015', () => {
  const spec = schedule('Europe/Berlin', [
    {
      kind: 'hourly',
      shift_hours: 1,
      handoff_time: '09:00',
      starts_on: '2015-01-05',
      participants: Array.from({ length: 50 }, (_, i) => `u${i}`),
    },
    { kind: 'daily', handoff_time: '09:00', starts_on: '2015-01-05', participants: ['ana', 'ben', 'cem'] },
  ]);

  it('answers by arithmetic, not by walking every shift', () => {
    // 2026-07-01 12:34Z is after 09:00 CEST (07:00Z) that day: daily shift number = days since 2015-01-05.
    const days = (Date.UTC(2026, 6, 1) - Date.UTC(2015, 0, 5)) / 86_400_000;
    expect(who(spec, '2026-07-01T12:34:00Z')).toEqual({
      user: ['ana', 'ben', 'cem'][days % 3],
      start: '2026-07-01T07:00:00.000Z',
      end: '2026-07-02T07:00:00.000Z',
    });
    const hourly = schedule('Europe/Berlin', [spec.layers[0]!.rotation]);
    const hours = (Date.parse('2026-07-01T12:00:00Z') - Date.parse('2015-01-05T08:00:00Z')) / H;
    expect(who(hourly, '2026-07-01T12:34:00Z')?.user).toBe(`u${hours % 50}`);

    const started = performance.now();
    for (let i = 0; i < 1_000; i++) onCallAt(spec, new Date(Date.parse('2026-07-01T00:00:00Z') + i * 7_919_000));
    // The bound is the feature (arithmetic, not a walk), so it stays, but generous: walking ~100,000
    // hourly shifts per call would take minutes for 1,000 calls; arithmetic takes milliseconds.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('validateSchedule', () => {
  const rotation = { kind: 'daily', handoff_time: '09:00', starts_on: '2026-03-01', participants: ['ana'] };
  const errorsOf = (input: unknown) => {
    const result = validateSchedule(input);
    if (result.ok) throw new Error('expected errors');
    return result.errors;
  };
  const withRotation = (patch: Record<string, unknown>) => ({
    timezone: 'Europe/Berlin',
    layers: [{ name: 'primary', rotation: { ...rotation, ...patch } }],
  });

  it('normalizes what it accepts: canonical zone, weekday 1 for weekly, overrides as UTC instants', () => {
    const result = validateSchedule({
      timezone: 'europe/berlin',
      layers: [{ name: 'primary', rotation: { ...rotation, kind: 'weekly' } }],
      overrides: [{ user: 'ola', start_at: '2026-03-29T09:00:00+02:00', end_at: '2026-03-29T10:00:00Z' }],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        timezone: 'Europe/Berlin',
        layers: [{ name: 'primary', rotation: { ...rotation, kind: 'weekly', handoff_weekday: 1 } }],
        overrides: [{ user: 'ola', start_at: '2026-03-29T07:00:00.000Z', end_at: '2026-03-29T10:00:00.000Z' }],
      },
    });
    expect(validateSchedule({ timezone: 'UTC', layers: [{ name: 'p', rotation }] })).toMatchObject({
      ok: true,
      value: { overrides: [] },
    });
  });

  it.each([
    [
      'an unknown time zone',
      { timezone: 'Mars/Olympus_Mons', layers: [{ name: 'p', rotation }] },
      'timezone',
      /IANA time zone/,
    ],
    [
      'a fixed offset as time zone',
      { timezone: '+01:00', layers: [{ name: 'p', rotation }] },
      'timezone',
      /IANA time zone/,
    ],
    [
      'a handoff time without a leading zero',
      withRotation({ handoff_time: '9:00' }),
      'layers[0].rotation.handoff_time',
      /HH:MM/,
    ],
    ['a handoff time of 24:00', withRotation({ handoff_time: '24:00' }), 'layers[0].rotation.handoff_time', /HH:MM/],
    [
      'no participants',
      withRotation({ participants: [] }),
      'layers[0].rotation.participants',
      /at least one participant/,
    ],
    [
      'an empty participant',
      withRotation({ participants: ['ana', ' '] }),
      'layers[0].rotation.participants[1]',
      /must not be empty/,
    ],
    [
      '51 participants',
      withRotation({ participants: Array.from({ length: 51 }, (_, i) => `u${i}`) }),
      'layers[0].rotation.participants',
      /at most 50/,
    ],
    [
      'shift_hours on a daily rotation',
      withRotation({ shift_hours: 8 }),
      'layers[0].rotation.shift_hours',
      /only allowed when kind is hourly/,
    ],
    [
      'an hourly rotation without shift_hours',
      withRotation({ kind: 'hourly' }),
      'layers[0].rotation.shift_hours',
      /required when kind is hourly/,
    ],
    [
      '169-hour shifts',
      withRotation({ kind: 'hourly', shift_hours: 169 }),
      'layers[0].rotation.shift_hours',
      /1 to 168/,
    ],
    [
      'fractional shift hours',
      withRotation({ kind: 'hourly', shift_hours: 1.5 }),
      'layers[0].rotation.shift_hours',
      /whole number/,
    ],
    [
      'a weekday on a daily rotation',
      withRotation({ handoff_weekday: 3 }),
      'layers[0].rotation.handoff_weekday',
      /only allowed when kind is weekly/,
    ],
    [
      'weekday 8',
      withRotation({ kind: 'weekly', handoff_weekday: 8 }),
      'layers[0].rotation.handoff_weekday',
      /1 \(Monday\) to 7/,
    ],
    ['an unknown kind', withRotation({ kind: 'monthly' }), 'layers[0].rotation.kind', /'daily', 'weekly' or 'hourly'/],
    [
      'a date that does not exist',
      withRotation({ starts_on: '2026-02-29' }),
      'layers[0].rotation.starts_on',
      /YYYY-MM-DD/,
    ],
    ['an unknown field', withRotation({ color: 'red' }), 'layers[0].rotation.color', /not a known field/],
    [
      'a missing handoff time',
      withRotation({ handoff_time: undefined }),
      'layers[0].rotation.handoff_time',
      /is required/,
    ],
    ['no layers', { timezone: 'UTC', layers: [] }, 'layers', /at least one layer/],
    ['a missing layers field', { timezone: 'UTC' }, 'layers', /is required/],
    [
      'a blank layer name',
      { timezone: 'UTC', layers: [{ name: '', rotation }] },
      'layers[0].name',
      /must not be empty/,
    ],
    [
      'an override that ends at its start',
      {
        ...withRotation({}),
        overrides: [{ user: 'ola', start_at: '2026-03-01T10:00:00Z', end_at: '2026-03-01T11:00:00+01:00' }],
      },
      'overrides[0].end_at',
      /after start_at/,
    ],
    [
      'an override instant without an offset',
      {
        ...withRotation({}),
        overrides: [{ user: 'ola', start_at: '2026-03-01T10:00:00', end_at: '2026-03-01T11:00:00Z' }],
      },
      'overrides[0].start_at',
      /with an offset/,
    ],
    [
      'an override without a user',
      { ...withRotation({}), overrides: [{ start_at: '2026-03-01T10:00:00Z', end_at: '2026-03-01T11:00:00Z' }] },
      'overrides[0].user',
      /is required/,
    ],
    ['a string as input', 'schedule', '', /expected object/],
  ])('refuses %s', (_what, input, path, message) => {
    const errors = errorsOf(input);
    expect(errors).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('reports every field error at once', () => {
    const errors = errorsOf({
      timezone: 'Nowhere/Land',
      layers: [
        { name: 'a', rotation: { ...rotation, handoff_time: '25:00' } },
        { name: 'b', rotation: { ...rotation, participants: [] } },
      ],
    });
    expect(errors.map((e) => e.path).sort()).toEqual([
      'layers[0].rotation.handoff_time',
      'layers[1].rotation.participants',
      'timezone',
    ]);
  });
});
