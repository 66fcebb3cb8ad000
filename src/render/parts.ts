import { IMPACT_LABELS, type Impact } from '../domain/incident-impact';
import type { HealthStatus } from '../domain/thresholds';
import { STATE_TEXT, type PageState } from '../domain/status-page/page-state';
import { esc, join, lines, plainText, timeTag } from './html';
import type { BadgeKind } from './styles';
import type {
  PageIncidentView,
  PageMaintenanceView,
  ServiceRef,
  TimelineMessageView,
} from '../domain/status-page/model';

// One shape per health status; stateIcon picks among them.
const ICON_PATHS: Record<HealthStatus, string> = {
  healthy: '<circle cx="8" cy="8" r="6.75"/><path d="M5 8.25l2 2 4-4.5"/>',
  degraded: '<path d="M8 1.5 15 14H1z"/><path d="M8 6v3.5M8 11.75v.01"/>',
  unhealthy:
    '<path d="M5.2 1.25h5.6l3.95 3.95v5.6l-3.95 3.95H5.2L1.25 10.8V5.2z"/><path d="M5.75 5.75l4.5 4.5M10.25 5.75l-4.5 4.5"/>',
  no_data: '<circle cx="8" cy="8" r="6.75"/><path d="M5 8h6"/>',
};

/** The CSS class of a shown state: the status colours, plus partial outage (orange) and maintenance (blue). */
export const STATE_CLASS: Record<PageState, string> = {
  no_data: 'no_data',
  operational: 'healthy',
  under_maintenance: 'maintenance',
  degraded_performance: 'degraded',
  partial_outage: 'partial',
  major_outage: 'unhealthy',
};

const MAINTENANCE_ICON = '<circle cx="8" cy="8" r="6.75"/><path d="M8 4.5V8l2.5 1.5"/>';

/** A shown state's icon: one shape per state, so colour is never the only cue (maintenance: a clock). */
export function stateIcon(state: PageState): string {
  const paths: Record<PageState, string> = {
    no_data: ICON_PATHS.no_data,
    operational: ICON_PATHS.healthy,
    under_maintenance: MAINTENANCE_ICON,
    degraded_performance: ICON_PATHS.degraded,
    partial_outage: ICON_PATHS.degraded,
    major_outage: ICON_PATHS.unhealthy,
  };
  return `<svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><g fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">${paths[state]}</g></svg>`;
}

/** What the page shows for a component or group (page-state.ts), in words, with its icon. */
export function stateText(state: PageState): string {
  return `<span class="status-text s-${STATE_CLASS[state]}" data-state="${state}">${stateIcon(state)}${STATE_TEXT[state]}</span>`;
}

export function badge(kind: BadgeKind, text: string): string {
  return `<span class="badge badge-${kind}">${esc(text)}</span>`;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function severityBadge(severity: string): string {
  const kind: BadgeKind =
    severity === 'minor' || severity === 'major' || severity === 'critical' ? severity : 'neutral';
  return badge(kind, `${capitalize(severity)} severity`);
}

/** An incident's services carry their impact: "Affects: API (Partial outage), Web (Degraded performance)". */
function affected(services: (ServiceRef & { impact?: Impact })[]): string {
  const one = (s: ServiceRef & { impact?: Impact }) =>
    s.impact
      ? `<span class="impact" data-service-id="${esc(s.id)}" data-impact="${esc(s.impact)}">${esc(s.name)} (${IMPACT_LABELS[s.impact]})</span>`
      : esc(s.name);
  return services.length ? `<p class="muted">Affects: ${services.map(one).join(', ')}</p>` : '';
}

/** Beside a corrected message: when it was corrected. Only the current body is public; the replaced ones stay in the console. */
function editedMark(m: TimelineMessageView, tz: string): string {
  return m.edited_at ? ` <span class="muted" data-edited>edited ${timeTag(m.edited_at, tz)}</span>` : '';
}

export function timeline(messages: TimelineMessageView[], tz: string): string {
  if (!messages.length) return '';
  const entry = (m: TimelineMessageView) =>
    `<li class="entry"><p><strong>${esc(m.type)}</strong> <span class="muted">${timeTag(m.posted_at, tz)}</span>${editedMark(m, tz)}</p>${plainText(m.body, 'div')}</li>`;
  return `<ol class="timeline" aria-label="Updates, newest first">\n${join(messages, entry)}\n</ol>`;
}

export interface RenderContext {
  tz: string;
  /** A customer is signed in: their private incidents get a badge. */
  signedIn: boolean;
}

/** Where an incident's or maintenance's own page is (same host): its title links there from every list. */
export const incidentPath = (id: string) => `/incidents/${encodeURIComponent(id)}`;
export const maintenancePath = (id: string) => `/maintenances/${encodeURIComponent(id)}`;

/** An incident's badges, time span and affected services: shared by its card and its own page. */
export function incidentFacts(i: PageIncidentView, ctx: RenderContext): string {
  const state = i.state === 'resolved' ? badge('resolved', 'Resolved') : badge('ongoing', 'Ongoing');
  const privateBadge = ctx.signedIn && i.customer_scoped ? badge('private', 'Private to your organization') : '';
  const span = i.resolved_at
    ? `Started ${timeTag(i.published_at, ctx.tz)}, resolved ${timeTag(i.resolved_at, ctx.tz)}`
    : `Started ${timeTag(i.published_at, ctx.tz)}`;
  return lines(
    `<p class="badges">${severityBadge(i.severity)}${state}${privateBadge}</p>`,
    `<p class="muted">${span}</p>`,
    affected(i.affected_services),
  );
}

export function incidentArticle(i: PageIncidentView, ctx: RenderContext): string {
  return lines(
    `<article class="card incident" data-incident-id="${esc(i.id)}" data-severity="${esc(i.severity)}" data-state="${i.state}">`,
    `<h3><a href="${esc(incidentPath(i.id))}">${esc(i.title)}</a></h3>`,
    incidentFacts(i, ctx),
    timeline(i.messages, ctx.tz),
    '</article>',
  );
}

const MAINTENANCE_STATE: Record<PageMaintenanceView['state'], string> = {
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  completed: 'Completed',
  canceled: 'Canceled',
};

/** A maintenance's badge, windows, description and affected services: shared by its card and its own page. */
export function maintenanceFacts(m: PageMaintenanceView, ctx: RenderContext): string {
  const actual = [
    m.actual_start_at ? `Started ${timeTag(m.actual_start_at, ctx.tz)}` : '',
    m.actual_end_at ? `ended ${timeTag(m.actual_end_at, ctx.tz)}` : '',
  ].filter(Boolean);
  return lines(
    `<p class="badges">${badge('maintenance', `Maintenance: ${MAINTENANCE_STATE[m.state]}`)}</p>`,
    `<p>Scheduled ${timeTag(m.scheduled_start_at, ctx.tz)} to ${timeTag(m.scheduled_end_at, ctx.tz)}</p>`,
    actual.length ? `<p class="muted">${actual.join(', ')}</p>` : '',
    m.description ? plainText(m.description) : '',
    affected(m.affected_services),
  );
}

export function maintenanceArticle(m: PageMaintenanceView, ctx: RenderContext): string {
  return lines(
    `<article class="card maintenance" data-maintenance-id="${esc(m.id)}" data-state="${m.state}">`,
    `<h3><a href="${esc(maintenancePath(m.id))}">${esc(m.title)}</a></h3>`,
    maintenanceFacts(m, ctx),
    timeline(m.messages, ctx.tz),
    '</article>',
  );
}
