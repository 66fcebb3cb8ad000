import { CHART_RANGES, type ChartRange } from '../../../domain/response-time';
import { esc } from '../../html';
import { responseTimeChart } from '../chart';
import { managedNotice } from '../config-as-code';
import { facts, link, stateBadge, table, toneOfStatus, zonedTime } from '../parts';
import { uptimeBars } from '../uptime-bars';

export interface ServicePageView {
  service: { id: string; name: string; description: string | null; config_key: string | null };
  status: string;
  maintenance: { id: string; title: string } | null;
  metrics: {
    id: string;
    name: string;
    status: string;
    current_value: number | null;
    unit: string | null;
    reason: string | null;
    reason_label: string | null;
    last_sample_at: string | null;
    paused?: boolean;
  }[];
  uptime: { date: string; uptime_pct: string | null }[];
  range: ChartRange;
  from: number;
  to: number;
  bucketMs: number;
  series: { name: string; points: { at: number; mean: number }[] }[];
  changes: { at: string; from: string | null; to: string }[];
  incidents:
    | { id: string; title: string; severity: string; state: string; created_at: string; resolved_at: string | null }[]
    | null;
  canEdit: boolean;
  timeZone: string;
}

const words = (s: string) => s.replace(/_/g, ' ');

function rangeLinks(v: ServicePageView): string {
  const items = (Object.keys(CHART_RANGES) as ChartRange[]).map((r) =>
    r === v.range
      ? `<li><a href="/console/services/${esc(v.service.id)}?range=${r}" aria-current="true"><strong>${esc(CHART_RANGES[r].label)}</strong></a></li>`
      : `<li>${link(`/console/services/${v.service.id}?range=${r}`, CHART_RANGES[r].label)}</li>`,
  );
  return `<nav aria-label="Chart range"><ul class="ranges">${items.join('')}</ul></nav>`;
}

/** Axis labels in the viewer's zone: hours over a day, dates over a week or month. */
function tickFormat(range: ChartRange, timeZone: string): { tickMs: number; label(ms: number): string } {
  const hour = 3_600_000;
  const opts: Intl.DateTimeFormatOptions =
    range === '24h' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { day: 'numeric', month: 'short' };
  let f: Intl.DateTimeFormat;
  try {
    f = new Intl.DateTimeFormat('en-GB', { ...opts, timeZone });
  } catch {
    f = new Intl.DateTimeFormat('en-GB', { ...opts, timeZone: 'UTC' });
  }
  return {
    tickMs: range === '24h' ? 4 * hour : range === '7d' ? 24 * hour : 5 * 24 * hour,
    label: (ms) => f.format(new Date(ms)),
  };
}

function metricsTable(v: ServicePageView): string {
  const rows = v.metrics.map((m) => [
    link(`/console/metrics/${m.id}`, m.name),
    `${stateBadge(words(m.status), toneOfStatus(m.status))}${m.paused ? ` ${stateBadge('paused')}` : ''}`,
    m.current_value === null
      ? '<span class="muted">no value</span>'
      : esc(`${m.current_value}${m.unit ? ` ${m.unit}` : ''}`),
    m.reason_label ? esc(m.reason_label) : m.reason ? `<code>${esc(m.reason)}</code>` : '<span class="muted">—</span>',
    zonedTime(m.last_sample_at, v.timeZone),
  ]);
  return table(
    ['Metric', 'Status', 'Value', 'Reason', 'Last sample'],
    rows,
    'No metrics yet: add one on the Metrics page.',
  );
}

/** One service: status, metrics, response times over 24 h / 7 d / 30 d, 90-day uptime, status changes and incidents. */
export function serviceDetailBody(v: ServicePageView): string {
  const tick = tickFormat(v.range, v.timeZone);
  const chart = responseTimeChart({
    title: `Response time over the last ${CHART_RANGES[v.range].label}`,
    series: v.series,
    from: v.from,
    to: v.to,
    bucketMs: v.bucketMs,
    unit: 'ms',
    tickMs: tick.tickMs,
    tickLabel: tick.label,
  });
  const noChart = v.series.length
    ? chart
    : '<p class="muted">None of this service\'s metrics measures a response time (HTTP, TCP, DNS, ping, gRPC or WebSocket latency).</p>';
  const changes = table(
    ['When', 'From', 'To'],
    v.changes.map((c) => [
      zonedTime(c.at, v.timeZone),
      c.from ? stateBadge(words(c.from), toneOfStatus(c.from)) : '<span class="muted">—</span>',
      stateBadge(words(c.to), toneOfStatus(c.to)),
    ]),
    `No status changes in the last ${CHART_RANGES[v.range].label}.`,
    'Newest first; the service is the worst of its metrics',
  );
  const incidents =
    v.incidents === null
      ? ''
      : `<section aria-labelledby="svc-incidents"><h2 id="svc-incidents">Incidents</h2>${table(
          ['Incident', 'Severity', 'State', 'Created', 'Resolved'],
          v.incidents.map((i) => [
            link(`/console/incidents/${i.id}`, i.title),
            esc(i.severity),
            stateBadge(words(i.state)),
            zonedTime(i.created_at, v.timeZone),
            zonedTime(i.resolved_at, v.timeZone),
          ]),
          'No incidents have named this service.',
          'Newest first',
        )}</section>`;
  return `${managedNotice(v.service.config_key)}
${facts([
  [
    'Status',
    `${stateBadge(words(v.status), toneOfStatus(v.status))}${v.maintenance ? ` ${stateBadge('in maintenance')} ${link(`/console/maintenances/${v.maintenance.id}`, v.maintenance.title)}` : ''}`,
  ],
  ['Description', v.service.description ? esc(v.service.description) : '<span class="muted">none</span>'],
])}
${v.canEdit ? `<p class="actions"><a class="button" href="/console/services/${esc(v.service.id)}/edit">Edit service</a></p>` : ''}
<section aria-labelledby="svc-metrics"><h2 id="svc-metrics">Metrics</h2>${metricsTable(v)}</section>
<section aria-labelledby="svc-chart"><h2 id="svc-chart">Response time</h2>${rangeLinks(v)}${noChart}</section>
<section aria-labelledby="svc-uptime"><h2 id="svc-uptime">Uptime, last 90 days</h2>${uptimeBars(v.uptime)}</section>
<section aria-labelledby="svc-changes"><h2 id="svc-changes">Status changes</h2>${changes}</section>
${incidents}`;
}
