import {
  DAY_MS,
  InvalidPeriodError,
  UnknownTimeZoneError,
  assertTimeZone,
  calendarDay,
  calendarDayAt,
  calendarMonth,
  calendarMonthAt,
  dayLabel,
  isValidTimeZone,
  lastCalendarDays,
  localDateTime,
  parsePeriodLabel,
  periodLabel,
  rollingWindow,
  timeZoneOffsetMs,
  zonedTimeToUtc,
} from '../../src/domain/periods';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const H = 3_600_000;

describe('time zone validation', () => {
  it.each([
    'UTC',
    'utc',
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'US/Eastern',
    'Etc/GMT+5',
  ])('accepts %s', (tz) => {
    expect(isValidTimeZone(tz)).toBe(true);
    expect(assertTimeZone(tz)).toBe(tz);
  });

  it.each(['Mars/Olympus', 'Europe/Berln', '', '  ', '+01:00', 'GMT+25'])(
    'rejects %j with a typed unknown_timezone error',
    (tz) => {
      expect(isValidTimeZone(tz)).toBe(false);
      expect(() => assertTimeZone(tz)).toThrow(UnknownTimeZoneError);
      try {
        calendarMonth('2024-01', tz);
        throw new Error('expected a throw');
      } catch (e) {
        expect(e).toBeInstanceOf(UnknownTimeZoneError);
        expect((e as UnknownTimeZoneError).code).toBe('unknown_timezone');
        expect((e as UnknownTimeZoneError).timezone).toBe(tz);
      }
    },
  );

  it('rejects an unknown zone in every zone-taking function', () => {
    for (const call of [
      () => periodLabel(0, 'Nowhere/City'),
      () => dayLabel(0, 'Nowhere/City'),
      () => calendarDay('2024-01-01', 'Nowhere/City'),
      () => calendarMonthAt(0, 'Nowhere/City'),
      () => lastCalendarDays(3, 0, 'Nowhere/City'),
      () => timeZoneOffsetMs(0, 'Nowhere/City'),
    ]) {
      expect(call).toThrow(UnknownTimeZoneError);
    }
  });
});

describe('offsets and wall times', () => {
  it.each([
    ['UTC', '2024-07-01T00:00:00Z', 0],
    ['Europe/Berlin', '2024-01-15T12:00:00Z', 1 * H],
    ['Europe/Berlin', '2024-07-15T12:00:00Z', 2 * H],
    ['America/New_York', '2024-01-15T12:00:00Z', -5 * H],
    ['America/New_York', '2024-07-15T12:00:00Z', -4 * H],
    ['Asia/Kathmandu', '2024-07-15T12:00:00Z', 5.75 * H],
    ['Australia/Lord_Howe', '2024-07-15T12:00:00Z', 10.5 * H],
    ['Australia/Lord_Howe', '2024-01-15T12:00:00Z', 11 * H],
    ['Pacific/Chatham', '2024-07-15T12:00:00Z', 12.75 * H],
    ['Pacific/Chatham', '2024-01-15T12:00:00Z', 13.75 * H],
  ])('%s at %s is UTC%+d ms', (tz, at, offset) => expect(timeZoneOffsetMs(ms(at), tz)).toBe(offset));

  it('reads local wall-clock fields, with hour 0 (never 24) at midnight', () => {
    expect(localDateTime(ms('2024-03-31T22:00:00Z'), 'Europe/Berlin')).toEqual({
      year: 2024,
      month: 4,
      day: 1,
      hour: 0,
      minute: 0,
      second: 0,
    });
  });

  it('turns a repeated wall time (clocks going back) into its earlier instant', () => {
    // Berlin 2024-10-27 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET).
    expect(iso(zonedTimeToUtc({ year: 2024, month: 10, day: 27, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe(
      '2024-10-27T00:30:00.000Z',
    );
  });

  it('moves a skipped wall time (clocks going forward) past the gap', () => {
    // Berlin 2024-03-31 02:30 does not exist: it resolves to 03:30 CEST = 01:30Z.
    expect(iso(zonedTimeToUtc({ year: 2024, month: 3, day: 31, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe(
      '2024-03-31T01:30:00.000Z',
    );
    // Lord Howe skips 02:00–02:30 on 2024-10-06: 02:15 resolves to 02:45 (+11) = 15:45Z the day before.
    expect(iso(zonedTimeToUtc({ year: 2024, month: 10, day: 6, hour: 2, minute: 15 }, 'Australia/Lord_Howe'))).toBe(
      '2024-10-05T15:45:00.000Z',
    );
  });
});

describe('calendar months: [local midnight of the 1st, next 1st) as exact UTC instants', () => {
  it.each([
    // zone, label, start, end, length in hours
    ['UTC', '2024-01', '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', 744],
    ['UTC', '2024-02', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z', 696], // leap year: 29 days
    ['UTC', '2023-02', '2023-02-01T00:00:00.000Z', '2023-03-01T00:00:00.000Z', 672],
    ['UTC', '2100-02', '2100-02-01T00:00:00.000Z', '2100-03-01T00:00:00.000Z', 672], // century, not leap
    ['UTC', '2000-02', '2000-02-01T00:00:00.000Z', '2000-03-01T00:00:00.000Z', 696], // 400-year rule: leap
    ['UTC', '2024-12', '2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 744],
    ['Europe/Berlin', '2024-01', '2023-12-31T23:00:00.000Z', '2024-01-31T23:00:00.000Z', 744],
    ['Europe/Berlin', '2024-03', '2024-02-29T23:00:00.000Z', '2024-03-31T22:00:00.000Z', 743], // spring forward
    ['Europe/Berlin', '2024-10', '2024-09-30T22:00:00.000Z', '2024-10-31T23:00:00.000Z', 745], // fall back
    ['Europe/Berlin', '2024-12', '2024-11-30T23:00:00.000Z', '2024-12-31T23:00:00.000Z', 744], // year boundary
    ['America/New_York', '2024-03', '2024-03-01T05:00:00.000Z', '2024-04-01T04:00:00.000Z', 743],
    ['America/New_York', '2024-11', '2024-11-01T04:00:00.000Z', '2024-12-01T05:00:00.000Z', 721],
    ['America/New_York', '2024-02', '2024-02-01T05:00:00.000Z', '2024-03-01T05:00:00.000Z', 696],
    ['Australia/Lord_Howe', '2024-04', '2024-03-31T13:00:00.000Z', '2024-04-30T13:30:00.000Z', 720.5], // 30-min fall back
    ['Australia/Lord_Howe', '2024-10', '2024-09-30T13:30:00.000Z', '2024-10-31T13:00:00.000Z', 743.5], // 30-min spring forward
    ['Asia/Kathmandu', '2024-02', '2024-01-31T18:15:00.000Z', '2024-02-29T18:15:00.000Z', 696],
    ['Pacific/Chatham', '2025-01', '2024-12-31T10:15:00.000Z', '2025-01-31T10:15:00.000Z', 744], // the new year starts on 31 Dec UTC
    ['Pacific/Chatham', '2024-04', '2024-03-31T10:15:00.000Z', '2024-04-30T11:15:00.000Z', 721], // DST ends 7 Apr
    ['Pacific/Chatham', '2024-09', '2024-08-31T11:15:00.000Z', '2024-09-30T10:15:00.000Z', 719], // DST starts 29 Sep
    ['America/Santiago', '2024-09', '2024-09-01T04:00:00.000Z', '2024-10-01T03:00:00.000Z', 719], // DST at midnight on the 8th
  ])('%s %s is [%s, %s), %d h', (tz, label, start, end, hours) => {
    const m = calendarMonth(label, tz);
    expect(iso(m.start)).toBe(start);
    expect(iso(m.end)).toBe(end);
    expect((m.end - m.start) / H).toBe(hours);
    expect(m).toMatchObject({ label, timezone: tz });
  });

  it('consecutive months tile time without gaps or overlaps, across a year in a DST zone', () => {
    for (const tz of ['Europe/Berlin', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Santiago']) {
      let prev = calendarMonth('2023-12', tz);
      for (let month = 1; month <= 12; month++) {
        const m = calendarMonth(`2024-${String(month).padStart(2, '0')}`, tz);
        expect(m.start).toBe(prev.end);
        expect(periodLabel(m.start, tz)).toBe(m.label);
        expect(periodLabel(m.end - 1, tz)).toBe(m.label);
        prev = m;
      }
    }
  });

  it('labels an instant with the month of its zone, not of UTC', () => {
    const t = ms('2024-12-31T23:30:00Z');
    expect(periodLabel(t, 'UTC')).toBe('2024-12');
    expect(periodLabel(t, 'Europe/Berlin')).toBe('2025-01');
    expect(periodLabel(t, 'America/New_York')).toBe('2024-12');
    expect(periodLabel(ms('2024-12-31T10:15:00Z'), 'Pacific/Chatham')).toBe('2025-01');
    expect(periodLabel(ms('2024-12-31T10:14:59.999Z'), 'Pacific/Chatham')).toBe('2024-12');
  });

  it('finds the month containing an instant, boundaries included in the later month', () => {
    expect(calendarMonthAt(ms('2024-02-29T23:00:00Z'), 'Europe/Berlin').label).toBe('2024-03');
    expect(calendarMonthAt(ms('2024-02-29T22:59:59.999Z'), 'Europe/Berlin').label).toBe('2024-02');
  });

  it.each(['2024-13', '2024-00', '2024-1', '24-01', '2024/01', '2024-01-01', ''])(
    'rejects the period label %j',
    (label) => {
      expect(() => parsePeriodLabel(label)).toThrow(InvalidPeriodError);
      expect(() => calendarMonth(label, 'UTC')).toThrow(InvalidPeriodError);
    },
  );
});

describe('calendar days: 23, 24 or 25 hours', () => {
  it.each([
    ['Europe/Berlin', '2024-03-31', '2024-03-30T23:00:00.000Z', 23],
    ['Europe/Berlin', '2024-10-27', '2024-10-26T22:00:00.000Z', 25],
    ['Europe/Berlin', '2024-06-01', '2024-05-31T22:00:00.000Z', 24],
    ['America/New_York', '2024-03-10', '2024-03-10T05:00:00.000Z', 23],
    ['America/New_York', '2024-11-03', '2024-11-03T04:00:00.000Z', 25],
    ['Australia/Lord_Howe', '2024-04-07', '2024-04-06T13:00:00.000Z', 24.5],
    ['Australia/Lord_Howe', '2024-10-06', '2024-10-05T13:30:00.000Z', 23.5],
    ['Pacific/Chatham', '2024-09-29', '2024-09-28T11:15:00.000Z', 23],
    ['Asia/Kathmandu', '2024-02-29', '2024-02-28T18:15:00.000Z', 24],
    // Santiago's clocks jump from 00:00 to 01:00: the day starts at the jump.
    ['America/Santiago', '2024-09-08', '2024-09-08T04:00:00.000Z', 23],
    ['America/Santiago', '2024-09-07', '2024-09-07T04:00:00.000Z', 24],
  ])('%s %s starts at %s and lasts %d h', (tz, date, start, hours) => {
    const d = calendarDay(date, tz);
    expect(iso(d.start)).toBe(start);
    expect((d.end - d.start) / H).toBe(hours);
    expect(dayLabel(d.start, tz)).toBe(date);
    expect(dayLabel(d.end - 1, tz)).toBe(date);
    expect(calendarDayAt(d.end - 1, tz)).toEqual(d);
  });

  it('the day after a skipped midnight is labelled by its first local instant (01:00)', () => {
    expect(localDateTime(calendarDay('2024-09-08', 'America/Santiago').start, 'America/Santiago')).toMatchObject({
      day: 8,
      hour: 1,
      minute: 0,
    });
  });

  it.each(['2023-02-29', '2024-02-30', '2024-04-31', '2024-1-01', '2024-13-01', 'yesterday'])(
    'rejects the date %j',
    (date) => {
      expect(() => calendarDay(date, 'UTC')).toThrow(InvalidPeriodError);
    },
  );

  it('accepts 29 February in a leap year', () => {
    expect(calendarDay('2024-02-29', 'UTC').end - calendarDay('2024-02-29', 'UTC').start).toBe(DAY_MS);
  });
});

describe('last calendar days (per-day uptime history)', () => {
  it('gives the N days ending with today, oldest first, contiguous', () => {
    const now = ms('2024-03-31T12:00:00Z'); // 14:00 in Berlin, on the 23-hour day
    const days = lastCalendarDays(90, now, 'Europe/Berlin');
    expect(days).toHaveLength(90);
    expect(days[89]?.date).toBe('2024-03-31');
    expect(days[0]?.date).toBe('2024-01-02');
    for (let i = 1; i < days.length; i++) expect(days[i]?.start).toBe(days[i - 1]?.end);
    expect(days.find((d) => d.date === '2024-02-29')).toBeDefined();
    expect(((days[89]?.end ?? 0) - (days[89]?.start ?? 0)) / H).toBe(23);
  });

  it('takes today from the zone: late evening in New York is already tomorrow in UTC', () => {
    const now = ms('2025-01-01T03:00:00Z');
    expect(lastCalendarDays(2, now, 'America/New_York').map((d) => d.date)).toEqual(['2024-12-30', '2024-12-31']);
    expect(lastCalendarDays(2, now, 'UTC').map((d) => d.date)).toEqual(['2024-12-31', '2025-01-01']);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects a count of %d', (count) => {
    expect(() => lastCalendarDays(count, 0, 'UTC')).toThrow(InvalidPeriodError);
  });
});

describe('rolling windows', () => {
  it('is [now − N × 24 h, now), whatever the DST changes inside', () => {
    const now = ms('2024-04-15T10:00:00Z');
    expect(rollingWindow(30, now)).toEqual({ start: now - 30 * DAY_MS, end: now });
    expect(iso(rollingWindow(30, now).start)).toBe('2024-03-16T10:00:00.000Z');
    expect(rollingWindow(1, now)).toEqual({ start: now - DAY_MS, end: now });
  });

  it.each([0, -7, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects %d days', (days) => {
    expect(() => rollingWindow(days, 0)).toThrow(InvalidPeriodError);
  });

  it('rejects a non-finite now', () => {
    expect(() => rollingWindow(7, Number.NaN)).toThrow(InvalidPeriodError);
  });
});
