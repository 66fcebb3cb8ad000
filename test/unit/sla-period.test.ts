import { calendarMonth } from '../../src/domain/periods';
import {
  InvalidPeriodError,
  UnknownTimeZoneError,
  UnknownTzDataVersionError,
  assertIanaTimeZone,
  periodBounds,
  periodOf,
  tzDataVersion,
} from '../../src/domain/sla';

const utc = (iso: string): Date => new Date(iso);

describe('periodBounds: [first of month, first of next month) in the statement zone, minutes from the instants', () => {
  it.each([
    // Europe/Berlin 2025-03: starts 00:00 CET (+01:00) = 02-28 23:00Z; ends 04-01 00:00 CEST (+02:00) = 03-31 22:00Z.
    // 31 days × 1440 = 44,640, minus the hour skipped on 03-30 (02:00 → 03:00) = 44,580.
    ['Europe/Berlin', '2025-03', '2025-02-28T23:00:00Z', '2025-03-31T22:00:00Z', 44_580],
    // Australia/Lord_Howe 2025-04: starts 00:00 +11:00 = 03-31 13:00Z; DST ends 04-06 (02:00 → 01:30, a
    // 30-minute shift); ends 05-01 00:00 +10:30 = 04-30 13:30Z. 30 × 1440 = 43,200 + 30 = 43,230.
    ['Australia/Lord_Howe', '2025-04', '2025-03-31T13:00:00Z', '2025-04-30T13:30:00Z', 43_230],
    // Australia/Lord_Howe 2025-10: DST starts 10-05 (02:00 → 02:30): starts 10-01 00:00 +10:30 = 09-30 13:30Z,
    // ends 11-01 00:00 +11:00 = 10-31 13:00Z. 31 × 1440 = 44,640 − 30 = 44,610.
    ['Australia/Lord_Howe', '2025-10', '2025-09-30T13:30:00Z', '2025-10-31T13:00:00Z', 44_610],
    // Pacific/Auckland 2025-04: NZDT (+13) ends 04-06 03:00 → 02:00 NZST (+12). Starts 04-01 00:00+13 = 03-31 11:00Z,
    // ends 05-01 00:00+12 = 04-30 12:00Z. 30 × 1440 = 43,200 + 60 = 43,260.
    ['Pacific/Auckland', '2025-04', '2025-03-31T11:00:00Z', '2025-04-30T12:00:00Z', 43_260],
    // Pacific/Auckland 2025-09: NZDT starts 09-28 02:00 → 03:00. Starts 09-01 00:00+12 = 08-31 12:00Z,
    // ends 10-01 00:00+13 = 09-30 11:00Z. 30 × 1440 = 43,200 − 60 = 43,140.
    ['Pacific/Auckland', '2025-09', '2025-08-31T12:00:00Z', '2025-09-30T11:00:00Z', 43_140],
    // America/St_Johns 2025-03: NST (−03:30) → NDT (−02:30) on 03-09. Starts 03-01 00:00−03:30 = 03-01 03:30Z,
    // ends 04-01 00:00−02:30 = 04-01 02:30Z. 31 × 1440 = 44,640 − 60 = 44,580.
    ['America/St_Johns', '2025-03', '2025-03-01T03:30:00Z', '2025-04-01T02:30:00Z', 44_580],
    // America/St_Johns 2025-11: NDT → NST on 11-02. Starts 11-01 00:00−02:30 = 11-01 02:30Z,
    // ends 12-01 00:00−03:30 = 12-01 03:30Z. 30 × 1440 = 43,200 + 60 = 43,260.
    ['America/St_Johns', '2025-11', '2025-11-01T02:30:00Z', '2025-12-01T03:30:00Z', 43_260],
    // UTC January: 31 × 1440 = 44,640.
    ['UTC', '2025-01', '2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z', 44_640],
    // UTC February of a leap year: 29 × 1440 = 41,760.
    ['UTC', '2024-02', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', 41_760],
    // Across the year end in Berlin (CET all month): 11-30 23:00Z → 12-31 23:00Z, 31 × 1440 = 44,640.
    ['Europe/Berlin', '2024-12', '2024-11-30T23:00:00Z', '2024-12-31T23:00:00Z', 44_640],
  ])('%s %s: [%s, %s) = %d minutes', (zone, label, start, end, minutes) => {
    const b = periodBounds(label, zone);
    expect(b.start.toISOString()).toBe(new Date(start).toISOString());
    expect(b.end.toISOString()).toBe(new Date(end).toISOString());
    expect(b.eligibleMinutes).toBe(minutes);
    expect(Number.isInteger(b.eligibleMinutes)).toBe(true);
    expect(b.label).toBe(label);
    expect(b.timeZone).toBe(zone);
  });

  it('is not days × 1440 in a DST month', () => {
    // 31 × 1440 = 44,640 would be an hour too many for Berlin in March 2025.
    expect(periodBounds('2025-03', 'Europe/Berlin').eligibleMinutes).not.toBe(31 * 1440);
  });

  it('agrees with the Intl-based calendar months of src/domain/periods.ts (an independent implementation)', () => {
    for (const zone of [
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'Pacific/Auckland',
      'America/St_Johns',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'America/Santiago',
      'UTC',
    ]) {
      for (let m = 1; m <= 12; m++) {
        const label = `2025-${String(m).padStart(2, '0')}`;
        const ours = periodBounds(label, zone);
        const theirs = calendarMonth(label, zone);
        expect([label, zone, ours.start.getTime(), ours.end.getTime()]).toEqual([
          label,
          zone,
          theirs.start,
          theirs.end,
        ]);
      }
    }
  });

  it('canonicalizes the spelling of the zone', () => {
    expect(periodBounds('2025-03', 'europe/berlin').timeZone).toBe('Europe/Berlin');
    expect(assertIanaTimeZone('US/Eastern')).toBe('US/Eastern');
  });

  it.each(['2025-13', '2025-00', '2025-3', '25-03', '2025/03', '2025-03-01', ' 2025-03', '2025-03 ', '', 'March 2025'])(
    'refuses the label %j with a typed invalid_period error',
    (label) => {
      expect(() => periodBounds(label, 'UTC')).toThrow(InvalidPeriodError);
      expect(() => periodBounds(label, 'UTC')).toThrow(expect.objectContaining({ code: 'invalid_period' }));
    },
  );

  it.each([
    'Mars/Olympus',
    'Europe/Berln',
    '',
    ' ',
    '+01:00',
    '-03:30',
    'Z',
    '2025-03-01T00:00[Europe/Berlin]',
    'Europe/Berlin ',
    'GMT+25',
  ])('refuses the zone %j with a typed unknown_timezone error', (zone) => {
    expect(() => periodBounds('2025-03', zone)).toThrow(UnknownTimeZoneError);
    expect(() => periodOf(utc('2025-03-10T00:00:00Z'), zone)).toThrow(UnknownTimeZoneError);
    expect(() => assertIanaTimeZone(zone)).toThrow(UnknownTimeZoneError);
    expect(() => assertIanaTimeZone(zone)).toThrow(expect.objectContaining({ code: 'unknown_timezone' }));
  });
});

describe('periodOf: the YYYY-MM period containing an instant', () => {
  it.each([
    // Berlin March 2025 is [02-28 23:00Z, 03-31 22:00Z).
    ['2025-02-28T22:59:59.999Z', 'Europe/Berlin', '2025-02'],
    ['2025-02-28T23:00:00.000Z', 'Europe/Berlin', '2025-03'],
    ['2025-03-31T21:59:59.999Z', 'Europe/Berlin', '2025-03'],
    ['2025-03-31T22:00:00.000Z', 'Europe/Berlin', '2025-04'],
    // Lord_Howe April 2025 ends at 04-30 13:30Z (00:00 +10:30).
    ['2025-04-30T13:29:59.999Z', 'Australia/Lord_Howe', '2025-04'],
    ['2025-04-30T13:30:00.000Z', 'Australia/Lord_Howe', '2025-05'],
    // St John's: 2025-01-01 03:29Z is still 2024-12-31 23:59 at −03:30.
    ['2025-01-01T03:29:00Z', 'America/St_Johns', '2024-12'],
    ['2025-01-01T03:30:00Z', 'America/St_Johns', '2025-01'],
    ['2025-01-31T23:59:59Z', 'UTC', '2025-01'],
  ])('%s in %s → %s', (instant, zone, label) => {
    expect(periodOf(utc(instant), zone)).toBe(label);
  });

  it('maps every period start to its label and the last millisecond before its end to it too', () => {
    for (const zone of ['Europe/Berlin', 'Australia/Lord_Howe', 'Pacific/Auckland', 'America/St_Johns']) {
      for (const label of ['2024-12', '2025-01', '2025-03', '2025-04', '2025-09', '2025-10', '2025-11']) {
        const b = periodBounds(label, zone);
        expect(periodOf(b.start, zone)).toBe(label);
        expect(periodOf(new Date(b.end.getTime() - 1), zone)).toBe(label);
      }
    }
  });

  it('refuses an invalid Date', () => {
    expect(() => periodOf(new Date(Number.NaN), 'UTC')).toThrow(/valid Date/);
  });
});

describe('tzDataVersion: the runtime tz data version recorded in a statement', () => {
  it('passes a tzdb version through', () => {
    expect(tzDataVersion('2025b')).toBe('2025b');
    expect(tzDataVersion('2024a')).toBe('2024a');
  });

  it.each([undefined, '', '2025', 'latest', '25b', '2025B'])('refuses %j with a typed error', (v) => {
    expect(() => tzDataVersion(v)).toThrow(UnknownTzDataVersionError);
  });
});
