import { esc, join, lines, timeTag } from './html';
import { formatInZone } from './format-time';
import { badge, stateText } from './parts';
import type { UptimeLevel } from './styles';
import type { PageComponentView, PageGroupView, SloSummary, UptimeDay } from '../domain/status-page/model';

export function uptimeLevel(pct: string | null): UptimeLevel {
  if (pct === null) return 'none';
  const v = Number(pct);
  if (!Number.isFinite(v)) return 'none';
  if (v >= 99.9) return 'good';
  if (v >= 99) return 'minor';
  if (v >= 95) return 'degraded';
  return 'bad';
}

/**
 * An uptime percentage as a reader takes it in: at most two decimals, cut (never rounded up, so
 * 99.996 is never shown as 100), trailing zeros dropped — "100", "99.3", "99.98". The API keeps
 * its exact decimal string.
 */
export function shownPct(pct: string): string {
  const v = Number(pct);
  if (!Number.isFinite(v)) return pct;
  const cut = Math.floor(v * 100 + 1e-9) / 100;
  return String(Number(cut.toFixed(2)));
}

export function uptimeDayLabel(day: UptimeDay): string {
  return day.uptime_pct === null ? `${day.date}: no data` : `${day.date}: ${shownPct(day.uptime_pct)}% uptime`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The total under a bar: over the bar's days when the service was measured from its first day on;
 * for a younger one, since when it was first measured ("since 26 Nov"; the day as the bars count
 * days), and for one first measured today, since that instant in the page's zone, named like every
 * other time on the page ("since 27 Nov 2026, 00:16 CET"), so five minutes of data never read as
 * 90 days. `html` puts that instant in a `<time>`, which /live.js shows in the visitor's zone.
 */
export function uptimeTotal(
  raw: string | null,
  since: string | null,
  days: readonly UptimeDay[],
  timeZone: string,
): { text: string; html: string } {
  const plain = (text: string) => ({ text, html: esc(text) });
  if (raw === null) return plain('No uptime data yet');
  const pct = shownPct(raw);
  const first = days[0]?.date;
  const today = days[days.length - 1]?.date;
  const sinceDay = since?.slice(0, 10);
  if (!since || !sinceDay || !first || !today || sinceDay <= first)
    return plain(`${pct}% uptime over ${days.length} days`);
  if (sinceDay >= today)
    return {
      text: `${pct}% uptime since ${formatInZone(since, timeZone)}`,
      html: `${esc(pct)}% uptime since ${timeTag(since, timeZone)}`,
    };
  const [y, m, d] = sinceDay.split('-');
  const year = y === today.slice(0, 4) ? '' : ` ${y}`;
  return plain(`${pct}% uptime since ${Number(d)} ${MONTHS[Number(m) - 1]}${year}`);
}

export function uptimeTotalText(
  pct: string | null,
  since: string | null,
  days: readonly UptimeDay[],
  timeZone = 'UTC',
): string {
  return uptimeTotal(pct, since, days, timeZone).text;
}

/** Narrow screens show only the last SHORT_DAYS days (CSS in render-styles). */
const SHORT_DAYS = 30;

function uptimeBar(c: PageComponentView, timeZone: string): string {
  const n = c.uptime.length;
  if (!n) return '';
  const day = (d: UptimeDay) => {
    const label = esc(uptimeDayLabel(d));
    // One label per day, as a tooltip: 50 services × 90 days is 4,500 cells, and the ol's label and the total below carry the summary for screen readers.
    return `<li class="day-${uptimeLevel(d.uptime_pct)}" data-date="${esc(d.date)}" title="${label}"></li>`;
  };
  const oldest =
    n > SHORT_DAYS
      ? `<span class="days-long">${n} days ago</span><span class="days-short">${SHORT_DAYS} days ago</span>`
      : `<span>${n} days ago</span>`;
  const total = uptimeTotal(c.uptime_pct, c.uptime_since, c.uptime, timeZone);
  return `<ol class="uptime-bar" aria-label="Daily uptime of ${esc(c.name)} over ${n} days, oldest first; ${esc(total.text)}">${c.uptime.map(day).join('')}</ol>
<p class="uptime-legend" aria-hidden="true">${oldest}<span>Today</span></p>
<p class="uptime-total">${total.html}</p>`;
}

function slo(s: SloSummary): string {
  const outcome = s.met === null ? 'Not measurable yet' : s.met ? 'Met' : 'Missed';
  const attainment = s.attainment === null ? 'not measurable yet' : `${esc(s.attainment)}%`;
  return `<p class="slo">Objective ${esc(s.objective)}%, attainment ${attainment} (${esc(s.period_label)}): <strong class="slo-outcome" data-met="${String(s.met)}">${outcome}</strong></p>`;
}

function componentRow(c: PageComponentView, timeZone: string): string {
  const maintenance = c.in_maintenance ? ` ${badge('maintenance', 'Under maintenance')}` : '';
  return lines(
    `<li class="component" data-component-id="${esc(c.id)}" data-kind="${c.kind}" data-status="${c.status}" data-state="${c.state}">`,
    `<div class="component-head"><span><span class="component-name">${esc(c.name)}</span>${maintenance}</span>${stateText(c.state)}</div>`,
    c.description ? `<p class="muted">${esc(c.description)}</p>` : '',
    c.kind === 'slo' ? (c.slo ? slo(c.slo) : '') : uptimeBar(c, timeZone),
    '</li>',
  );
}

/** A group of components; `timeZone`: the page's, which its times are shown in. */
export function groupSection(g: PageGroupView, timeZone: string): string {
  const head = g.name === null ? '' : `<div class="group-head"><h3>${esc(g.name)}</h3>${stateText(g.state)}</div>`;
  return lines(
    `<div class="group" data-status="${g.status}" data-state="${g.state}">`,
    head,
    '<ul class="components">',
    join(g.components, (c) => componentRow(c, timeZone)),
    '</ul>',
    '</div>',
  );
}
