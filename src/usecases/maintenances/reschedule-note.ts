/** The timeline text of a reschedule, in UTC (the public page and feeds show it as written). */
export function rescheduleNote(from: { start: Date; end: Date }, to: { start: Date; end: Date }): string {
  return `Rescheduled from ${windowText(from.start, from.end)} to ${windowText(to.start, to.end)}.`;
}

function windowText(start: Date, end: Date): string {
  const s = utc(start);
  const e = utc(end);
  // Same day: "2026-11-28 10:00–12:00 UTC"; otherwise both dates in full.
  return s.date === e.date ? `${s.date} ${s.time}–${e.time} UTC` : `${s.date} ${s.time} – ${e.date} ${e.time} UTC`;
}

function utc(d: Date): { date: string; time: string } {
  const iso = d.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}
