/** Times on a status page, shown in the page's IANA zone (an unknown zone falls back to UTC). */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(kind: 'datetime' | 'month', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'datetime'
        ? {
            day: 'numeric',
            month: 'short',
            year: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
            timeZoneName: 'short',
          }
        : { month: 'long', year: 'numeric' };
    try {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
    }
    formats.set(key, f);
  }
  return f;
}

/** e.g. "22 Nov 2026, 15:04 CET". An unparsable instant is returned as given. */
export function formatInZone(iso: string, timeZone: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : format('datetime', timeZone).format(d);
}

/** e.g. "November 2026": the month an instant falls in, in that zone (history grouping). */
export function monthInZone(iso: string, timeZone: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : format('month', timeZone).format(d);
}
