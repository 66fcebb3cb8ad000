import { randomUUID } from 'node:crypto';
import { type Metric, AgentSchema, MetricSchema, ServiceSchema } from '../../db/entities';
import { recentSamples } from '../../db/repositories/samples-repository';
import { pageOf } from '../../domain/cursor';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { readingReasonClass } from '../../domain/reason-class';
import { validateSourceConfig } from '../../domain/source-config';
import { isPushSourceType, isPushedToVigil, runsInCloud, sourceTypeRow } from '../../domain/source-types';
import { HEALTH_STATUSES, type HealthStatus, THRESHOLD_OPERATIONS } from '../../domain/thresholds';
import { toIso } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import type { MetricScheduler } from './ports';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { findLive, softDelete } from '../shared/org-resources';
import { type InboundEndpoint, hashToken, inboundEndpoint, inboundToken } from './inbound';
import { type MetricView, locationReadingsView, metricView, pendingConfirmationView } from './view';
import {
  AGENT_LOCATION_PREFIX,
  type Confirmation,
  DEFAULT_CONFIRMATION,
  LOCATION_ID_PATTERN,
  agentLocationId,
  confirmationProblems,
  isAgentLocation,
} from '../../domain/confirmation';
import { locationDirectory, registeredLocationIds } from '../../db/repositories/metric-location-repository';
import { assertNotReferenced } from '../shared/in-use';
import { assertWritable, reserveQuota } from '../shared/plan-limits';
import { validateAlertSourceConfig } from '../../domain/inbound-alerts/source-config';
import { syncManualMetrics } from './manual';

export interface MetricInput {
  service_id: string;
  name: string;
  source_type: string;
  source_config: Record<string, unknown>;
  thresholds?: Record<string, unknown> | null;
  interval_seconds?: number;
  agent_id?: string | null;
  unit?: string | null;
  /** Location ids (or objects with one, as GET answers them); null: the default. */
  locations?: readonly (string | { id: string })[] | null;
  confirmation?: Partial<Confirmation> | null;
}

export type MetricPatch = Partial<Omit<MetricInput, 'source_type'>> & {
  /** Pause (true) or resume (false) the metric. */
  paused?: boolean;
};

function invalid(errors: FieldError[]): ProblemError {
  return new ProblemError('validation_failed', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
}

function thresholdErrors(sourceType: string, t: Record<string, unknown> | null | undefined): FieldError[] {
  // Types whose value maps to a status without thresholds (alert scores 0/1/2, manual is set by hand) refuse them.
  if (sourceTypeRow(sourceType)?.thresholds === 'refused') {
    return t ? [{ path: 'thresholds', message: `${sourceType} metrics take no thresholds` }] : [];
  }
  // An HTTP check may go without them: it is then an up/down check (domain/thresholds.ts readingStatus).
  if (!t)
    return sourceTypeRow(sourceType)?.thresholds === 'optional'
      ? []
      : [
          {
            path: 'thresholds',
            message: 'Required: healthy_operation, healthy_value, unhealthy_operation and unhealthy_value',
          },
        ];
  const errors: FieldError[] = [];
  for (const k of ['healthy_operation', 'unhealthy_operation']) {
    if (!(THRESHOLD_OPERATIONS as readonly unknown[]).includes(t[k]))
      errors.push({ path: `thresholds.${k}`, message: 'Expected over, under or equal' });
  }
  for (const k of ['healthy_value', 'unhealthy_value']) {
    if (typeof t[k] !== 'number' || !Number.isFinite(t[k]))
      errors.push({ path: `thresholds.${k}`, message: 'Expected a finite number' });
  }
  for (const k of Object.keys(t))
    if (!['healthy_operation', 'healthy_value', 'unhealthy_operation', 'unhealthy_value'].includes(k))
      errors.push({ path: `thresholds.${k}`, message: 'Unknown field' });
  return errors;
}

/**
 * What a metric's type, source_config and thresholds say on their own (no lookups): the problems
 * with their paths, and the source_config as stored (defaults applied) when it is valid.
 */
export function definitionErrors(
  sourceType: string,
  sourceConfig: Record<string, unknown>,
  thresholds: Record<string, unknown> | null | undefined,
): { errors: FieldError[]; config: Record<string, unknown> | null } {
  const errors: FieldError[] = [];
  if (!sourceTypeRow(sourceType)) errors.push({ path: 'source_type', message: 'Unknown source type' });
  const config = validateSourceConfig(sourceType, sourceConfig);
  if (!config.ok) errors.push(...config.errors);
  if (sourceType === 'alert') {
    const alertOptions = validateAlertSourceConfig(sourceConfig);
    if (!alertOptions.ok) errors.push(...alertOptions.errors);
  }
  errors.push(...thresholdErrors(sourceType, thresholds));
  return { errors, config: config.ok ? config.config : null };
}

/** Why a metric of this type cannot run where it is placed (with or without an agent), or null when it can. */
export function placementProblem(sourceType: string, hasAgent: boolean): string | null {
  const row = sourceTypeRow(sourceType);
  if (row && isPushedToVigil(row))
    return hasAgent ? `${sourceType} metrics are pushed to Vigil, not run by an agent` : null;
  // Without an agent only the cloud prober's types can run (an unknown type is refused here too).
  if (!hasAgent && (!row || row.agentOnly)) return `${sourceType} metrics run on an agent: pass agent_id`;
  return null;
}

/** Checks a metric's definition as a whole; `agent` is the resolved agent (null: cloud or push). */
async function check(
  ctx: OrgContext,
  sourceType: string,
  input: Pick<MetricInput, 'service_id' | 'source_config' | 'thresholds' | 'agent_id'> & {
    locations: string[] | null;
    confirmation: Confirmation | null;
    confirmationGiven?: boolean;
  },
): Promise<Record<string, unknown>> {
  const { errors, config } = definitionErrors(sourceType, input.source_config, input.thresholds);
  const service = isUuid(input.service_id)
    ? await ctx.em.findOne(ServiceSchema, { id: input.service_id, organization: ctx.org.id, deletedAt: null })
    : null;
  if (!service) errors.push({ path: 'service_id', message: 'No such service in this organization' });
  const placement = placementProblem(sourceType, !!input.agent_id);
  if (placement) errors.push({ path: 'agent_id', message: placement });
  else if (input.agent_id) {
    const agent = isUuid(input.agent_id)
      ? await ctx.em.findOne(AgentSchema, { id: input.agent_id, organization: ctx.org.id })
      : null;
    if (!agent) errors.push({ path: 'agent_id', message: 'No such agent in this organization' });
    else if (agent.revokedAt) errors.push({ path: 'agent_id', message: 'The agent is revoked' });
  }
  errors.push(...(await locationErrors(ctx, sourceType, input)));
  if (errors.length) throw invalid(errors);
  return config ?? {};
}

/** The ids of `locations` as sent (a string, or an object with `id`). */
export function locationIds(locations: MetricInput['locations']): string[] | null | undefined {
  if (locations === undefined || locations === null) return locations;
  return locations.map((l) => (typeof l === 'string' ? l : l.id));
}

/** The confirmation a metric stores: none for pushed metrics; given fields over `base`. */
export function resolveConfirmation(
  sourceType: string,
  given: Partial<Confirmation> | null | undefined,
  base: Confirmation | null,
): Confirmation | null {
  if (isPushSourceType(sourceType)) return null;
  return { ...(base ?? DEFAULT_CONFIRMATION), ...(given ?? {}) };
}

/** Which locations may measure the metric, and a confirmation its locations can meet. */
async function locationErrors(
  ctx: OrgContext,
  sourceType: string,
  input: {
    agent_id?: string | null;
    locations: string[] | null;
    confirmation: Confirmation | null;
    confirmationGiven?: boolean;
  },
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const locations = input.locations;
  if (isPushSourceType(sourceType)) {
    if (locations?.length)
      errors.push({
        path: 'locations',
        message: `${sourceType} metrics are pushed to Vigil: no location measures them`,
      });
    if (input.confirmationGiven)
      errors.push({
        path: 'confirmation',
        message: `${sourceType} metrics are pushed to Vigil: their status counts as sent, no location votes on it`,
      });
    return errors;
  }
  if (!locations) return errors;
  if (!locations.length)
    errors.push({ path: 'locations', message: 'Name at least one location, or null for the default' });
  const seen = new Set<string>();
  const cloud: { id: string; i: number }[] = [];
  const agents: { id: string; i: number }[] = [];
  locations.forEach((id, i) => {
    if (seen.has(id)) errors.push({ path: `locations[${i}]`, message: `${id} is listed twice` });
    seen.add(id);
    if (isAgentLocation(id)) agents.push({ id: id.slice(AGENT_LOCATION_PREFIX.length), i });
    else if (!LOCATION_ID_PATTERN.test(id))
      errors.push({
        path: `locations[${i}]`,
        message: 'Expected a location id (lower-case letters, digits, dashes) or agent:<agent id>',
      });
    else cloud.push({ id, i });
  });
  if (input.agent_id) {
    // An agent metric reaches what only its agent can: it is measured there alone.
    const own = agentLocationId(input.agent_id);
    locations.forEach((id, i) => {
      if (id !== own)
        errors.push({
          path: `locations[${i}]`,
          message: `An agent metric is measured by its agent (${own}); to measure a public target from cloud locations and agents together, leave agent_id null and list the agents here`,
        });
    });
    return errors;
  }
  const known = await registeredLocationIds(
    ctx.em,
    cloud.map((c) => c.id),
  );
  for (const c of cloud)
    if (!known.has(c.id))
      errors.push({
        path: `locations[${c.i}]`,
        message: `No location ${c.id} has registered (GET /v1/locations lists them)`,
      });
  for (const a of agents) {
    const agent = isUuid(a.id) ? await ctx.em.findOne(AgentSchema, { id: a.id, organization: ctx.org.id }) : null;
    if (!agent) errors.push({ path: `locations[${a.i}]`, message: 'No such agent in this organization' });
    else if (agent.revokedAt) errors.push({ path: `locations[${a.i}]`, message: 'The agent is revoked' });
  }
  if (agents.length && !cloud.length)
    errors.push({
      path: 'locations',
      message: 'A cloud metric measured only by agents: name a cloud location too, or give the metric an agent_id',
    });
  if (input.confirmation)
    for (const p of confirmationProblems(input.confirmation, locations.length))
      errors.push({ path: `confirmation.${p.path}`, message: p.message });
  return errors;
}

export interface MetricPorts {
  scheduler: MetricScheduler;
}

/**
 * Cloud metrics run from a Temporal Schedule, kept in step with the committed row after every
 * change (a failed sync is mended by the metric's next change; a schedule left behind by a
 * deleted metric only skips, as a deleted metric is never probed).
 */
export async function syncSchedule(
  ctx: OrgContext,
  ports: MetricPorts,
  m: Metric,
  opts: { created?: boolean } = {},
): Promise<void> {
  try {
    await ports.scheduler.sync({
      id: m.id,
      organization: m.organization,
      name: m.name,
      intervalSeconds: m.intervalSeconds,
      cloud: runsInCloud(m.sourceType, m.agent) && !m.pausedAt,
      deleted: !!m.deletedAt,
      created: opts.created,
    });
  } catch (err) {
    ctx.log?.error({ err, metric_id: m.id }, 'could not update the metric schedule');
  }
}

/** Creates a metric (within the plan's quota), then its cloud schedule. */
export async function createMetric(
  ctx: OrgContext,
  ports: MetricPorts,
  input: MetricInput,
): Promise<{ view: MetricView; inbound: InboundEndpoint | null }> {
  const { metric, view, token } = await insertMetric(ctx, input);
  await syncSchedule(ctx, ports, metric, { created: true });
  return { view, inbound: token ? inboundEndpoint(metric.sourceType, token) : null };
}

async function insertMetric(
  ctx: OrgContext,
  input: MetricInput,
): Promise<{ view: MetricView; metric: Metric; token: string | null }> {
  const locations = locationIds(input.locations) ?? null;
  const confirmation = resolveConfirmation(input.source_type, input.confirmation, null);
  const config = await check(ctx, input.source_type, {
    ...input,
    locations,
    confirmation,
    confirmationGiven: !!input.confirmation,
  });
  const token = inboundToken(input.source_type);
  return ctx.em.transactional(async (em) => {
    await reserveQuota(ctx, em, 'metrics');
    const m = em.create(MetricSchema, {
      id: randomUUID(),
      organization: ctx.org.id,
      service: input.service_id,
      name: input.name,
      sourceType: input.source_type,
      sourceConfig: config,
      thresholds: input.thresholds ?? null,
      intervalSeconds: input.interval_seconds ?? 60,
      // An empty agent_id is no agent, as check() reads it.
      agent: input.agent_id || null,
      unit: input.unit ?? null,
      status: 'no_data',
      currentValue: null,
      reason: null,
      lastSampleAt: null,
      statusSince: ctx.now,
      manualStatus: null,
      inboundTokenHash: token ? hashToken(token) : null,
      pushState: input.source_type === 'heartbeat' ? { last_ping_at: null } : null,
      locations,
      confirmation,
      pausedAt: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      deletedAt: null,
    });
    await em.flush();
    return { view: metricView(m), metric: m, token };
  });
}

export async function getMetricRow(ctx: OrgContext, id: string): Promise<Metric> {
  return findLive(ctx, MetricSchema, id, 'Metric');
}

/** The metric with its latest samples (newest first). */
export async function getMetric(ctx: OrgContext, id: string, historyLimit = 60) {
  const m = await getMetricRow(ctx, id);
  const history = await recentSamples(ctx.em, m.id, historyLimit);
  const ids = [...new Set([...(m.locations ?? []), ...Object.keys(m.locationReadings ?? {})])];
  const directory = await locationDirectory(ctx.em, ctx.org.id, ids, ctx.now);
  return {
    ...metricView(m),
    location_readings: locationReadingsView(m, ctx.now, directory),
    confirmation_pending: pendingConfirmationView(m),
    history: history.map((h) => ({
      sampled_at: toIso(new Date(h.sampled_at)),
      value: h.status === 'no_data' || h.value === null ? null : Number(h.value),
      status: h.status as HealthStatus,
      reason: h.reason,
      reason_class: h.status === 'no_data' ? (h.reason_class ?? readingReasonClass(h.status, h.reason)) : null,
    })),
  };
}

export async function listMetrics(
  ctx: OrgContext,
  q: { limit: number; cursor?: string; service_id?: string; status?: string; agent_id?: string },
) {
  const rows = await ctx.em.find(
    MetricSchema,
    {
      organization: ctx.org.id,
      deletedAt: null,
      ...(q.service_id ? { service: q.service_id } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.agent_id ? { agent: q.agent_id } : {}),
      ...afterCursor(q.cursor),
    },
    { orderBy: NEWEST_FIRST, limit: q.limit + 1 },
  );
  const page = pageOf(rows, q.limit);
  return { items: page.items.map(metricView), nextCursor: page.nextCursor };
}

/** Changes only the fields sent; the agent picks the change up at once, a cloud schedule follows. */
export async function updateMetric(
  ctx: OrgContext,
  ports: MetricPorts,
  id: string,
  patch: MetricPatch,
): Promise<MetricView> {
  const m = await patchMetric(ctx, id, patch);
  await syncSchedule(ctx, ports, m);
  return metricView(m);
}

async function patchMetric(ctx: OrgContext, id: string, patch: MetricPatch): Promise<Metric> {
  const m = await getMetricRow(ctx, id);
  await assertWritable(ctx, 'metrics', m);
  // Pausing or resuming alone changes nothing the checks below judge.
  if (Object.keys(patch).every((k) => k === 'paused')) {
    if (patch.paused !== undefined) setPaused(m, patch.paused, ctx.now);
    await ctx.em.flush();
    return m;
  }
  const next = {
    service_id: patch.service_id ?? m.service,
    source_config: patch.source_config ?? m.sourceConfig,
    thresholds: patch.thresholds !== undefined ? patch.thresholds : (m.thresholds ?? null),
    agent_id: patch.agent_id !== undefined ? patch.agent_id : (m.agent ?? null),
    locations: patch.locations !== undefined ? (locationIds(patch.locations) ?? null) : (m.locations ?? null),
    // null resets to the defaults; given fields change only themselves.
    confirmation:
      patch.confirmation === null
        ? resolveConfirmation(m.sourceType, null, null)
        : resolveConfirmation(m.sourceType, patch.confirmation, m.confirmation ?? null),
  };
  // Moving to an agent (or back to the cloud) leaves locations the other kind named behind.
  if (patch.agent_id !== undefined && patch.locations === undefined && (patch.agent_id || null) !== (m.agent ?? null))
    next.locations = null;
  const config = await check(ctx, m.sourceType, { ...next, confirmationGiven: !!patch.confirmation });
  m.service = next.service_id;
  m.sourceConfig = config;
  m.thresholds = next.thresholds;
  m.agent = next.agent_id || null;
  m.locations = next.locations;
  m.confirmation = next.confirmation;
  if (patch.name !== undefined) m.name = patch.name;
  if (patch.interval_seconds !== undefined) m.intervalSeconds = patch.interval_seconds;
  if (patch.unit !== undefined) m.unit = patch.unit;
  // Pausing again keeps the first pause's time.
  if (patch.paused !== undefined) setPaused(m, patch.paused, ctx.now);
  m.updatedAt = ctx.now;
  await ctx.em.flush();
  return m;
}

/** Pausing again keeps the first pause's time. */
function setPaused(m: Metric, paused: boolean, now: Date): void {
  m.pausedAt = paused ? (m.pausedAt ?? now) : null;
  m.updatedAt = now;
}

/** Soft delete (409 in_use while an SLO or a page uses the metric); its cloud schedule goes with it. */
export async function deleteMetric(ctx: OrgContext, ports: MetricPorts, id: string): Promise<MetricView> {
  const m = isUuid(id) ? await ctx.em.findOne(MetricSchema, { id, organization: ctx.org.id }) : null;
  if (m && !m.deletedAt) await assertNotReferenced(ctx, { metricIds: [m.id] }, 'metric');
  const deleted = await softDelete(ctx, MetricSchema, id, 'Metric');
  await syncSchedule(ctx, ports, deleted);
  return metricView(deleted);
}

/** Manual metrics: the status set by hand (it holds until changed). */
export async function assertManual(ctx: OrgContext, id: string): Promise<Metric> {
  const m = await getMetricRow(ctx, id);
  if (m.sourceType !== 'manual')
    throw new ProblemError('validation_failed', 'Only manual metrics take a status by hand.', {
      errors: [{ path: 'params.id', message: 'Not a manual metric' }],
    });
  return m;
}

export const MANUAL_STATUSES = HEALTH_STATUSES.filter((s) => s !== 'no_data');

/** Sets a manual metric's status by hand; what it shows also weighs the open incidents of its service. */
export async function setManualStatus(ctx: OrgContext, id: string, status: HealthStatus): Promise<MetricView> {
  const m = await assertManual(ctx, id);
  m.manualStatus = status;
  m.updatedAt = ctx.now;
  await ctx.em.flush();
  await syncManualMetrics(ctx.em.fork(), ctx.org.id, ctx.now, { metricIds: [m.id] });
  return metricView(await getMetricRow({ ...ctx, em: ctx.em.fork() }, m.id));
}
