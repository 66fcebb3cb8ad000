import { IMPACT_OF_SEVERITY, type Impact } from '../incident-impact';
import type { Severity } from '../incident-state';
import type { HealthStatus } from '../thresholds';
import type { PageState, PageView } from './model';

export type { PageState };

/**
 * What a public status page says, derived once from three inputs: the services' metric-derived
 * status, the published unresolved incidents with their impact per affected service, and the
 * maintenances in progress. The HTML page and its summary JSON both read the result, so the
 * headline, the components and the banners can never contradict each other.
 *
 * Rules (docs/api/status-pages.md):
 * - A component whose service is under a maintenance in progress shows "Under maintenance",
 *   whatever its metrics say: an announced window is not an outage.
 * - An open published incident puts its impact on each service it affects until it is resolved,
 *   even after the metrics recover: the worse of metric state and impact wins, and an impact
 *   also wins over maintenance (the operator said so, during the window).
 * - Drafts and resolved incidents carry no impact; a resolved incident leaves the active list at
 *   once (it belongs to the recent list).
 * - The headline is the worst shown state: outages over degraded performance over maintenance
 *   over operational; "No data yet" only when nothing at all is measured or announced.
 * - "No incidents in the last N days" is only said when no incident is active either.
 */

/** Every state, from least to most severe. */
export const PAGE_STATES = [
  'no_data',
  'operational',
  'under_maintenance',
  'degraded_performance',
  'partial_outage',
  'major_outage',
] as const satisfies readonly PageState[];

/** The headline's words. */
export const HEADLINE_TEXT: Record<PageState, string> = {
  no_data: 'No data yet',
  operational: 'All systems operational',
  under_maintenance: 'Under maintenance',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

/** A component's (or group's) words. */
export const STATE_TEXT: Record<PageState, string> = {
  no_data: 'No data',
  operational: 'Operational',
  under_maintenance: 'Under maintenance',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

/** The metric-derived state: unhealthy is a major outage, as the page always said. */
export const STATE_OF_STATUS: Record<HealthStatus, PageState> = {
  healthy: 'operational',
  degraded: 'degraded_performance',
  unhealthy: 'major_outage',
  no_data: 'no_data',
};

const rank = (s: PageState) => PAGE_STATES.indexOf(s);

/** The most severe of some states; null for none. */
export function worstState(states: Iterable<PageState>): PageState | null {
  let worst: PageState | null = null;
  for (const s of states) if (worst === null || rank(s) > rank(worst)) worst = s;
  return worst;
}

export interface ComponentInput {
  kind: 'service' | 'metric' | 'slo';
  id: string;
  /** The service the component stands for (a service component's own id); null when none. */
  service_id?: string | null;
  /** Metric-derived status (an SLO's: met or missed). */
  status: HealthStatus;
  /** Its service is under a maintenance in progress (as loaded); the maintenances listed count too. */
  in_maintenance?: boolean;
}

export interface IncidentInput {
  id: string;
  severity: string;
  /** Null for a draft: ignored. */
  published_at: string | null;
  resolved_at: string | null;
  affected_services: { id: string; impact: Impact }[];
}

export interface MaintenanceInput {
  id: string;
  state: 'scheduled' | 'in_progress' | 'completed' | 'canceled';
  /** Empty: every service. */
  affected_services: { id: string }[];
}

export interface PageStateInput<C extends ComponentInput, I extends IncidentInput, M extends MaintenanceInput> {
  groups: { components: C[] }[];
  /** The incidents the page lists as active (anything not published-and-unresolved is dropped). */
  active_incidents: I[];
  /** The page's recent (resolved) incidents. */
  recent_incidents: I[];
  /** The maintenances the page lists as in progress (any other state is dropped). */
  maintenance_in_progress: M[];
}

export interface DerivedPage<C, I, M> {
  headline: { state: PageState; text: string };
  /** Each group's state (worst of its non-SLO components) and each component's, in input order. */
  groups: { state: PageState; components: (C & { state: PageState })[] }[];
  active_incidents: I[];
  recent_incidents: I[];
  maintenance_in_progress: M[];
  /** Whether the page may say "No incidents in the last N days". */
  quiet: boolean;
}

const key = (id: string) => id.toLowerCase();
const isActive = (i: IncidentInput) => i.published_at !== null && i.resolved_at === null;

/** An incident's impact on each service it names; one with no services affects the page by its severity. */
function incidentImpacts(incidents: readonly IncidentInput[]): {
  byService: Map<string, Impact>;
  unattached: Impact[];
} {
  const byService = new Map<string, Impact>();
  const unattached: Impact[] = [];
  for (const i of incidents) {
    if (!i.affected_services.length)
      unattached.push(IMPACT_OF_SEVERITY[i.severity as Severity] ?? 'degraded_performance');
    for (const s of i.affected_services) {
      const was = byService.get(key(s.id));
      byService.set(key(s.id), was ? (worstState([was, s.impact]) as Impact) : s.impact);
    }
  }
  return { byService, unattached };
}

/** A component's shown state from its metric status, its service's incident impact and maintenance. */
export function componentState(c: ComponentInput, impact: Impact | undefined, inMaintenance: boolean): PageState {
  const measured = STATE_OF_STATUS[c.status];
  if (c.kind === 'slo') return measured;
  if (inMaintenance) return impact ?? 'under_maintenance';
  return impact ? worstState([measured, impact])! : measured;
}

export function derivePageState<C extends ComponentInput, I extends IncidentInput, M extends MaintenanceInput>(
  input: PageStateInput<C, I, M>,
): DerivedPage<C, I, M> {
  const active = input.active_incidents.filter(isActive);
  const activeIds = new Set(active.map((i) => i.id));
  // Resolved since the list was read: it belongs with the recent ones, never with the active.
  const resolvedNow = input.active_incidents.filter(
    (i) => i.published_at !== null && i.resolved_at !== null && !input.recent_incidents.some((r) => r.id === i.id),
  );
  const recent = [...resolvedNow, ...input.recent_incidents].filter(
    (i) => i.published_at !== null && !activeIds.has(i.id),
  );
  const maintenances = input.maintenance_in_progress.filter((m) => m.state === 'in_progress');
  const everything = maintenances.some((m) => m.affected_services.length === 0);
  const covered = new Set(maintenances.flatMap((m) => m.affected_services.map((s) => key(s.id))));
  const { byService, unattached } = incidentImpacts(active);

  const groups = input.groups.map((g) => {
    const components = g.components.map((c) => {
      const service = c.service_id ?? (c.kind === 'service' ? c.id : null);
      const impact = service ? byService.get(key(service)) : undefined;
      const inMaintenance =
        c.in_maintenance === true || (service !== null && (everything || covered.has(key(service))));
      return {
        ...c,
        ...(c.in_maintenance === undefined ? {} : { in_maintenance: inMaintenance }),
        state: componentState(c, impact, inMaintenance),
      };
    });
    return {
      state: worstState(components.filter((c) => c.kind !== 'slo').map((c) => c.state)) ?? 'no_data',
      components,
    };
  });

  const headline =
    worstState([
      ...groups.flatMap((g) => g.components.filter((c) => c.kind !== 'slo').map((c) => c.state)),
      // Impacts on services shown only through an SLO, and incidents that name no service.
      ...byService.values(),
      ...unattached,
      ...(maintenances.length ? (['under_maintenance'] as const) : []),
    ]) ?? 'no_data';

  return {
    headline: { state: headline, text: HEADLINE_TEXT[headline] },
    groups,
    active_incidents: active,
    recent_incidents: recent,
    maintenance_in_progress: maintenances,
    quiet: active.length === 0 && recent.length === 0,
  };
}

/** A page view as loaded, before the derivation fills in what it says. */
export type LoadedPageView = Omit<PageView, 'headline' | 'groups' | 'quiet'> & {
  groups: (Omit<PageView['groups'][number], 'state' | 'components'> & {
    components: Omit<PageView['groups'][number]['components'][number], 'state'>[];
  })[];
};

/** The view with the derivation applied: the one shape the HTML page and summary.json are made from. */
export function withPageState(view: LoadedPageView): PageView {
  const d = derivePageState(view);
  return {
    ...view,
    headline: d.headline,
    groups: view.groups.map((g, n) => ({ ...g, state: d.groups[n]!.state, components: d.groups[n]!.components })),
    active_incidents: d.active_incidents,
    recent_incidents: d.recent_incidents,
    maintenance_in_progress: d.maintenance_in_progress,
    quiet: d.quiet,
  };
}
