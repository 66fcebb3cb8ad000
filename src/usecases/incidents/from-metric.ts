import { MetricStatusFlipSchema, ServiceSchema } from '../../db/entities';
import type { Severity } from '../../domain/incident-state';
import { describeReason } from '../../domain/reason-codes';
import type { OrgContext } from '../context';
import { getMetricRow } from '../metrics/metrics';
import { createIncident } from './incidents';
import type { IncidentView } from './view';

const SEVERITY: Record<string, Severity> = { unhealthy: 'major', degraded: 'minor', no_data: 'minor', healthy: 'minor' };
const WORDS: Record<string, string> = { unhealthy: 'is unhealthy', degraded: 'is degraded', no_data: 'reports no data', healthy: 'recovered' };

/**
 * A draft incident pre-filled from the metric's latest status flip (or its current status when
 * it never flipped): title from the service and metric, severity from the status, the service
 * as affected, and what was measured as the first message. Published by hand, never by itself.
 */
export async function incidentFromMetric(ctx: OrgContext, metricId: string): Promise<IncidentView> {
  const m = await getMetricRow(ctx, metricId);
  const flip = await ctx.em.findOne(MetricStatusFlipSchema, { metric: m.id }, { orderBy: { at: 'desc' } });
  const service = await ctx.em.findOne(ServiceSchema, m.service);
  const status = flip?.toStatus ?? m.status;
  const value = flip ? flip.value : (m.currentValue ?? null);
  const reason = flip ? flip.reason : (m.reason ?? null);
  const at = (flip?.at ?? m.lastSampleAt ?? m.statusSince ?? ctx.now).toISOString();
  const measured = reason ? `${describeReason(reason).reason_label} (${reason})` : value !== null ? `value ${Number(value)}${m.unit ? ` ${m.unit}` : ''}` : 'no value';
  return createIncident(ctx, {
    title: `${service?.name ?? 'Service'}: ${m.name} ${WORDS[status] ?? status}`.slice(0, 300),
    severity: SEVERITY[status] ?? 'minor',
    affected_services: [m.service],
    initial_message: { type: 'Investigating', body: `${m.name} ${WORDS[status] ?? `is ${status}`} since ${at}${flip ? ` (was ${flip.fromStatus})` : ''}: ${measured}.` },
  });
}
