import type { EntityManager } from '@mikro-orm/postgresql';
import { MetricSchema, ServiceSchema } from '../../db/entities';
import { statusFires } from '../../domain/alerting/rule-kinds';
import { effectiveStatus } from '../../domain/reason-class';
import { type HealthStatus, rollUp } from '../../domain/thresholds';

/** What an alert's subject is like right now: whether it fires the rule, and the words and numbers a message shows. */
export interface SubjectState {
  exists: boolean;
  name: string;
  firing: boolean;
  /** The status word shown: unhealthy, degraded, healthy, no_data… */
  status: string;
  /** The service whose maintenances and silences cover the subject (null: none). */
  serviceId: string | null;
  metric: { name: string; value: number | null; unit: string | null; reason: string | null } | null;
}

const GONE: SubjectState = { exists: false, name: '(deleted)', firing: false, status: 'deleted', serviceId: null, metric: null };

/**
 * Reads a subject's current state for a rule of `kind`. Status rules read the stored (confirmed)
 * status: a metric's own, a service's the worst of its metrics (a no_data metric whose target did
 * not answer counts as unhealthy, as on the status page).
 */
export async function readSubjectState(em: EntityManager, organizationId: string, kind: string, subjectId: string, includeDegraded: boolean): Promise<SubjectState> {
  switch (kind) {
    case 'metric_status':
    case 'heartbeat_missed': {
      const m = await em.findOne(MetricSchema, { id: subjectId, organization: organizationId, deletedAt: null });
      if (!m) return GONE;
      const effective = effectiveStatus(m.status as HealthStatus, m.reason);
      return {
        exists: true,
        name: m.name,
        firing: statusFires(effective, includeDegraded),
        status: effective,
        serviceId: m.service,
        metric: { name: m.name, value: m.currentValue == null ? null : Number(m.currentValue), unit: m.unit ?? null, reason: m.reason ?? null },
      };
    }
    case 'service_status':
    case 'status_page_status': {
      const s = await em.findOne(ServiceSchema, { id: subjectId, organization: organizationId, deletedAt: null });
      if (!s) return GONE;
      const metrics = await em.find(MetricSchema, { service: s.id, deletedAt: null }, { orderBy: { createdAt: 'asc' } });
      const effective = metrics.map((m) => effectiveStatus(m.status as HealthStatus, m.reason));
      const status = rollUp(effective).status ?? 'no_data';
      // The metric a message names: the first one in the worst state.
      const worst = metrics.find((_, i) => effective[i] === status) ?? null;
      return {
        exists: true,
        name: s.name,
        firing: statusFires(status, includeDegraded),
        status,
        serviceId: s.id,
        metric: worst ? { name: worst.name, value: worst.currentValue == null ? null : Number(worst.currentValue), unit: worst.unit ?? null, reason: worst.reason ?? null } : null,
      };
    }
    default:
      // Kinds evaluated by the periodic sweep (agents, locations, SLOs, statements) are not signalled by events yet.
      return { ...GONE, exists: false, status: 'unsupported' };
  }
}
