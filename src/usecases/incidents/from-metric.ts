import { MetricStatusFlipSchema, ServiceSchema } from '../../db/entities';
import { type Vote, describeEvidence } from '../../domain/confirmation';
import type { Severity } from '../../domain/incident-state';
import { type CustomerImpact, customerWording } from '../../domain/incident-wording';
import { effectiveStatus } from '../../domain/reason-class';
import { describeReason } from '../../domain/reason-codes';
import type { OrgContext } from '../shared/context';
import { getMetricRow } from '../metrics/metrics';
import { createIncident } from './incidents';
import { customerTimeZone } from './page-zone';
import type { IncidentView } from './view';

const SEVERITY: Record<string, Severity> = {
  unhealthy: 'major',
  down: 'major',
  degraded: 'minor',
  no_data: 'minor',
  healthy: 'minor',
};
const WORDS: Record<string, string> = {
  unhealthy: 'is unhealthy',
  down: 'is down',
  degraded: 'is degraded',
  no_data: 'reports no data',
  healthy: 'recovered',
};
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

/** What a draft from a metric holds: the customer's side (service, impact, since) and the engineers' (the evidence). */
export interface MetricDraft {
  serviceId: string;
  serviceName: string;
  impact: CustomerImpact;
  severity: Severity;
  since: Date;
  /** What was measured, the reason code, the votes and locations: for the internal note only. */
  evidence: string;
}

/**
 * The metric's latest status flip (or its current status when it never flipped), read for a draft:
 * severity from the state (a target that does not answer is down: major), and the evidence in the
 * engineers' words.
 */
export async function metricDraft(ctx: OrgContext, metricId: string): Promise<MetricDraft> {
  const m = await getMetricRow(ctx, metricId);
  const [flip, flipBefore] = await ctx.em.find(
    MetricStatusFlipSchema,
    { metric: m.id },
    { orderBy: { at: 'desc' }, limit: 2 },
  );
  const service = await ctx.em.findOne(ServiceSchema, m.service);
  const status = flip?.toStatus ?? m.status;
  const value = flip ? flip.value : (m.currentValue ?? null);
  const reason = flip ? flip.reason : (m.reason ?? null);
  const state = stateOf(status, reason, flip ? flip.reasonClass : m.reasonClass);
  // The state the flip left: a flip from no_data was a gap or an outage by the flip before it (none: a new metric's gap).
  const was = flip
    ? flip.fromStatus === 'no_data'
      ? stateOf(
          'no_data',
          flipBefore?.reason,
          flipBefore?.toStatus === 'no_data' ? flipBefore.reasonClass : 'measurement',
        )
      : flip.fromStatus
    : null;
  const since = flip?.at ?? m.lastSampleAt ?? m.statusSince ?? ctx.now;
  // The votes that confirmed the flip, quoted.
  const votes = flip ? describeEvidence(flip.votes as { at: string; votes: Vote[] }[] | null, m.unit ?? null) : null;
  const measured = reason
    ? `${describeReason(reason).reason_label} (${reason})`
    : value !== null
      ? `value ${Number(value)}${m.unit ? ` ${m.unit}` : ''}`
      : 'no value';
  return {
    serviceId: m.service,
    serviceName: service?.name ?? m.name,
    impact: state === 'degraded' ? 'degraded' : 'outage',
    severity: SEVERITY[state] ?? 'minor',
    since,
    evidence: `Metric ${m.name} (${m.id}) ${WORDS[state] ?? `is ${state}`} since ${since.toISOString()}${was ? ` (was ${WAS[was] ?? was})` : ''}: ${measured}.${votes ? ` ${votes}` : ''}`,
  };
}

/** A draft's title and first message in the customer's words, in the zone of the status page that shows the service. */
export async function customerDraft(
  ctx: OrgContext,
  d: Pick<MetricDraft, 'serviceId' | 'serviceName' | 'impact' | 'since'>,
): Promise<{ title: string; body: string }> {
  return customerWording({
    service: d.serviceName,
    impact: d.impact,
    since: d.since,
    now: ctx.now,
    timeZone: await customerTimeZone(ctx, d.serviceId),
  });
}

/**
 * A draft incident pre-filled from the metric's latest status flip: a title and first
 * Investigating message customers understand ("We are investigating problems with Checkout since
 * 23:23 CET."), the service as affected, and what was measured as the internal note, which no
 * public output shows. Published by hand, never by itself.
 */
export async function incidentFromMetric(
  ctx: OrgContext,
  metricId: string,
  context: string | null = null,
): Promise<IncidentView> {
  const d = await metricDraft(ctx, metricId);
  const words = await customerDraft(ctx, d);
  return createIncident(ctx, {
    title: words.title,
    severity: d.severity,
    affected_services: [d.serviceId],
    initial_message: { type: 'Investigating', body: words.body },
    // What drafted it (an alert), when something did, above what was measured.
    internal_note: context ? `${context}\n${d.evidence}` : d.evidence,
  });
}
