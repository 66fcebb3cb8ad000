import { ServiceSchema, SloSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import type { Severity } from '../../domain/incident-state';
import { getAlert } from '../alerting/alerts';
import type { OrgContext } from '../shared/context';
import { customerDraft, incidentFromMetric } from './from-metric';
import { createIncident } from './incidents';
import type { IncidentView } from './view';

const SEVERITY: Record<string, Severity> = { critical: 'major', warning: 'minor', info: 'minor' };

/** The service customers know an alert's subject by: a metric's or an SLO's service, or the service itself. */
async function serviceOf(ctx: OrgContext, kind: string, id: string): Promise<string | null> {
  if (kind === 'service')
    return (await ctx.em.findOne(ServiceSchema, { id, organization: ctx.org.id, deletedAt: null }))?.id ?? null;
  if (kind === 'slo')
    return (await ctx.em.findOne(SloSchema, { id, organization: ctx.org.id, deletedAt: null }))?.service ?? null;
  return null;
}

/**
 * A draft incident from an alert, as from a metric: a metric's alert is drafted from that metric
 * (its flip says since when), a service's or an SLO's from the service, since the alert fired.
 * Customers read the service and the time; the alert itself (rule, summary, subject, ids) goes to
 * the internal note. An alert about something customers do not see (an agent, a location, an SLA
 * statement) has no service to name: 400, draft it by hand.
 */
export async function incidentFromAlert(ctx: OrgContext, alertId: string): Promise<IncidentView> {
  const alert = await getAlert(ctx, alertId);
  const about = `Alert ${alert.title} (${alert.id}), ${alert.severity}, triggered ${alert.triggered_at} for ${alert.subject.kind} ${alert.subject.name} (${alert.subject.id}): ${alert.summary}`;
  if (alert.subject.kind === 'metric') return incidentFromMetric(ctx, alert.subject.id, about);
  const serviceId = await serviceOf(ctx, alert.subject.kind, alert.subject.id);
  const service = serviceId ? await ctx.em.findOne(ServiceSchema, serviceId) : null;
  if (!service) {
    const message = `The alert is about ${alert.subject.kind === 'slo' ? 'an SLO without a service' : `a ${alert.subject.kind.replace(/_/g, ' ')}`}, no service customers see: create the incident by hand`;
    throw new ProblemError('validation_failed', `alertId: ${message}`, { errors: [{ path: 'alertId', message }] });
  }
  const words = await customerDraft(ctx, {
    serviceId: service.id,
    serviceName: service.name,
    impact: 'outage',
    since: new Date(alert.triggered_at),
  });
  return createIncident(ctx, {
    title: words.title,
    severity: SEVERITY[alert.severity] ?? 'minor',
    affected_services: [service.id],
    initial_message: { type: 'Investigating', body: words.body },
    internal_note: about,
  });
}
