import { esc } from '../html';

export interface UptimeDay {
  date: string;
  uptime_pct: string | null;
}

export type DayClass = 'up' | 'partial' | 'down' | 'none';

export function dayClass(pct: string | null): DayClass {
  if (pct === null) return 'none';
  const n = Number(pct);
  return n >= 99.95 ? 'up' : n >= 95 ? 'partial' : 'down';
}

const WORDS: Record<DayClass, string> = { up: 'up', partial: 'partly down', down: 'down', none: 'no data' };

export interface DayRun {
  cls: DayClass;
  /** Index of the first day (0: the oldest). */
  start: number;
  length: number;
  from: string;
  to: string;
  /** The lowest uptime in the run (null for no data). */
  lowest: string | null;
}

/** Consecutive days of the same class, oldest first: one shape each keeps 200 services' bars small. */
export function dayRuns(days: readonly UptimeDay[]): DayRun[] {
  const runs: DayRun[] = [];
  days.forEach((d, i) => {
    const cls = dayClass(d.uptime_pct);
    const last = runs[runs.length - 1];
    if (last && last.cls === cls) {
      last.length++;
      last.to = d.date;
      if (d.uptime_pct !== null && (last.lowest === null || Number(d.uptime_pct) < Number(last.lowest)))
        last.lowest = d.uptime_pct;
    } else runs.push({ cls, start: i, length: 1, from: d.date, to: d.date, lowest: d.uptime_pct });
  });
  return runs;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "28 Sep" of a YYYY-MM-DD date (the year is in the chart's 90 days). */
const short = (date: string) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1] ?? ''}`;

/** A run's tooltip; null for days without data (the empty bar says it). */
function runTitle(r: DayRun): string | null {
  if (r.cls === 'none') return null;
  if (r.length === 1) return `${short(r.from)}: ${r.lowest}%`;
  return `${short(r.from)} to ${short(r.to)}: ${WORDS[r.cls]}${r.lowest !== null && Number(r.lowest) < 100 ? `, lowest ${r.lowest}%` : ''}`;
}

/**
 * The last days' uptime as one small SVG, a rectangle per run of days of the same class (up,
 * partly down, down, no data), each with its dates as a tooltip; the whole has a text alternative
 * (the mean over the days with data). The newest day is at the right edge; where the row is
 * narrower than the bars' minimum width, CSS clips the oldest days (src/render/console/css/overview.ts).
 */
export function uptimeBars(days: readonly UptimeDay[]): string {
  const known = days.filter((d) => d.uptime_pct !== null);
  const mean = known.length ? (known.reduce((s, d) => s + Number(d.uptime_pct), 0) / known.length).toFixed(2) : null;
  const label =
    mean === null
      ? `No data in the last ${days.length} days`
      : `${known.length} of the last ${days.length} days with data; mean uptime ${mean}%`;
  const rects = dayRuns(days)
    .map((r, i, all) => {
      const title = runTitle(r);
      const open = `<rect class="${r.cls}" x="${r.start}" width="${r.length}" height="1"${i === all.length - 1 ? ` data-last="${esc(r.to)}"` : ''}`;
      return title === null ? `${open}/>` : `${open}><title>${esc(title)}</title></rect>`;
    })
    .join('');
  return `<div class="bars"><svg viewBox="0 0 ${days.length} 1" preserveAspectRatio="none" role="img" aria-label="${esc(label)}">${rects}</svg></div>`;
}
