/**
 * Where a rotation's handoffs fall, as UTC instants, computed directly from the shift number k
 * (k = 0 is the first handoff, at `starts_on` `handoff_time`): finding the shift that holds an
 * instant costs a few time zone conversions however long ago the rotation started.
 *
 * - daily: handoff k is at `handoff_time` local on `starts_on` + k days. Across a DST change the
 *   shift is 23 or 25 hours long; the handoff stays at the same wall-clock time.
 * - weekly: handoff 0 is at `starts_on`; every later one is at `handoff_time` local on the
 *   `handoff_weekday` (ISO 1 = Monday). If `starts_on` is another weekday, the first shift is short
 *   (it runs to the next handoff weekday), as when a PagerDuty layer starts mid-rotation. Shifts
 *   across a DST change are 167 or 169 hours long.
 * - hourly: N-hour shifts count elapsed time from handoff 0 (PagerDuty's custom shift lengths do
 *   the same), so across a DST change the local handoff times move by the hour that was skipped or
 *   repeated: 12-hour shifts at 08:00/20:00 Berlin run 09:00/21:00 after the spring change.
 * - A `handoff_time` that does not exist on a given day (in the spring DST gap) resolves with
 *   Temporal's 'compatible' disambiguation (02:30 → 03:30); one that occurs twice (autumn) takes
 *   the earlier instant.
 */
import { Temporal } from 'temporal-polyfill';

export type RotationKind = 'daily' | 'weekly' | 'hourly';

export interface Rotation {
  kind: RotationKind;
  /** hourly only: N-hour shifts, 1..168, counted in elapsed time from the first handoff. */
  shift_hours?: number;
  /** 'HH:MM' local time of every handoff (hourly: of the first). */
  handoff_time: string;
  /** weekly only: ISO weekday of the handoff, 1 = Monday … 7 = Sunday; default 1. */
  handoff_weekday?: number;
  /** 'YYYY-MM-DD' local date of the first handoff; participants[0] is on call from then. */
  starts_on: string;
  /** Opaque user references (ids or emails), in rotation order, 1..50. */
  participants: string[];
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface RotationClock {
  participants: readonly string[];
  /** Instant (ms) of handoff 0: nobody is on call in this rotation before it. */
  first: number;
  /** Instant (ms) of handoff k, k ≥ 0. */
  handoff(k: number): number;
  /** The shift holding instant t (the largest k with handoff(k) ≤ t), or -1 before handoff 0. */
  shiftAt(t: number): number;
  /** Who is on call during shift k. */
  userOf(k: number): string;
  /** Where the run of shifts held by the same participant as shift k ends (Infinity if everyone is that participant). */
  runEnd(k: number): number;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
function epochDayOf(date: string): number {
  const d = Temporal.PlainDate.from(date);
  return Date.UTC(d.year, d.month - 1, d.day) / DAY_MS;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of an epoch day; 1970-01-01 was a Thursday. */
function weekdayOf(epochDay: number): number {
  return ((((epochDay + 3) % 7) + 7) % 7) + 1;
}

export function compileRotation(rotation: Rotation, timeZone: string): RotationClock {
  const [hour, minute] = rotation.handoff_time.split(':').map(Number) as [number, number];
  const startDay = epochDayOf(rotation.starts_on);

  const localHandoff = (epochDay: number): number => {
    const d = new Date(epochDay * DAY_MS);
    return Temporal.PlainDateTime.from({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour,
      minute,
    }).toZonedDateTime(timeZone, { disambiguation: 'compatible' }).epochMilliseconds;
  };
  const localDayOf = (t: number): number => {
    const z = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(timeZone);
    return Date.UTC(z.year, z.month - 1, z.day) / DAY_MS;
  };

  const first = localHandoff(startDay);
  let handoff: (k: number) => number;
  let estimate: (t: number) => number;
  switch (rotation.kind) {
    case 'daily':
      handoff = (k) => localHandoff(startDay + k);
      estimate = (t) => localDayOf(t) - startDay;
      break;
    case 'weekly': {
      // The handoff weekday on or before starts_on: handoff k ≥ 1 is k weeks after it.
      const baseDay = startDay - ((weekdayOf(startDay) - (rotation.handoff_weekday ?? 1) + 7) % 7);
      handoff = (k) => (k === 0 ? first : localHandoff(baseDay + 7 * k));
      estimate = (t) => Math.floor((localDayOf(t) - baseDay) / 7);
      break;
    }
    case 'hourly': {
      const shiftMs = (rotation.shift_hours ?? 0) * HOUR_MS;
      if (!(shiftMs > 0)) throw new RangeError('an hourly rotation needs shift_hours');
      handoff = (k) => first + k * shiftMs;
      estimate = (t) => Math.floor((t - first) / shiftMs);
      break;
    }
  }

  const participants = rotation.participants;
  const userOf = (k: number): string => participants[k % participants.length]!;
  return {
    participants,
    first,
    handoff,
    shiftAt(t) {
      if (t < first) return -1;
      // The estimate counts the handoff on t's local date, which may still be ahead of t (or be
      // pushed later by a DST gap): step back. It is never too low, since a handoff never
      // resolves to an instant before its own local date.
      let k = Math.max(0, estimate(t));
      while (k > 0 && handoff(k) > t) k--;
      return k;
    },
    userOf,
    runEnd(k) {
      const user = userOf(k);
      for (let j = k + 1; j <= k + participants.length; j++) if (userOf(j) !== user) return handoff(j);
      return Number.POSITIVE_INFINITY;
    },
  };
}
