/** RFC 3339 in UTC with exactly three fractional digits, the only date-time form the API reads or writes. */
export const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function toIso(date: Date): string {
  return date.toISOString();
}

export function toIsoOrNull(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** The instant of an RFC 3339 UTC millisecond timestamp that exists (no 31 February) and PostgreSQL can hold (not year 0); else null. */
export function parseIsoMs(value: string): Date | null {
  if (!RFC3339_MS_UTC.test(value) || value.startsWith('0000')) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) || d.toISOString() !== value ? null : d;
}
