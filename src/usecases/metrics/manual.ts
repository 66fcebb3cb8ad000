import type { EntityManager } from '@mikro-orm/postgresql';
import { IncidentSchema, MetricSchema } from '../../db/entities';
import { type HealthStatus, worstOf } from '../../domain/thresholds';
import { ingestSamples } from './ingest';

/** What an open incident means for the manual metrics of the services it affects. */
const INCIDENT_STATUS: Record<string, HealthStatus> = { critical: 'unhealthy', major: 'unhealthy', minor: 'degraded' };

/**
 * Manual metrics show the worse of the status set by hand and what the organization's open
 * (published, unresolved, not deleted) incidents say of their service. Called after a status is
 * set by hand and after every incident change; a change of the effective status is a sample,
 * so it flips and emits like any other. `scope` narrows it to some metrics (`metricIds`) or to
 * the metrics of the services a change touched (`services`; none: nothing can move).
 */
export async function syncManualMetrics(
  em: EntityManager,
  organizationId: string,
  now: Date,
  scope: { metricIds?: readonly string[]; services?: readonly string[] } = {},
): Promise<number> {
  if (scope.services?.length === 0 || scope.metricIds?.length === 0) return 0;
  const metrics = await em.find(MetricSchema, {
    organization: organizationId,
    sourceType: 'manual',
    deletedAt: null,
    ...(scope.metricIds ? { id: { $in: [...scope.metricIds] } } : {}),
    ...(scope.services ? { service: { $in: [...scope.services] } } : {}),
  });
  if (!metrics.length) return 0;
  const published = await em.find(IncidentSchema, {
    organization: organizationId,
    deletedAt: null,
    resolvedAt: null,
    publishedAt: { $ne: null },
  });
  // A metric's status is public (status pages): an incident shown only to some customers must not move it.
  const open = published.filter((i) => i.visibleToCustomerIds.length === 0);
  const samples = [];
  for (const m of metrics) {
    const fromIncidents = open
      .filter((i) => i.affectedServices.includes(m.service))
      .map((i) => INCIDENT_STATUS[i.severity] ?? 'degraded');
    // Never set by hand and no open incident: nothing says anything about it.
    const effective =
      worstOf([...(m.manualStatus ? [m.manualStatus as HealthStatus] : []), ...fromIncidents]) ?? 'no_data';
    if (effective !== m.status)
      samples.push({ metricId: m.id, sampledAt: now, value: null, reason: null, status: effective });
  }
  if (samples.length) await ingestSamples(em.fork(), organizationId, samples, now);
  return samples.length;
}
