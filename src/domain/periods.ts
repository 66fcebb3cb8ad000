/**
 * Period boundaries in an IANA time zone, without a date library (spec §2.6: `period_label` is
 * YYYY-MM in the statement's own timezone). Every boundary is a UTC instant in ms since the epoch,
 * and every period is half-open: [start, end).
 *
 * - Offsets come from `Intl.DateTimeFormat` (the runtime's ICU tz data), so DST rules, 30-minute
 *   DST (Australia/Lord_Howe), 45-minute offsets (Asia/Kathmandu, Pacific/Chatham) and
 *   DST changes at midnight (America/Santiago) need no table of our own.
 * - A local wall time that occurs twice (clocks going back) resolves to the earlier instant; one
 *   that does not exist (clocks going forward) resolves to the instant the clocks jumped, shifted
 *   by the same amount as the gap ("compatible" disambiguation, as in Temporal). So a day or month
 *   whose local midnight is skipped starts at the transition.
 * - A calendar day is whatever lies between two local midnights: 23, 24, 25 hours, or 23.5/24.5 h
 *   with a 30-minute DST. A rolling window counts days of exactly 24 h, ignoring the calendar.
 * - An unknown zone throws `UnknownTimeZoneError` (code `unknown_timezone`). Aliases ICU knows
 *   (`US/Eastern`, `UTC`, `utc`) are accepted; fixed offsets such as `+01:00` are not zones.
 */
import type { Interval } from './status-timeline';

export const DAY_MS = 86_400_000;

export class UnknownTimeZoneError extends Error {
  readonly code = 'unknown_timezone' as const;
  constructor(readonly timezone: string) {
    super(`unknown time zone: ${JSON.stringify(timezone)}`);
    this.name = 'UnknownTimeZoneError';
  }
}

export class InvalidPeriodError extends Error {
  readonly code = 'invalid_period' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPeriodError';
  }
}

/** A calendar month in a zone: label YYYY-MM and its [start, end) instants. */
export interface CalendarMonth extends Interval {
  label: string;
  timezone: string;
}

/** A calendar day in a zone: date YYYY-MM-DD and its [start, end) instants. */
export interface CalendarDay extends Interval {
  date: string;
}

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  const cached = formatters.get(timezone);
  if (cached) return cached;
  if (typeof timezone !== 'string' || timezone.trim() === '') throw new UnknownTimeZoneError(String(timezone));
  let f: Intl.DateTimeFormat;
  try {
    f = new Intl.DateTimeFormat('en-US-u-nu-latn', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    throw new UnknownTimeZoneError(timezone);
  }
  formatters.set(timezone, f);
  return f;
}

export function isValidTimeZone(timezone: string): boolean {
  try {
    formatterFor(timezone);
    return true;
  } catch {
    return false;
  }
}

/** Returns the zone unchanged, or throws `UnknownTimeZoneError`. */
export function assertTimeZone(timezone: string): string {
  formatterFor(timezone);
  return timezone;
}

/** Wall-clock fields as if they were UTC (years 0..99 are taken literally). */
function wallMs(t: Pick<LocalDateTime, 'year' | 'month' | 'day'> & Partial<LocalDateTime>): number {
  const d = new Date(Date.UTC(2000, t.month - 1, t.day, t.hour ?? 0, t.minute ?? 0, t.second ?? 0));
  d.setUTCFullYear(t.year + d.getUTCFullYear() - 2000);
  return d.getTime();
}

/** The local wall-clock reading of an instant (seconds precision). */
export function localDateTime(ms: number, timezone: string): LocalDateTime {
  const parts = formatterFor(timezone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** Offset of the zone at an instant, in ms (local = UTC + offset): +3_600_000 for Berlin in winter. */
export function timeZoneOffsetMs(ms: number, timezone: string): number {
  return wallMs(localDateTime(ms, timezone)) - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of a local wall time; see the module comment for skipped and repeated times. */
export function zonedTimeToUtc(
  t: Pick<LocalDateTime, 'year' | 'month' | 'day'> & Partial<LocalDateTime>,
  timezone: string,
): number {
  const wall = wallMs(t);
  const before = timeZoneOffsetMs(wall - DAY_MS, timezone);
  const after = timeZoneOffsetMs(wall + DAY_MS, timezone);
  const valid = [wall - before, wall - after].filter((u) => u + timeZoneOffsetMs(u, timezone) === wall);
  if (valid.length > 0) return Math.min(...valid);
  return wall - before;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const MONTH_LABEL = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DATE_LABEL = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** 'YYYY-MM' of the instant in the zone (spec §2.6 period_label). */
export function periodLabel(ms: number, timezone: string): string {
  const t = localDateTime(ms, timezone);
  return `${pad(t.year, 4)}-${pad(t.month)}`;
}

/** 'YYYY-MM-DD' of the instant in the zone. */
export function dayLabel(ms: number, timezone: string): string {
  const t = localDateTime(ms, timezone);
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
}

export function parsePeriodLabel(label: string): { year: number; month: number } {
  const m = MONTH_LABEL.exec(label);
  if (!m) throw new InvalidPeriodError(`period must be YYYY-MM, got ${JSON.stringify(label)}`);
  return { year: Number(m[1]), month: Number(m[2]) };
}

/** Calendar month 'YYYY-MM' in the zone: [local midnight of the 1st, local midnight of the next 1st). */
export function calendarMonth(label: string, timezone: string): CalendarMonth {
  assertTimeZone(timezone);
  const { year, month } = parsePeriodLabel(label);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return {
    label,
    timezone,
    start: zonedTimeToUtc({ year, month, day: 1 }, timezone),
    end: zonedTimeToUtc({ ...next, day: 1 }, timezone),
  };
}

/** The calendar month that contains the instant, in the zone. */
export function calendarMonthAt(ms: number, timezone: string): CalendarMonth {
  return calendarMonth(periodLabel(ms, timezone), timezone);
}

/** Calendar day 'YYYY-MM-DD' in the zone: [local midnight, next local midnight). */
export function calendarDay(date: string, timezone: string): CalendarDay {
  assertTimeZone(timezone);
  const m = DATE_LABEL.exec(date);
  const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const probe = new Date(wallMs({ year, month, day }));
  if (!m || probe.getUTCMonth() + 1 !== month || probe.getUTCDate() !== day) {
    throw new InvalidPeriodError(`date must be a real YYYY-MM-DD, got ${JSON.stringify(date)}`);
  }
  const next = new Date(probe.getTime() + DAY_MS);
  return {
    date,
    start: zonedTimeToUtc({ year, month, day }, timezone),
    end: zonedTimeToUtc(
      { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() },
      timezone,
    ),
  };
}

/** The calendar day that contains the instant, in the zone. */
export function calendarDayAt(ms: number, timezone: string): CalendarDay {
  return calendarDay(dayLabel(ms, timezone), timezone);
}

/**
 * The `count` calendar days ending with the day that contains `now` (today included), oldest
 * first. Days are whole: today's `end` lies after `now`, so callers count only up to `now`.
 */
export function lastCalendarDays(count: number, now: number, timezone: string): CalendarDay[] {
  if (!Number.isInteger(count) || count < 1)
    throw new InvalidPeriodError(`day count must be a positive integer, got ${count}`);
  const today = localDateTime(now, timezone);
  const todayWall = wallMs({ year: today.year, month: today.month, day: today.day });
  const days: CalendarDay[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(todayWall - i * DAY_MS);
    days.push(
      calendarDay(`${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`, timezone),
    );
  }
  return days;
}

/** The last `days` × 24 h ending at `now`: [now − days·24h, now). Zone-free by design. */
export function rollingWindow(days: number, now: number): Interval {
  if (!Number.isInteger(days) || days < 1)
    throw new InvalidPeriodError(`rolling window days must be a positive integer, got ${days}`);
  if (!Number.isFinite(now)) throw new InvalidPeriodError('now must be a finite instant');
  return { start: now - days * DAY_MS, end: now };
}
