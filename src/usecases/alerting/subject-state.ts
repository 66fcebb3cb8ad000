import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AgentSchema,
  MetricSchema,
  ProbeLocationSchema,
  ServiceSchema,
  SlaStatementSchema,
  SloSchema,
} from '../../db/entities';
import { DEFAULT_BURN_WINDOWS, evaluateBurn } from '../../domain/alerting/burn-rate';
import { agentStatus } from '../../domain/agent-status';
import { locationStatus } from '../../domain/locations';
import { parseObjective } from '../../domain/slo';
import { sloWindowMeasurements } from '../slos/slos';
import { statusFires } from '../../domain/alerting/rule-kinds';
import { metricSubjectName } from '../../domain/alerting/subject-name';
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
  /** The metric the message names, for what it checks and the flip that confirmed it. */
  source?: { metricId: string; sourceType: string; sourceConfig: Record<string, unknown> | null };
}

const sourceOf = (m: { id: string; sourceType: string; sourceConfig?: unknown }) => ({
  metricId: m.id,
  sourceType: m.sourceType,
  sourceConfig: (m.sourceConfig ?? null) as Record<string, unknown> | null,
});

const GONE: SubjectState = {
  exists: false,
  name: '(deleted)',
  firing: false,
  status: 'deleted',
  serviceId: null,
  metric: null,
};

/**
 * Reads a subject's current state for a rule of `kind`. Status rules read the stored (confirmed)
 * status: a metric's own, a service's the worst of its metrics (a no_data metric whose target did
 * not answer counts as unhealthy, as on the status page).
 */
export async function readSubjectState(
  em: EntityManager,
  organizationId: string,
  kind: string,
  subjectId: string,
  includeDegraded: boolean,
  now: Date,
  settings: Record<string, unknown>,
): Promise<SubjectState> {
  switch (kind) {
    case 'metric_status':
    case 'heartbeat_missed': {
      const m = await em.findOne(MetricSchema, { id: subjectId, organization: organizationId, deletedAt: null });
      if (!m) return GONE;
      const effective = effectiveStatus(m.status as HealthStatus, m.reason);
      const service = await em.findOne(ServiceSchema, { id: m.service }, { fields: ['name'] });
      return {
        exists: true,
        name: metricSubjectName(service?.name ?? null, m.name),
        firing: statusFires(effective, includeDegraded),
        status: effective,
        serviceId: m.service,
        metric: {
          name: m.name,
          value: m.currentValue == null ? null : Number(m.currentValue),
          unit: m.unit ?? null,
          reason: m.reason ?? null,
        },
        source: sourceOf(m),
      };
    }
    case 'service_status':
    case 'status_page_status': {
      const s = await em.findOne(ServiceSchema, { id: subjectId, organization: organizationId, deletedAt: null });
      if (!s) return GONE;
      const metrics = await em.find(
        MetricSchema,
        { service: s.id, deletedAt: null },
        { orderBy: { createdAt: 'asc' } },
      );
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
        metric: worst
          ? {
              name: worst.name,
              value: worst.currentValue == null ? null : Number(worst.currentValue),
              unit: worst.unit ?? null,
              reason: worst.reason ?? null,
            }
          : null,
        ...(worst ? { source: sourceOf(worst) } : {}),
      };
    }
    case 'agent_offline': {
      const a = await em.findOne(AgentSchema, { id: subjectId, organization: organizationId });
      if (!a || a.revokedAt) return GONE;
      const status = agentStatus(a, now);
      return { exists: true, name: a.name, firing: status === 'offline', status, serviceId: null, metric: null };
    }
    case 'location_offline': {
      // The installation's location of that id that heartbeat last (a location may have registered on several task queues).
      const [l] = await em.find(ProbeLocationSchema, { id: subjectId }, { orderBy: { lastSeenAt: 'desc' }, limit: 1 });
      if (!l) return GONE;
      const status = locationStatus(
        { lastSeenAt: l.lastSeenAt, heartbeatSeconds: l.heartbeatSeconds, stoppedAt: l.stoppedAt },
        now,
      );
      return {
        exists: true,
        name: `${l.label} (${l.id})`,
        firing: status === 'offline',
        status,
        serviceId: null,
        metric: null,
      };
    }
    case 'slo_burn': {
      const slo = await em.findOne(SloSchema, { id: subjectId, organization: organizationId, deletedAt: null });
      if (!slo) return GONE;
      const minutes = [...new Set(DEFAULT_BURN_WINDOWS.flatMap((w) => [w.long_minutes, w.short_minutes]))];
      const windows = await sloWindowMeasurements({ em, now, org: { id: organizationId } }, slo, minutes);
      const { num, den } = parseObjective(slo.objective);
      const burn = evaluateBurn(Number(num) / Number(den), windows).firing;
      // Either pair fires (14.4× over 1 h and 5 min, or 6× over 6 h and 30 min); the rule's severity says how loud.
      const fires = burn !== null;
      const serviceId =
        slo.service ?? (slo.metric ? ((await em.findOne(MetricSchema, { id: slo.metric }))?.service ?? null) : null);
      return {
        exists: true,
        name: slo.name,
        firing: fires,
        status: burn ? `burning ${burn.long_burn}× (${burn.long_minutes} min, ${burn.severity})` : 'within budget',
        serviceId,
        metric: burn
          ? { name: `burn rate over ${burn.long_minutes} min`, value: burn.long_burn, unit: '×', reason: null }
          : null,
      };
    }
    case 'sla_review_overdue': {
      const st = await em.findOne(SlaStatementSchema, { id: subjectId, organization: organizationId });
      if (!st) return GONE;
      const hours = typeof settings.reminder_hours === 'number' ? settings.reminder_hours : 24;
      const overdue =
        st.state === 'in_review' &&
        st.submittedAt !== null &&
        st.submittedAt !== undefined &&
        now.getTime() - st.submittedAt.getTime() >= hours * 3_600_000;
      return {
        exists: true,
        name: `${st.customerName} ${st.periodLabel} (revision ${st.revision})`,
        firing: overdue,
        status: overdue ? 'overdue' : st.state,
        serviceId: null,
        metric: null,
      };
    }
    default:
      return { ...GONE, status: 'unsupported' };
  }
}
