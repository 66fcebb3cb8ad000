import { esc } from '../../html';
import { link, stateBadge, table, toneOfStatus, zonedTime } from '../parts';
import { uptimeBars } from '../uptime-bars';

export interface OverviewServiceRow {
  id: string;
  name: string;
  status: string;
  in_maintenance: boolean;
  metrics: number;
  /** Oldest first: per day, the uptime percent as a decimal string, or null without data. */
  uptime: { date: string; uptime_pct: string | null }[];
}

export interface OverviewView {
  incidents: { id: string; title: string; severity: string; state: string; since: string; services: string[] }[] | null;
  maintenances:
    { id: string; title: string; state: string; starts_at: string; ends_at: string; services: string[] }[] | null;
  services: OverviewServiceRow[];
  noData: OverviewServiceRow[];
  truncated: boolean;
  /** Who is on call and open alerts (already rendered; '' without read:alerts). */
  onCall: string;
  /** The open alerts, critical first (already rendered; '' when none or without read:alerts). */
  openAlerts?: string;
  timeZone: string;
}

const SEVERITY_TONE: Record<string, 'unhealthy' | 'degraded' | 'late' | 'neutral'> = {
  critical: 'unhealthy',
  major: 'late',
  minor: 'degraded',
};

/** At most three names, then how many more (an incident on every service stays one line). */
function serviceList(names: readonly string[]): string {
  if (!names.length) return '<span class="muted">none named</span>';
  const shown = names.slice(0, 3).map(esc).join(', ');
  return names.length > 3 ? `${shown} <span class="muted">and ${names.length - 3} more</span>` : shown;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function summary(v: OverviewView): string {
  const count = (s: string) => v.services.filter((x) => x.status === s).length;
  const parts = [
    v.incidents === null ? '' : plural(v.incidents.length, 'open incident'),
    v.maintenances === null ? '' : `${plural(v.maintenances.length, 'maintenance')} in progress or within 24 h`,
    `${count('unhealthy')} unhealthy, ${count('degraded')} degraded, ${count('healthy')} healthy`,
    plural(v.noData.length, 'service') + ' without data',
  ].filter(Boolean);
  return `<p class="overview-summary">${parts.join(' · ')}</p>`;
}

function incidentsSection(v: OverviewView): string {
  if (v.incidents === null) return '';
  const rows = v.incidents.map((i) => [
    link(`/console/incidents/${i.id}`, i.title),
    stateBadge(i.severity, SEVERITY_TONE[i.severity] ?? 'neutral'),
    stateBadge(i.state === 'published' ? 'open' : 'draft'),
    zonedTime(i.since, v.timeZone),
    serviceList(i.services),
  ]);
  return `<section aria-labelledby="open-incidents"><h2 id="open-incidents">Open incidents</h2>
${table(['Incident', 'Severity', 'State', 'Since', 'Services'], rows, 'No open incidents.')}</section>`;
}

function maintenancesSection(v: OverviewView): string {
  if (v.maintenances === null) return '';
  const rows = v.maintenances.map((m) => [
    link(`/console/maintenances/${m.id}`, m.title),
    stateBadge(
      m.state === 'in_progress' ? 'in progress' : 'starting soon',
      m.state === 'in_progress' ? 'degraded' : 'neutral',
    ),
    zonedTime(m.starts_at, v.timeZone),
    zonedTime(m.ends_at, v.timeZone),
    serviceList(m.services),
  ]);
  return `<section aria-labelledby="near-maintenance"><h2 id="near-maintenance">Maintenance now and in the next 24 h</h2>
${table(['Maintenance', 'State', 'Starts', 'Ends', 'Services'], rows, 'No maintenance in progress or starting within 24 hours.')}</section>`;
}

function serviceRow(s: OverviewServiceRow): string[] {
  return [
    link(`/console/services/${s.id}`, s.name),
    `${stateBadge(s.status.replace('_', ' '), toneOfStatus(s.status))}${s.in_maintenance ? ` ${stateBadge('in maintenance')}` : ''}`,
    String(s.metrics),
    uptimeBars(s.uptime),
  ];
}

function servicesSection(v: OverviewView): string {
  const more = v.truncated
    ? `<p class="muted">Only the first services are shown; ${link('/console/services', 'the Services page')} lists them all.</p>`
    : '';
  const empty = v.noData.length
    ? 'No service has data yet.'
    : 'No services yet. Create them on the Services page, through the API or a configuration document.';
  return `<section aria-labelledby="services"><h2 id="services">Services, worst first</h2>
${table(['Service', 'Status', 'Metrics', 'Last 90 days'], v.services.map(serviceRow), empty)}${more}</section>`;
}

function noDataSection(v: OverviewView): string {
  if (!v.noData.length) return '';
  const rows = v.noData.map((s) => [
    link(`/console/services/${s.id}`, s.name),
    s.metrics === 0 ? '<span class="muted">no metrics yet</span>' : `${plural(s.metrics, 'metric')}, none reporting`,
  ]);
  return `<section aria-labelledby="no-data"><h2 id="no-data">Services without data</h2>
${table(['Service', 'Why'], rows, '')}</section>`;
}

/** The overview: what is wrong now first (open alerts, incidents, maintenance, on call), then services worst first, then those without data. */
export function overviewBody(v: OverviewView): string {
  return [
    summary(v),
    v.openAlerts ?? '',
    incidentsSection(v),
    maintenancesSection(v),
    v.onCall,
    servicesSection(v),
    noDataSection(v),
  ]
    .filter(Boolean)
    .join('\n');
}
