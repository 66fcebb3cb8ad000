import type { EntityManager } from '@mikro-orm/postgresql';
import { MaintenanceSchema, MetricSchema, ServiceSchema, type StatusPage } from '../../db/entities';
import { effectiveStatus } from '../../domain/reason-class';
import type { DayUptimeRow } from '../../domain/uptime';
import type { UptimeDay } from '../../domain/status-page/model';
import type { LoadedPageView } from '../../domain/status-page/page-state';
import type { Interval } from '../../domain/status-timeline';
import { type HealthStatus, worstOf } from '../../domain/thresholds';
import { resolveShown } from '../shared/page-coverage';
import { sloView } from '../slos/slos';
import { loadUptime } from '../slos/uptime';
import { uptimeDays } from '../../domain/uptime';

/** The first instant of the page's uptime bars. */
const uptimeFrom = (now: Date) => new Date(uptimeDays(now)[0]!.start);

type LoadedGroup = LoadedPageView['groups'][number];
type LoadedComponent = LoadedGroup['components'][number];

export interface PageComponents {
  /** Metric statuses only: what the page says of them is derived with incidents and maintenance (page-state.ts). */
  groups: LoadedGroup[];
  status: HealthStatus;
  /** Every service the page shows, directly or through a metric or SLO: what decides which incidents and maintenances belong on it. */
  serviceIds: string[];
  serviceNames: Map<string, string>;
}

/** A page shows each day's uptime, not how many samples made it. */
const publicDays = (days: readonly DayUptimeRow[]): UptimeDay[] =>
  days.map(({ date, uptime_pct }) => ({ date, uptime_pct }));

const sinceIso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The page's groups with each component's live status, 90-day uptime and SLO attainment. */
export async function loadPageComponents(em: EntityManager, page: StatusPage, now: Date): Promise<PageComponents> {
  const org = page.organization;
  const { idsOf, slos, directMetrics, sloMetrics, serviceIds } = await resolveShown(em, page);
  const [services, serviceMetrics, maintenances] = await Promise.all([
    em.find(ServiceSchema, { id: { $in: [...serviceIds] }, organization: org, deletedAt: null }),
    em.find(MetricSchema, { service: { $in: idsOf('service') }, organization: org, deletedAt: null }),
    // Every maintenance that ran within the uptime bars' days: those in progress mark their
    // services, and each one's window leaves its services' down time out of their uptime.
    em.find(
      MaintenanceSchema,
      {
        organization: org,
        deletedAt: null,
        actualStartAt: { $ne: null, $lte: now },
        $or: [{ actualEndAt: null }, { actualEndAt: { $gte: uptimeFrom(now) } }],
      },
      { fields: ['affectedServices', 'actualStartAt', 'actualEndAt', 'canceledAt'] },
    ),
  ]);
  const serviceNames = new Map(services.map((s) => [s.id, s.name]));
  const covers = (m: (typeof maintenances)[number], serviceId: string) =>
    m.affectedServices.length === 0 || m.affectedServices.includes(serviceId);
  const underMaintenance = (serviceId: string) =>
    maintenances.some((m) => !m.actualEndAt && !m.canceledAt && covers(m, serviceId));
  const windowsOf = (serviceId: string): Interval[] =>
    maintenances
      .filter((m) => covers(m, serviceId))
      .map((m) => ({ start: m.actualStartAt!.getTime(), end: (m.actualEndAt ?? m.canceledAt ?? now).getTime() }));
  const shownMetrics = [...new Map([...serviceMetrics, ...directMetrics].map((m) => [m.id, m])).values()];
  const uptimeOf = await loadUptime(em, shownMetrics, now);
  // A metric no_data with a target reason is down on the page (docs/decisions.md), like unhealthy.
  const statusOf = (m: (typeof shownMetrics)[number]) => effectiveStatus(m.status as HealthStatus, m.reason);
  const ctx = { em, org: { id: org }, now };

  const build = async (c: { kind: 'service' | 'metric' | 'slo'; id: string }): Promise<LoadedComponent | null> => {
    if (c.kind === 'service') {
      const name = serviceNames.get(c.id);
      if (name === undefined) return null;
      const metrics = serviceMetrics.filter((m) => m.service === c.id);
      const u = uptimeOf(metrics, windowsOf(c.id));
      const service = services.find((s) => s.id === c.id)!;
      return {
        kind: 'service',
        id: c.id,
        name,
        description: service.description ?? null,
        status: worstOf(metrics.map(statusOf)) ?? 'no_data',
        service_id: c.id,
        in_maintenance: underMaintenance(c.id),
        uptime: publicDays(u.days),
        uptime_pct: u.total,
        uptime_since: sinceIso(u.since),
        slo: null,
      };
    }
    if (c.kind === 'metric') {
      const m = directMetrics.find((x) => x.id === c.id);
      if (!m) return null;
      const u = uptimeOf([m], windowsOf(m.service));
      return {
        kind: 'metric',
        id: m.id,
        name: m.name,
        description: null,
        status: statusOf(m),
        service_id: m.service,
        in_maintenance: underMaintenance(m.service),
        uptime: publicDays(u.days),
        uptime_pct: u.total,
        uptime_since: sinceIso(u.since),
        slo: null,
      };
    }
    const s = slos.find((x) => x.id === c.id);
    if (!s) return null;
    const v = await sloView(ctx, s);
    const met = v.attainment?.met ?? null;
    const serviceId = s.service ?? sloMetrics.find((m) => m.id === s.metric)?.service ?? null;
    return {
      kind: 'slo',
      id: s.id,
      name: s.name,
      description: null,
      status: met === null ? 'no_data' : met ? 'healthy' : 'unhealthy',
      service_id: serviceId,
      in_maintenance: serviceId ? underMaintenance(serviceId) : false,
      uptime: [],
      uptime_pct: null,
      uptime_since: null,
      slo: {
        objective: s.objective,
        attainment: v.attainment?.attainment ?? null,
        met,
        period_label: v.attainment?.period_label ?? '',
      },
    };
  };

  const groups: LoadedGroup[] = [];
  for (const g of page.layout.groups) {
    const components = (await Promise.all(g.components.map(build))).filter((c): c is LoadedComponent => c !== null);
    if (!components.length) continue;
    groups.push({
      name: g.name,
      status: worstOf(components.filter((c) => c.kind !== 'slo').map((c) => c.status)) ?? 'no_data',
      components,
    });
  }
  const status =
    worstOf(groups.flatMap((g) => g.components.filter((c) => c.kind !== 'slo').map((c) => c.status))) ?? 'no_data';
  return { groups, status, serviceIds: [...serviceIds], serviceNames };
}
