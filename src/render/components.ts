import { esc, join, lines } from './html';
import { badge, statusText } from './parts';
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

export function uptimeDayLabel(day: UptimeDay): string {
  return day.uptime_pct === null ? `${day.date}: no data` : `${day.date}: ${day.uptime_pct}% uptime`;
}

/** Narrow screens show only the last SHORT_DAYS days (CSS in render-styles). */
const SHORT_DAYS = 30;

function uptimeBar(c: PageComponentView): string {
  const n = c.uptime.length;
  if (!n) return '';
  const day = (d: UptimeDay) => {
    const label = esc(uptimeDayLabel(d));
    // One label per day, as a tooltip: 50 services × 90 days is 4,500 cells, and the ol's label and the total below carry the summary for screen readers.
    return `<li class="day-${uptimeLevel(d.uptime_pct)}" data-date="${esc(d.date)}" title="${label}"></li>`;
  };
  const oldest = n > SHORT_DAYS ? `<span class="days-long">${n} days ago</span><span class="days-short">${SHORT_DAYS} days ago</span>` : `<span>${n} days ago</span>`;
  const total = c.uptime_pct === null ? 'No uptime data yet' : `${esc(c.uptime_pct)}% uptime over ${n} days`;
  return `<ol class="uptime-bar" aria-label="Daily uptime of ${esc(c.name)} over ${n} days, oldest first: ${c.uptime_pct === null ? 'no data yet' : `${esc(c.uptime_pct)}%`}">${c.uptime.map(day).join('')}</ol>
<p class="uptime-legend" aria-hidden="true">${oldest}<span>Today</span></p>
<p class="uptime-total">${total}</p>`;
}

function slo(s: SloSummary): string {
  const outcome = s.met === null ? 'Not measurable yet' : s.met ? 'Met' : 'Missed';
  const attainment = s.attainment === null ? 'not measurable yet' : `${esc(s.attainment)}%`;
  return `<p class="slo">Objective ${esc(s.objective)}%, attainment ${attainment} (${esc(s.period_label)}): <strong class="slo-outcome" data-met="${String(s.met)}">${outcome}</strong></p>`;
}

function componentRow(c: PageComponentView): string {
  const maintenance = c.in_maintenance ? ` ${badge('maintenance', 'Under maintenance')}` : '';
  return lines(
    `<li class="component" data-component-id="${esc(c.id)}" data-kind="${c.kind}" data-status="${c.status}">`,
    `<div class="component-head"><span><span class="component-name">${esc(c.name)}</span>${maintenance}</span>${statusText(c.status)}</div>`,
    c.description ? `<p class="muted">${esc(c.description)}</p>` : '',
    c.kind === 'slo' ? (c.slo ? slo(c.slo) : '') : uptimeBar(c),
    '</li>',
  );
}

export function groupSection(g: PageGroupView): string {
  const head = g.name === null ? '' : `<div class="group-head"><h3>${esc(g.name)}</h3>${statusText(g.status)}</div>`;
  return lines(`<div class="group" data-status="${g.status}">`, head, '<ul class="components">', join(g.components, componentRow), '</ul>', '</div>');
}
