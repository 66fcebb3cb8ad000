import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Contract,
  IncidentSchema,
  MaintenanceSchema,
  MetricSchema,
  ServiceSchema,
  SlaExclusionSchema,
  SloSchema,
} from '../../db/entities';
import { evidenceFlips, firstSamplesBefore, sampleOrigins } from '../../db/repositories/sla-evidence-repository';
import { reasonClass } from '../../domain/reason-class';
import type { SlaStatus } from '../../domain/sla/downtime';
import type { EvidencedChange, EvidencedTimeline } from '../../domain/sla/outages';
import type {
  CoveredService,
  IncidentEvidence,
  MaintenanceEvidence,
  ManualExclusion,
  MetricEvidence,
} from '../../domain/sla/statement';

export interface Evidence {
  services: CoveredService[];
  maintenances: MaintenanceEvidence[];
  exclusions: ManualExclusion[];
  incidents: IncidentEvidence[];
}

/**
 * The status a flip means for availability: `no_data` with a `target` reason (the
 * target did not answer) is down like `unhealthy`; with a `measurement` reason it stays `no_data`,
 * a gap in the evidence. Flips stored before their class was recorded are classed by their reason.
 */
export function availabilityStatus(toStatus: string, reason: string | null, storedClass: string | null): SlaStatus {
  if (toStatus === 'healthy' || toStatus === 'degraded' || toStatus === 'unhealthy') return toStatus;
  return (storedClass ?? reasonClass(reason ?? 'no_data')) === 'target' ? 'unhealthy' : 'no_data';
}

/**
 * What a statement is computed from, as stored when it is computed: every metric of the covered
 * services (and of the covered SLOs: an SLO's metric, or its service's metrics) with its status flips (a metric is no_data before it existed and after it was deleted),
 * the maintenances on those services as they ran, finance's exclusions, and the incidents.
 * A metric counts from its first stored sample or its creation, whichever is earlier (history
 * posted for a metric before it was created counts, as it does for uptime and SLOs); each one's
 * samples of the window are counted by origin (imported, received after `periodEnd`).
 */
export async function gatherEvidence(
  em: EntityManager,
  contract: Contract,
  period: string,
  window: { start: Date; end: Date },
  now: Date,
  periodEnd: Date = window.end,
): Promise<Evidence> {
  const slos = contract.sloIds.length
    ? await em.find(
        SloSchema,
        { id: { $in: contract.sloIds }, organization: contract.organization },
        { orderBy: { name: 'asc', id: 'asc' } },
      )
    : [];
  const serviceIds = [...new Set([...contract.serviceIds, ...slos.flatMap((s) => (s.service ? [s.service] : []))])];
  const sloMetricIds = slos.flatMap((s) => (s.metric ? [s.metric] : []));
  const services = await em.find(
    ServiceSchema,
    { id: { $in: contract.serviceIds }, organization: contract.organization },
    { orderBy: { name: 'asc', id: 'asc' } },
  );
  const candidates = await em.find(
    MetricSchema,
    {
      organization: contract.organization,
      $and: [
        { $or: [{ service: { $in: serviceIds } }, { id: { $in: sloMetricIds } }] },
        { $or: [{ deletedAt: null }, { deletedAt: { $gt: window.start } }] },
      ],
    },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const firstSamples = await firstSamplesBefore(
    em,
    candidates.map((m) => m.id),
    window.end,
  );
  const countedFrom = (m: (typeof candidates)[number]): Date => {
    const first = firstSamples.get(m.id);
    return first && first < m.createdAt ? first : m.createdAt;
  };
  const metrics = candidates.filter((m) => countedFrom(m) < window.end);
  const flips = await evidenceFlips(
    em,
    metrics.map((m) => m.id),
    window.start,
    window.end,
  );
  const byMetric = new Map<string, EvidencedChange[]>();
  for (const f of flips) {
    const list = byMetric.get(f.metricId) ?? [];
    // Each change carries its flip's evidence: the statement lists the outages it began with how they were confirmed.
    const flip = {
      toStatus: f.toStatus,
      reason: f.reason,
      confirmedAt: f.confirmedAt,
      confirmations: f.confirmations,
      rounds: f.rounds,
    };
    list.push({ at: f.at, status: availabilityStatus(f.toStatus, f.reason, f.reasonClass), flip });
    byMetric.set(f.metricId, list);
  }
  const origins = await sampleOrigins(
    em,
    metrics.map((m) => m.id),
    window.start,
    window.end,
    periodEnd,
  );
  const evidenceOf = (m: (typeof metrics)[number]): MetricEvidence => ({
    metricId: m.id,
    name: m.name,
    countedFrom: countedFrom(m),
    ...(origins.get(m.id) ?? { samples: 0, importedSamples: 0, importedMinutes: 0, lateSamples: 0 }),
  });
  const timelineOf = (m: (typeof metrics)[number]): EvidencedTimeline => {
    const changes = [...(byMetric.get(m.id) ?? [])];
    if (m.deletedAt) {
      const kept = changes.filter((c) => c.at.getTime() < m.deletedAt!.getTime());
      kept.push({ at: m.deletedAt, status: 'no_data' });
      return { initial: 'no_data', changes: kept };
    }
    return { initial: 'no_data', changes };
  };

  // Maintenances and incidents concern the covered services and the services of covered SLOs' metrics.
  const touching = {
    $overlap: [
      ...new Set([...serviceIds, ...metrics.filter((m) => sloMetricIds.includes(m.id)).map((m) => m.service)]),
    ],
  } as never;
  const maintenanceRows = await em.find(MaintenanceSchema, {
    organization: contract.organization,
    deletedAt: null,
    affectedServices: touching,
    actualStartAt: { $ne: null, $lt: window.end },
  });
  // The service each covered item stands for: itself, an SLO's service, or its metric's service.
  const itemServices = new Map<string, string[]>([
    ...contract.serviceIds.map((id) => [id, [id]] as [string, string[]]),
    ...slos.map(
      (s) =>
        [s.id, s.service ? [s.service] : metrics.filter((m) => m.id === s.metric).map((m) => m.service)] as [
          string,
          string[],
        ],
    ),
  ]);
  const maintenances: MaintenanceEvidence[] = maintenanceRows
    .map((m) => {
      // Only what was both announced and run is excluded: an early start or an overrun counts.
      const start = new Date(Math.max(m.actualStartAt!.getTime(), m.scheduledStartAt.getTime()));
      const ranUntil = m.actualEndAt ?? m.canceledAt ?? (now < window.end ? now : window.end);
      const end = new Date(Math.max(start.getTime(), Math.min(ranUntil.getTime(), m.scheduledEndAt.getTime())));
      const itemIds = [...itemServices]
        .filter(([, services]) => services.some((id) => m.affectedServices.includes(id)))
        .map(([item]) => item);
      return { id: m.id, title: m.title, itemIds, start, end, announcedAt: m.createdAt };
    })
    .filter((m) => m.end.getTime() > window.start.getTime() && m.itemIds.length > 0);

  const exclusionRows = await em.find(
    SlaExclusionSchema,
    { contract: contract.id, periodLabel: period },
    { orderBy: { startsAt: 'asc', id: 'asc' } },
  );
  const exclusions: ManualExclusion[] = exclusionRows.map((e) => ({
    id: e.id,
    justification: e.justification,
    start: e.startsAt,
    end: e.endsAt,
  }));

  const incidentRows = await em.find(IncidentSchema, {
    organization: contract.organization,
    deletedAt: null,
    affectedServices: touching,
    createdAt: { $lt: window.end },
    $or: [{ resolvedAt: null }, { resolvedAt: { $gt: window.start } }],
  });
  // Only incidents the customer could see: published, and public or shown to this customer.
  const incidents: IncidentEvidence[] = incidentRows
    .filter(
      (i) =>
        !i.canceledAt &&
        i.publishedAt &&
        (i.visibleToCustomerIds.length === 0 || i.visibleToCustomerIds.includes(contract.customer)),
    )
    .map((i) => ({ id: i.id, title: i.title, severity: i.severity, start: i.createdAt, end: i.resolvedAt ?? null }));

  const itemOf = (id: string, kind: 'service' | 'slo', name: string, of: typeof metrics): CoveredService => ({
    id,
    kind,
    name,
    metrics: of.map(timelineOf),
    metricEvidence: of.map(evidenceOf),
  });

  return {
    services: [
      ...services.map((s) =>
        itemOf(
          s.id,
          'service',
          s.name,
          metrics.filter((m) => m.service === s.id),
        ),
      ),
      ...slos.map((s) =>
        itemOf(
          s.id,
          'slo',
          s.name,
          metrics.filter((m) => (s.metric ? m.id === s.metric : m.service === s.service)),
        ),
      ),
    ],
    maintenances,
    exclusions,
    incidents,
  };
}
