import { MetricStatusFlipSchema, ServiceSchema } from '../../db/entities';
import { type Vote, describeEvidence } from '../../domain/confirmation';
import type { Severity } from '../../domain/incident-state';
import { effectiveStatus } from '../../domain/reason-class';
import { describeReason } from '../../domain/reason-codes';
import type { OrgContext } from '../context';
import { getMetricRow } from '../metrics/metrics';
import { createIncident } from './incidents';
import type { IncidentView } from './view';

const SEVERITY: Record<string, Severity> = { unhealthy: 'major', down: 'major', degraded: 'minor', no_data: 'minor', healthy: 'minor' };
const WORDS: Record<string, string> = { unhealthy: 'is unhealthy', down: 'is down', degraded: 'is degraded', no_data: 'reports no data', healthy: 'recovered' };
const WAS: Record<string, string> = { down: 'down', no_data: 'not measured (no data)' };

/**
 * What a reading is for an incident: its status, except that a `no_data` with a `target` reason
 * (the target did not answer) is `down`, an outage like `unhealthy`, and one with a `measurement`
 * reason stays `no_data` (Vigil could not measure).
 */
function stateOf(status: string, reason: string | null | undefined, reasonClass?: string | null): string {
  if (status !== 'no_data') return status;
  if (reasonClass) return reasonClass === 'target' ? 'down' : 'no_data';
  return effectiveStatus(status, reason) === 'unhealthy' ? 'down' : 'no_data';
}

/**
 * A draft incident pre-filled from the metric's latest status flip (or its current status when
 * it never flipped): title from the service and metric, severity from the state (a target that
 * does not answer is down: major), the service as affected, and what was measured as the first
 * message. Published by hand, never by itself.
 */
export async function incidentFromMetric(ctx: OrgContext, metricId: string): Promise<IncidentView> {
  const m = await getMetricRow(ctx, metricId);
  const [flip, flipBefore] = await ctx.em.find(MetricStatusFlipSchema, { metric: m.id }, { orderBy: { at: 'desc' }, limit: 2 });
  const service = await ctx.em.findOne(ServiceSchema, m.service);
  const status = flip?.toStatus ?? m.status;
  const value = flip ? flip.value : (m.currentValue ?? null);
  const reason = flip ? flip.reason : (m.reason ?? null);
  const state = stateOf(status, reason, flip ? flip.reasonClass : m.reasonClass);
  // The state the flip left: a flip from no_data was a gap or an outage by the flip before it (none: a new metric's gap).
  const was = flip ? (flip.fromStatus === 'no_data' ? stateOf('no_data', flipBefore?.reason, flipBefore?.toStatus === 'no_data' ? flipBefore.reasonClass : 'measurement') : flip.fromStatus) : null;
  const at = (flip?.at ?? m.lastSampleAt ?? m.statusSince ?? ctx.now).toISOString();
  // Issue 25: the votes that confirmed the flip, quoted.
  const evidence = flip ? describeEvidence(flip.votes as { at: string; votes: Vote[] }[] | null, m.unit ?? null) : null;
  const measured = reason ? `${describeReason(reason).reason_label} (${reason})` : value !== null ? `value ${Number(value)}${m.unit ? ` ${m.unit}` : ''}` : 'no value';
  return createIncident(ctx, {
    title: `${service?.name ?? 'Service'}: ${m.name} ${WORDS[state] ?? state}`.slice(0, 300),
    severity: SEVERITY[state] ?? 'minor',
    affected_services: [m.service],
    initial_message: { type: 'Investigating', body: `${m.name} ${WORDS[state] ?? `is ${state}`} since ${at}${was ? ` (was ${WAS[was] ?? was})` : ''}: ${measured}.${evidence ? ` ${evidence}` : ''}` },
  });
}
