import type { EntityManager } from '@mikro-orm/postgresql';
import { type Contract, IncidentSchema, MaintenanceSchema, MetricSchema, ServiceSchema, SlaExclusionSchema, SloSchema } from '../../db/entities';
import { flipsForWindow } from '../../db/repositories/status-flip-repository';
import type { ServiceTimeline, SlaStatus } from '../../domain/sla/downtime';
import type { CoveredService, IncidentEvidence, MaintenanceEvidence, ManualExclusion } from '../../domain/sla/statement';

export interface Evidence {
  services: CoveredService[];
  maintenances: MaintenanceEvidence[];
  exclusions: ManualExclusion[];
  incidents: IncidentEvidence[];
}

const asStatus = (s: string): SlaStatus => (s === 'healthy' || s === 'degraded' || s === 'unhealthy' ? s : 'no_data');

/**
 * What a statement is computed from, as stored when it is computed: every metric of the covered
 * services (and of the covered SLOs: an SLO's metric, or its service's metrics) with its status flips (a metric is no_data before it existed and after it was deleted),
 * the maintenances on those services as they ran, finance's exclusions, and the incidents.
 */
export async function gatherEvidence(em: EntityManager, contract: Contract, period: string, window: { start: Date; end: Date }, now: Date): Promise<Evidence> {
  const slos = contract.sloIds.length ? await em.find(SloSchema, { id: { $in: contract.sloIds }, organization: contract.organization }, { orderBy: { name: 'asc', id: 'asc' } }) : [];
  const serviceIds = [...new Set([...contract.serviceIds, ...slos.flatMap((s) => (s.service ? [s.service] : []))])];
  const sloMetricIds = slos.flatMap((s) => (s.metric ? [s.metric] : []));
  const services = await em.find(ServiceSchema, { id: { $in: contract.serviceIds }, organization: contract.organization }, { orderBy: { name: 'asc', id: 'asc' } });
  const metrics = await em.find(MetricSchema, {
    organization: contract.organization,
    $and: [{ $or: [{ service: { $in: serviceIds } }, { id: { $in: sloMetricIds } }] }, { $or: [{ deletedAt: null }, { deletedAt: { $gt: window.start } }] }],
    createdAt: { $lt: window.end },
  });
  const flips = await flipsForWindow(em, metrics.map((m) => m.id), window.start, window.end);
  const byMetric = new Map<string, { at: Date; status: SlaStatus }[]>();
  for (const f of flips) {
    const list = byMetric.get(f.metricId) ?? [];
    list.push({ at: f.at, status: asStatus(f.toStatus) });
    byMetric.set(f.metricId, list);
  }
  const timelineOf = (m: (typeof metrics)[number]): ServiceTimeline => {
    const changes = [...(byMetric.get(m.id) ?? [])];
    if (m.deletedAt) {
      const kept = changes.filter((c) => c.at.getTime() < m.deletedAt!.getTime());
      kept.push({ at: m.deletedAt, status: 'no_data' });
      return { initial: 'no_data', changes: kept };
    }
    return { initial: 'no_data', changes };
  };

  // Maintenances and incidents concern the covered services and the services of covered SLOs' metrics.
  const touching = { $overlap: [...new Set([...serviceIds, ...metrics.filter((m) => sloMetricIds.includes(m.id)).map((m) => m.service)])] } as never;
  const maintenanceRows = await em.find(MaintenanceSchema, {
    organization: contract.organization,
    deletedAt: null,
    affectedServices: touching,
    actualStartAt: { $ne: null, $lt: window.end },
  });
  // The service each covered item stands for: itself, an SLO's service, or its metric's service.
  const itemServices = new Map<string, string[]>([
    ...contract.serviceIds.map((id) => [id, [id]] as [string, string[]]),
    ...slos.map((s) => [s.id, s.service ? [s.service] : metrics.filter((m) => m.id === s.metric).map((m) => m.service)] as [string, string[]]),
  ]);
  const maintenances: MaintenanceEvidence[] = maintenanceRows
    .map((m) => {
      // Only what was both announced and run is excluded: an early start or an overrun counts.
      const start = new Date(Math.max(m.actualStartAt!.getTime(), m.scheduledStartAt.getTime()));
      const ranUntil = m.actualEndAt ?? m.canceledAt ?? (now < window.end ? now : window.end);
      const end = new Date(Math.max(start.getTime(), Math.min(ranUntil.getTime(), m.scheduledEndAt.getTime())));
      const itemIds = [...itemServices].filter(([, services]) => services.some((id) => m.affectedServices.includes(id))).map(([item]) => item);
      return { id: m.id, title: m.title, itemIds, start, end, announcedAt: m.createdAt };
    })
    .filter((m) => m.end.getTime() > window.start.getTime() && m.itemIds.length > 0);

  const exclusionRows = await em.find(SlaExclusionSchema, { contract: contract.id, periodLabel: period }, { orderBy: { startsAt: 'asc', id: 'asc' } });
  const exclusions: ManualExclusion[] = exclusionRows.map((e) => ({ id: e.id, justification: e.justification, start: e.startsAt, end: e.endsAt }));

  const incidentRows = await em.find(IncidentSchema, {
    organization: contract.organization,
    deletedAt: null,
    affectedServices: touching,
    createdAt: { $lt: window.end },
    $or: [{ resolvedAt: null }, { resolvedAt: { $gt: window.start } }],
  });
  // Only incidents the customer could see: published, and public or shown to this customer.
  const incidents: IncidentEvidence[] = incidentRows
    .filter((i) => !i.canceledAt && i.publishedAt && (i.visibleToCustomerIds.length === 0 || i.visibleToCustomerIds.includes(contract.customer)))
    .map((i) => ({ id: i.id, title: i.title, severity: i.severity, start: i.createdAt, end: i.resolvedAt ?? null }));

  return {
    services: [
      ...services.map((s) => ({ id: s.id, kind: 'service' as const, name: s.name, metrics: metrics.filter((m) => m.service === s.id).map(timelineOf) })),
      ...slos.map((s) => ({ id: s.id, kind: 'slo' as const, name: s.name, metrics: metrics.filter((m) => (s.metric ? m.id === s.metric : m.service === s.service)).map(timelineOf) })),
    ],
    maintenances,
    exclusions,
    incidents,
  };
}
