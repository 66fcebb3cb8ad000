import { isValidTimeZone, localDateTime, zonedTimeToUtc } from './periods';

/**
 * A `datetime-local` form value read in the viewer's zone. A wall time the zone skips (the hour
 * clocks jump forward) is read as the same time on the old offset, i.e. moved forward by the gap
 * (02:30 in Berlin on the spring change is 03:30 CEST); a wall time the zone repeats (clocks go
 * back) is read as its first occurrence. Both say so in `note`, for the form to show.
 */
export type LocalInputReading =
  | { ok: true; instant: Date; note: null | { kind: 'skipped' | 'repeated'; text: string } }
  | { ok: false; message: string };

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const pad = (n: number) => String(n).padStart(2, '0');

export function localInputToInstant(value: string, timeZone: string): LocalInputReading {
  if (!isValidTimeZone(timeZone)) return { ok: false, message: `${timeZone} is not a time zone this server knows` };
  const m = LOCAL.exec(value.trim());
  if (!m) return { ok: false, message: 'Expected a date and time (YYYY-MM-DDTHH:MM)' };
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    year < 1 ||
    probe.getUTCMonth() !== month - 1 ||
    probe.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return { ok: false, message: `${value} is not a date and time that exists` };
  }
  const wall = { year, month, day, hour, minute, second };
  const ms = zonedTimeToUtc(wall, timeZone);
  const back = localDateTime(ms, timeZone);
  const sameWall =
    back.year === year &&
    back.month === month &&
    back.day === day &&
    back.hour === hour &&
    back.minute === minute &&
    back.second === second;
  const shown = `${pad(back.hour)}:${pad(back.minute)}`;
  if (!sameWall) {
    return {
      ok: true,
      instant: new Date(ms),
      note: {
        kind: 'skipped',
        text: `${pad(hour)}:${pad(minute)} does not exist on ${m[1]}-${m[2]}-${m[3]} in ${timeZone} (the clocks move forward); read as ${shown}.`,
      },
    };
  }
  // Repeated: the same wall time an hour (or the zone's step) later maps back to the same reading.
  const later = zonedTimeToUtcLater(wall, timeZone, ms);
  if (later !== null) {
    return {
      ok: true,
      instant: new Date(ms),
      note: {
        kind: 'repeated',
        text: `${pad(hour)}:${pad(minute)} happens twice on ${m[1]}-${m[2]}-${m[3]} in ${timeZone} (the clocks go back); read as the first.`,
      },
    };
  }
  return { ok: true, instant: new Date(ms), note: null };
}

/** The second occurrence of a repeated wall time (a later instant with the same reading within 3 hours), or null. */
function zonedTimeToUtcLater(
  wall: { year: number; month: number; day: number; hour: number; minute: number; second: number },
  timeZone: string,
  first: number,
): number | null {
  for (const stepMin of [30, 60, 120, 180]) {
    const t = first + stepMin * 60_000;
    const r = localDateTime(t, timeZone);
    if (
      r.year === wall.year &&
      r.month === wall.month &&
      r.day === wall.day &&
      r.hour === wall.hour &&
      r.minute === wall.minute
    )
      return t;
  }
  return null;
}

/** The `datetime-local` value (to the minute) of an instant in a zone: what an edit form shows. */
export function instantToLocalInput(iso: string | Date, timeZone: string): string {
  const ms = typeof iso === 'string' ? Date.parse(iso) : iso.getTime();
  if (!Number.isFinite(ms)) return '';
  const t = localDateTime(ms, isValidTimeZone(timeZone) ? timeZone : 'UTC');
  return `${String(t.year).padStart(4, '0')}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}`;
}
