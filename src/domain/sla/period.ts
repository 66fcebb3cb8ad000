/**
 * Statement periods ("Period bounds"): a period is a calendar month `YYYY-MM` in the
 * contract's statement time zone, `[first of the month 00:00, first of the next month 00:00)`,
 * held as UTC instants. Calendar arithmetic is temporal-polyfill's, imported locally (never the
 * global `Temporal`).
 *
 * - Minutes come from the difference of the two instants, never days × 1440: a month with a DST
 *   change has an hour (or, in Australia/Lord_Howe, 30 minutes) more or less.
 * - A local midnight that does not exist (a DST jump at 00:00, e.g. America/Santiago) starts the
 *   day at the first instant that exists (Temporal's start-of-day), as src/domain/periods.ts does.
 * - Time zones: IANA names as the runtime knows them, case-insensitive (`europe/berlin` becomes
 *   `Europe/Berlin`), aliases such as `US/Eastern` and `UTC` included. Fixed UTC offsets (`+01:00`)
 *   and ISO strings are refused: a contract's statement zone is a place, not an offset.
 * - Time zone data: temporal-polyfill exposes no tz data version; it reads the rules through
 *   `Intl.DateTimeFormat`, i.e. the ICU tz data of the Node runtime (`process.versions.tz`, e.g.
 *   "2025b"). Domain code may not read `process`, so the caller passes that value to
 *   `tzDataVersion()` and records the result with the statement.
 */
import { Temporal } from 'temporal-polyfill';
import { InvalidPeriodError, InvalidSlaInputError, UnknownTimeZoneError, UnknownTzDataVersionError } from './errors';

export const PERIOD_LABEL_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
const MINUTE_MS = 60_000;
/** Named zones only: letters first, then letters, digits, `_`, `-`, `+`, `/` (e.g. `Etc/GMT+5`). */
const ZONE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

export interface PeriodBounds {
  /** `YYYY-MM`. */
  label: string;
  /** The zone as Temporal canonicalizes its spelling (`europe/berlin` → `Europe/Berlin`). */
  timeZone: string;
  /** First instant of the period (inclusive). */
  start: Date;
  /** First instant after the period (exclusive). */
  end: Date;
  /** (end − start) in whole minutes: every minute of the period, before any exclusion. */
  eligibleMinutes: number;
}

/** The zone's canonical spelling, or `UnknownTimeZoneError` (code `unknown_timezone`). */
export function assertIanaTimeZone(timeZone: string): string {
  if (typeof timeZone !== 'string' || !ZONE_NAME_PATTERN.test(timeZone))
    throw new UnknownTimeZoneError(String(timeZone));
  try {
    return new Temporal.ZonedDateTime(0n, timeZone).timeZoneId;
  } catch {
    throw new UnknownTimeZoneError(timeZone);
  }
}

export function isValidPeriodLabel(label: unknown): label is string {
  return typeof label === 'string' && PERIOD_LABEL_PATTERN.test(label);
}

function parseLabel(label: string): { year: number; month: number } {
  if (!isValidPeriodLabel(label))
    throw new InvalidPeriodError(`period must be YYYY-MM (month 01..12), got ${JSON.stringify(label)}`);
  return { year: Number(label.slice(0, 4)), month: Number(label.slice(5, 7)) };
}

function startOfMonth(year: number, month: number, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.PlainDate.from({ year, month, day: 1 }, { overflow: 'reject' }).toZonedDateTime({ timeZone });
}

/** `[first of month 00:00, first of next month 00:00)` of `label` in `timeZone`, as UTC instants. */
export function periodBounds(label: string, timeZone: string): PeriodBounds {
  const { year, month } = parseLabel(label);
  const zone = assertIanaTimeZone(timeZone);
  const start = startOfMonth(year, month, zone);
  const next = Temporal.PlainYearMonth.from({ year, month }).add({ months: 1 });
  const end = startOfMonth(next.year, next.month, zone);
  const ms = end.epochMilliseconds - start.epochMilliseconds;
  // Only historical local-mean-time offsets (seconds, before ~1900) give a non-whole minute count.
  if (ms <= 0 || ms % MINUTE_MS !== 0)
    throw new InvalidPeriodError(`${label} in ${zone} is not a whole number of minutes (${ms} ms)`);
  return {
    label,
    timeZone: zone,
    start: new Date(start.epochMilliseconds),
    end: new Date(end.epochMilliseconds),
    eligibleMinutes: ms / MINUTE_MS,
  };
}

/** The `YYYY-MM` period containing `instant` in `timeZone`. */
export function periodOf(instant: Date, timeZone: string): string {
  const ms = instant instanceof Date ? instant.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new InvalidSlaInputError('periodOf needs a valid Date');
  const zone = assertIanaTimeZone(timeZone);
  const local = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  if (local.year < 0 || local.year > 9999) throw new InvalidPeriodError(`year ${local.year} has no YYYY-MM label`);
  return `${String(local.year).padStart(4, '0')}-${String(local.month).padStart(2, '0')}`;
}

/** Where the tz rules come from: the runtime's Intl (ICU) data, via temporal-polyfill. */
export const TZ_DATA_SOURCE = 'intl-icu' as const;
const TZ_VERSION_PATTERN = /^\d{4}[a-z]{1,2}$/;

/**
 * The tz data version to record in a statement. temporal-polyfill has none of its own (it uses
 * the runtime's `Intl`), so the caller passes the runtime's `process.versions.tz` (Node) and
 * this validates it: `"2025b"` → `"2025b"`; missing or malformed → `UnknownTzDataVersionError`.
 */
export function tzDataVersion(runtimeTzVersion: string | undefined): string {
  if (typeof runtimeTzVersion !== 'string' || !TZ_VERSION_PATTERN.test(runtimeTzVersion))
    throw new UnknownTzDataVersionError(runtimeTzVersion);
  return runtimeTzVersion;
}

const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A calendar date `YYYY-MM-DD` that exists (2025-02-29 does not). */
export function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The part of the period a contract is in effect: from local midnight of `effectiveFrom` to local
 * midnight after `effectiveTo` (inclusive last day, null = open-ended), clipped to the period.
 * Null when the contract is not in effect at any time of the period.
 */
export function effectiveWindow(
  period: PeriodBounds,
  effectiveFrom: string,
  effectiveTo: string | null,
): { start: Date; end: Date } | null {
  const from = Temporal.PlainDate.from(effectiveFrom, { overflow: 'reject' }).toZonedDateTime({
    timeZone: period.timeZone,
  }).epochMilliseconds;
  const to =
    effectiveTo === null
      ? Number.POSITIVE_INFINITY
      : Temporal.PlainDate.from(effectiveTo, { overflow: 'reject' })
          .add({ days: 1 })
          .toZonedDateTime({ timeZone: period.timeZone }).epochMilliseconds;
  const start = Math.max(period.start.getTime(), from);
  const end = Math.min(period.end.getTime(), to);
  return end > start ? { start: new Date(start), end: new Date(end) } : null;
}

/** The period that ended last before `instant` in `timeZone` (the month before the one `instant` is in). */
export function previousPeriod(instant: Date, timeZone: string): string {
  return periodDue(instant, timeZone, 0);
}

/**
 * The period whose statement is due at `instant` when statements wait `graceHours` after the
 * period's end: the month before the one the local wall-clock time `graceHours` earlier falls
 * in. Wall-clock hours, not elapsed ones: a DST change inside the grace (Sydney's first Sunday of
 * October) must not push the computation back over the month boundary.
 */
export function periodDue(instant: Date, timeZone: string, graceHours: number): string {
  const ms = instant instanceof Date ? instant.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new InvalidSlaInputError('periodDue needs a valid Date');
  if (!Number.isInteger(graceHours) || graceHours < 0)
    throw new InvalidSlaInputError(`graceHours must be an integer ≥ 0, got ${graceHours}`);
  const zone = assertIanaTimeZone(timeZone);
  const local = Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toPlainDateTime()
    .subtract({ hours: graceHours });
  const prev = Temporal.PlainYearMonth.from({ year: local.year, month: local.month }).subtract({ months: 1 });
  return `${String(prev.year).padStart(4, '0')}-${String(prev.month).padStart(2, '0')}`;
}
