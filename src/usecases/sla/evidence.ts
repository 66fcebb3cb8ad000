import type { EntityManager } from '@mikro-orm/postgresql';
import { type Contract, IncidentSchema, MaintenanceSchema, MetricSchema, MetricStatusFlipSchema, ServiceSchema, SlaExclusionSchema, SloSchema } from '../../db/entities';
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
  const flips = metrics.length
    ? await em.find(MetricStatusFlipSchema, { metric: { $in: metrics.map((m) => m.id) }, at: { $lt: window.end } }, { orderBy: { at: 'asc', id: 'asc' }, fields: ['metric', 'toStatus', 'at'] as never })
    : [];
  const byMetric = new Map<string, { at: Date; status: SlaStatus }[]>();
  for (const f of flips) {
    const list = byMetric.get(f.metric) ?? [];
    list.push({ at: f.at, status: asStatus(f.toStatus) });
    byMetric.set(f.metric, list);
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
  const maintenances: MaintenanceEvidence[] = maintenanceRows
    .map((m) => ({ id: m.id, title: m.title, start: m.actualStartAt!, end: m.actualEndAt ?? m.canceledAt ?? (now < window.end ? now : window.end), announcedAt: m.createdAt }))
    .filter((m) => m.end.getTime() > window.start.getTime());

  const exclusionRows = await em.find(SlaExclusionSchema, { contract: contract.id, periodLabel: period }, { orderBy: { startsAt: 'asc', id: 'asc' } });
  const exclusions: ManualExclusion[] = exclusionRows.map((e) => ({ id: e.id, justification: e.justification, start: e.startsAt, end: e.endsAt }));

  const incidentRows = await em.find(IncidentSchema, {
    organization: contract.organization,
    deletedAt: null,
    affectedServices: touching,
    createdAt: { $lt: window.end },
    $or: [{ resolvedAt: null }, { resolvedAt: { $gt: window.start } }],
  });
  const incidents: IncidentEvidence[] = incidentRows
    .filter((i) => !i.canceledAt)
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
