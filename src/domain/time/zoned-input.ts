import { isValidTimeZone, localDateTime, zonedTimeToUtc } from '../periods';

/**
 * A `datetime-local` form value read as a wall time in the viewer's zone. A time the zone skips
 * (clocks move forward) is read on the offset before the change, so 02:30 on Berlin's spring
 * change is 03:30 CEST; a time the zone repeats (clocks go back) is read as its first occurrence.
 * Either way `note` says so, for the form to tell the user.
 */
export type ZonedInput = { ok: true; instant: Date; note: string | null } | { ok: false; message: string };

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const pad = (n: number) => String(n).padStart(2, '0');

export function zonedInputToInstant(value: string, timeZone: string): ZonedInput {
  if (!isValidTimeZone(timeZone)) return { ok: false, message: `${timeZone} is not a known time zone` };
  const m = LOCAL.exec(value.trim());
  if (!m) return { ok: false, message: 'Expected a date and time (YYYY-MM-DDTHH:MM)' };
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return { ok: false, message: `${value} is not a date and time that exists` };
  }
  const wall = { year, month, day, hour, minute, second };
  const ms = zonedTimeToUtc(wall, timeZone);
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  const asked = `${pad(hour)}:${pad(minute)}`;
  const back = localDateTime(ms, timeZone);
  if (back.day !== day || back.hour !== hour || back.minute !== minute) {
    return { ok: true, instant: new Date(ms), note: `${asked} does not exist on ${date} in ${timeZone} (the clocks move forward); read as ${pad(back.hour)}:${pad(back.minute)}.` };
  }
  // Repeated: a later instant within three hours reads as the same wall time.
  const again = [30, 60, 120, 180].some((min) => {
    const r = localDateTime(ms + min * 60_000, timeZone);
    return r.day === day && r.hour === hour && r.minute === minute;
  });
  if (again) return { ok: true, instant: new Date(ms), note: `${asked} happens twice on ${date} in ${timeZone} (the clocks go back); read as the first.` };
  return { ok: true, instant: new Date(ms), note: null };
}

/** The `datetime-local` value (to the minute) an instant shows as in a zone: what an edit form is filled with. */
export function instantToZonedInput(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const t = localDateTime(ms, isValidTimeZone(timeZone) ? timeZone : 'UTC');
  return `${String(t.year).padStart(4, '0')}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}`;
}
