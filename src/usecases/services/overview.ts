import {
  nearMaintenanceRows,
  openIncidentRows,
  overviewMetrics,
  overviewServices,
} from '../../db/repositories/overview-repository';
import type { Severity } from '../../domain/incident-state';
import { overviewOrder } from '../../domain/overview-order';
import { effectiveStatus } from '../../domain/reason-class';
import { availabilityTimeline, worstOfTimelines } from '../../domain/status-timeline';
import { availabilityFlips } from '../../db/repositories/availability-flips-repository';
import { type HealthStatus, worstOf } from '../../domain/thresholds';
import { uptimeByTime, uptimeDays } from '../../domain/uptime';
import type { OrgContext } from '../shared/context';

/** The overview lists maintenances starting within this long. */
export const OVERVIEW_MAINTENANCE_WINDOW_MS = 24 * 3_600_000;
/** At most this many services (the Services page lists them all); the overview says when there are more. */
export const OVERVIEW_SERVICE_CAP = 1_000;
const INCIDENT_CAP = 100;

export interface OverviewService {
  id: string;
  name: string;
  status: HealthStatus;
  in_maintenance: boolean;
  metrics: number;
  /** 90 UTC days, oldest first: up time over measured time, null without data. */
  uptime: { date: string; uptime_pct: string | null }[];
}

export interface OverviewIncident {
  id: string;
  title: string;
  severity: Severity;
  state: 'draft' | 'published';
  /** Published (or created, for a draft). */
  since: string;
  services: string[];
}

export interface OverviewMaintenance {
  id: string;
  title: string;
  state: 'scheduled' | 'in_progress';
  starts_at: string;
  ends_at: string;
  services: string[];
}

export interface ConsoleOverview {
  incidents: OverviewIncident[];
  maintenances: OverviewMaintenance[];
  /** Worst first, then by name. */
  services: OverviewService[];
  /** Services none of whose metrics has data (or without metrics), by name. */
  noData: OverviewService[];
  /** More services than OVERVIEW_SERVICE_CAP exist. */
  truncated: boolean;
}

const SEVERITY_RANK: Record<string, number> = { critical: 0, major: 1, minor: 2 };

/**
 * What the console's overview shows, in a fixed number of queries whatever the number of
 * services: the services, their live metrics, the metrics' flips for 90 days (one read for all,
 * see availabilityFlips), open incidents and near maintenances. Each service's status and uptime
 * follow serviceDetail (service-status.ts): the worst of its metrics, uptime measured in time.
 */
export async function consoleOverview(ctx: OrgContext): Promise<ConsoleOverview> {
  const org = ctx.org.id;
  const horizon = new Date(ctx.now.getTime() + OVERVIEW_MAINTENANCE_WINDOW_MS);
  const days = uptimeDays(ctx.now);
  const [serviceRows, metrics, incidents, maintenances] = await Promise.all([
    overviewServices(ctx.em, org, OVERVIEW_SERVICE_CAP + 1),
    overviewMetrics(ctx.em, org),
    openIncidentRows(ctx.em, org, INCIDENT_CAP),
    nearMaintenanceRows(ctx.em, org, horizon, INCIDENT_CAP),
  ]);
  // As metricTimelines does, for the few columns read here.
  const flips = await availabilityFlips(
    ctx.em,
    metrics.map((m) => m.id),
    new Date(days[0]!.start),
  );
  const truncated = serviceRows.length > OVERVIEW_SERVICE_CAP;
  const shown = serviceRows.slice(0, OVERVIEW_SERVICE_CAP);
  const names = new Map(serviceRows.map((s) => [s.id, s.name]));
  const metricsOf = new Map<string, typeof metrics>();
  for (const m of metrics) metricsOf.set(m.service_id, [...(metricsOf.get(m.service_id) ?? []), m]);
  const inProgress = maintenances.filter((m) => m.actual_start_at !== null);
  const underMaintenance = (serviceId: string) => inProgress.some((m) => m.affected_services.includes(serviceId));
  const timelineOf = (m: (typeof metrics)[number]) =>
    availabilityTimeline(flips.get(m.id) ?? [], new Date(m.created_at).getTime());

  const rows: OverviewService[] = shown.map((s) => {
    const own = metricsOf.get(s.id) ?? [];
    const timeline = own.length === 1 ? timelineOf(own[0]!) : worstOfTimelines(own.map(timelineOf));
    return {
      id: s.id,
      name: s.name,
      status: worstOf(own.map((m) => effectiveStatus(m.status as HealthStatus, m.reason))) ?? 'no_data',
      in_maintenance: underMaintenance(s.id),
      metrics: own.length,
      uptime: uptimeByTime(timeline, days, ctx.now.getTime()).days.map((d) => ({
        date: d.date,
        uptime_pct: d.uptime_pct,
      })),
    };
  });
  const { measured, noData } = overviewOrder(rows);
  const serviceNames = (ids: readonly string[]) =>
    ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
  const iso = (d: Date | string) => new Date(d).toISOString();

  const openIncidents: OverviewIncident[] = incidents
    .map((i) => ({
      id: i.id,
      title: i.title,
      severity: i.severity as Severity,
      state: i.published_at ? ('published' as const) : ('draft' as const),
      since: iso(i.published_at ?? i.created_at),
      services: serviceNames(i.affected_services),
    }))
    .sort(
      (a, b) =>
        (a.state === b.state ? 0 : a.state === 'published' ? -1 : 1) ||
        (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9) ||
        b.since.localeCompare(a.since),
    );

  return {
    incidents: openIncidents,
    maintenances: maintenances.map((m) => ({
      id: m.id,
      title: m.title,
      state: m.actual_start_at ? ('in_progress' as const) : ('scheduled' as const),
      starts_at: iso(m.actual_start_at ?? m.scheduled_start_at),
      ends_at: iso(m.scheduled_end_at),
      services: serviceNames(m.affected_services),
    })),
    services: measured,
    noData,
    truncated,
  };
}
