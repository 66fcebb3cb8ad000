import type { Impact } from '../incident-impact';
import type { HealthStatus } from '../thresholds';

/**
 * What a public status page shows, already filtered for its viewer (drafts, deleted rows and
 * other customers' incidents are gone before anything here is built). Pure data: the HTML
 * renderer, the JSON summary and the feeds all read from these shapes.
 */

/** What the page shows for a component, a group or the whole page (page-state.ts derives it). */
export type PageState =
  'no_data' | 'operational' | 'under_maintenance' | 'degraded_performance' | 'partial_outage' | 'major_outage';

export interface PageBranding {
  /** https URL of a logo image, or null. */
  logo_url: string | null;
  /** Accent colour (#rrggbb) for links, header bar and buttons; null = the default. */
  accent_color: string | null;
  /** Header background (#rrggbb); null = the default. */
  header_color: string | null;
}

export interface PageLink {
  label: string;
  url: string;
}

export interface PageHeader {
  subdomain: string;
  title: string;
  description: string | null;
  /** IANA zone the page shows times in (e.g. Europe/Berlin); UTC by default. */
  time_zone: string;
  branding: PageBranding;
  links: PageLink[];
}

/** One UTC day of a 90-day uptime bar; `uptime_pct` null when nothing was measured that day. */
export interface UptimeDay {
  date: string;
  uptime_pct: string | null;
}

export interface SloSummary {
  /** e.g. "99.9" (percent). */
  objective: string;
  /** Attainment in percent with three decimals, or null when not measurable yet. */
  attainment: string | null;
  met: boolean | null;
  period_label: string;
}

export interface PageComponentView {
  kind: 'service' | 'metric' | 'slo';
  id: string;
  name: string;
  description: string | null;
  /** What its metrics say (an SLO's: met or missed). */
  status: HealthStatus;
  /** The service it stands for (a metric's service, an SLO's); null when none. */
  service_id: string | null;
  /** What the page shows for it (page-state.ts): metrics, open incidents' impact and maintenance together. */
  state: PageState;
  /** True while a maintenance in progress covers it. */
  in_maintenance: boolean;
  /** 90 entries, oldest first (services and metrics); empty for SLOs. */
  uptime: UptimeDay[];
  /** Uptime over the 90 days, percent with three decimals; null when nothing was measured. */
  uptime_pct: string | null;
  /**
   * When `uptime_pct` counts from (ISO 8601): the first measured instant in the 90 days, the
   * start of the first day when the service was measured before them; null when nothing was
   * measured (and for SLOs). A young service's total covers only this span.
   */
  uptime_since: string | null;
  slo: SloSummary | null;
}

export interface PageGroupView {
  /** null: the ungrouped components. */
  name: string | null;
  /** Worst of its components' metric statuses. */
  status: HealthStatus;
  /** Worst of its components' shown states (SLOs aside). */
  state: PageState;
  components: PageComponentView[];
}

export interface TimelineMessageView {
  type: string;
  /** The current body: a corrected message shows only its latest words (the replaced ones stay in the console). */
  body: string;
  posted_at: string;
  /** When the body was last edited; null when never (always set by the loader; optional only for older producers). Maintenance messages are never edited. */
  edited_at?: string | null;
}

export interface ServiceRef {
  id: string;
  name: string;
}

/** An incident's affected service with what the incident does to it. */
export interface ImpactedServiceRef extends ServiceRef {
  impact: Impact;
}

export interface PageIncidentView {
  id: string;
  title: string;
  severity: string;
  state: 'published' | 'resolved';
  published_at: string;
  resolved_at: string | null;
  affected_services: ImpactedServiceRef[];
  /** True when only the signed-in customer sees it (never true in public output). */
  customer_scoped: boolean;
  /** Newest first. */
  messages: TimelineMessageView[];
}

export interface PageMaintenanceView {
  id: string;
  title: string;
  description: string | null;
  state: 'scheduled' | 'in_progress' | 'completed' | 'canceled';
  scheduled_start_at: string;
  scheduled_end_at: string;
  actual_start_at: string | null;
  actual_end_at: string | null;
  affected_services: ServiceRef[];
  /** Newest first. */
  messages: TimelineMessageView[];
}

export interface PageView {
  page: PageHeader;
  /** Worst of the shown components' metric statuses (unhealthy > degraded > healthy); no_data when nothing is measured. */
  status: HealthStatus;
  /** What the page says at the top (page-state.ts): the worst of the components' shown states, open incidents' impacts and maintenance in progress. */
  headline: { state: PageState; text: string };
  /** True when no incident is active and none was resolved recently: only then may the page say so. */
  quiet: boolean;
  groups: PageGroupView[];
  /** Published, unresolved incidents, newest first. */
  active_incidents: PageIncidentView[];
  /** Maintenances in progress now. */
  maintenance_in_progress: PageMaintenanceView[];
  /** Scheduled maintenances that have not started, soonest first. */
  maintenance_upcoming: PageMaintenanceView[];
  /** Incidents resolved in the last 7 days, newest first (the page's "recent" list). */
  recent_incidents: PageIncidentView[];
  /** The signed-in customer, when a valid viewer token was presented. */
  viewer: { customer_id: string; customer_name: string } | null;
  generated_at: string;
}

export interface HistoryView {
  page: PageHeader;
  /** Published or resolved incidents, newest first. */
  incidents: PageIncidentView[];
  /** Completed and canceled maintenances within the same span, newest first. */
  maintenances: PageMaintenanceView[];
  /** Query string value for the next (older) page, or null at the end. */
  next_cursor: string | null;
  viewer: { customer_id: string; customer_name: string } | null;
  generated_at: string;
}

/** One incident's or maintenance's own page (`/incidents/<id>`, `/maintenances/<id>`), already filtered for its viewer. */
export type ItemView =
  | {
      kind: 'incident';
      page: PageHeader;
      incident: PageIncidentView;
      viewer: HistoryView['viewer'];
      generated_at: string;
    }
  | {
      kind: 'maintenance';
      page: PageHeader;
      maintenance: PageMaintenanceView;
      viewer: HistoryView['viewer'];
      generated_at: string;
    };
