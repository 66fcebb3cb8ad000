import { esc } from '../../html';
import { link, pager, stateBadge, table, toneOfStatus } from '../parts';

export interface OverviewService {
  id: string;
  name: string;
  status: string;
  maintenance: string | null;
  metrics: number;
  /** Oldest first: per day, the uptime percent as a decimal string, or null without data. */
  uptime: { date: string; uptime_pct: string | null }[];
}

/** 90 bars, one per day: full, partial, down or no data; each with a text alternative. */
export function uptimeBars(days: OverviewService['uptime']): string {
  const cls = (pct: string | null) => (pct === null ? '' : Number(pct) >= 99.95 ? 'up' : Number(pct) >= 95 ? 'partial' : 'down');
  const known = days.filter((d) => d.uptime_pct !== null);
  const mean = known.length ? (known.reduce((s, d) => s + Number(d.uptime_pct), 0) / known.length).toFixed(2) : null;
  const label = mean === null ? 'No data in the last 90 days' : `Uptime over ${known.length} days with data: ${mean}%`;
  return `<div class="bars" role="img" aria-label="${esc(label)}">${days.map((d) => `<span class="${cls(d.uptime_pct)}" title="${esc(`${d.date}: ${d.uptime_pct === null ? 'no data' : `${d.uptime_pct}%`}`)}"></span>`).join('')}</div>`;
}

export function overviewBody(services: OverviewService[], nextCursor: string | null): string {
  const rows = services.map((s) => [
    link(`/console/metrics?service_id=${s.id}`, s.name),
    `${stateBadge(s.status.replace('_', ' '), toneOfStatus(s.status))}${s.maintenance ? ` ${stateBadge('in maintenance')}` : ''}`,
    String(s.metrics),
    uptimeBars(s.uptime),
  ]);
  return `${table(['Service', 'Status', 'Metrics', 'Last 90 days'], rows, 'No services yet. Create them through the API or a configuration document.')}
${pager('/console', nextCursor)}`;
}
