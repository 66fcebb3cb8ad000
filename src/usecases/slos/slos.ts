import { randomUUID } from 'node:crypto';
import { MetricSchema, ServiceSchema, type Slo, SloSchema } from '../../db/entities';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { type SloPolicy, type SloResult, computeSlo, countVerdicts, validateSloPolicy } from '../../domain/slo';
import { type StatusChange, worstOfTimelines } from '../../domain/status-timeline';
import { toIso, toIsoOrNull } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import { guardConfigKey } from '../shared/config-keys';
import { assertNotReferenced } from '../shared/in-use';
import { metricTimelines, serviceMaintenanceIntervals } from '../metrics/timelines';
import { findLive, listLive, softDelete } from '../shared/org-resources';

export interface SloInput {
  name: string;
  config_key?: string | null;
  metric_id?: string | null;
  service_id?: string | null;
  objective: string;
  window: SloPolicy['window'];
  no_data?: SloPolicy['no_data'];
  maintenance?: SloPolicy['maintenance'];
  degraded?: 'good' | 'bad';
}

export type SloPatch = Partial<Omit<SloInput, 'metric_id' | 'service_id'>>;

const policyOf = (s: Slo): SloPolicy => ({
  objective: s.objective,
  window: s.window as SloPolicy['window'],
  no_data: s.noData as SloPolicy['no_data'],
  maintenance: s.maintenance as SloPolicy['maintenance'],
  degraded: s.degraded as 'good' | 'bad',
});

/** Throws validation_failed (with the field's path) when the policy is not one Vigil can count. */
export function checkPolicy(policy: SloPolicy): void {
  try {
    validateSloPolicy(policy);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const path = /timezone|zone/i.test(message)
      ? 'window.timezone'
      : /objective/i.test(message)
        ? 'objective'
        : /days/i.test(message)
          ? 'window.days'
          : 'window';
    throw new ProblemError('validation_failed', message, { errors: [{ path, message }] });
  }
}

async function checkTarget(ctx: OrgContext, input: Pick<SloInput, 'metric_id' | 'service_id'>): Promise<void> {
  const errors: FieldError[] = [];
  if (!!input.metric_id === !!input.service_id)
    errors.push({ path: 'metric_id', message: 'Give exactly one of metric_id and service_id' });
  else if (
    input.metric_id &&
    !(
      isUuid(input.metric_id) &&
      (await ctx.em.findOne(MetricSchema, { id: input.metric_id, organization: ctx.org.id, deletedAt: null }))
    )
  ) {
    errors.push({ path: 'metric_id', message: 'No such metric in this organization' });
  } else if (input.service_id) {
    try {
      await findLive(ctx, ServiceSchema, input.service_id, 'Service');
    } catch {
      errors.push({ path: 'service_id', message: 'No such service in this organization' });
    }
  }
  if (errors.length) throw new ProblemError('validation_failed', errors[0]!.message, { errors });
}

export async function createSlo(ctx: OrgContext, input: SloInput) {
  await checkTarget(ctx, input);
  const policy: SloPolicy = {
    objective: input.objective,
    window: input.window,
    no_data: input.no_data ?? 'excluded',
    maintenance: input.maintenance ?? 'excluded',
    degraded: input.degraded ?? 'good',
  };
  checkPolicy(policy);
  const s = ctx.em.create(SloSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    configKey: input.config_key ?? null,
    metric: input.metric_id ?? null,
    service: input.service_id ?? null,
    objective: policy.objective,
    window: policy.window,
    noData: policy.no_data,
    maintenance: policy.maintenance,
    degraded: policy.degraded ?? 'good',
    createdAt: ctx.now,
    updatedAt: ctx.now,
    deletedAt: null,
  });
  await guardConfigKey('SLO', input.config_key, () => ctx.em.flush());
  return sloView(ctx, s);
}

export async function updateSlo(ctx: OrgContext, id: string, patch: SloPatch) {
  const s = await findLive(ctx, SloSchema, id, 'SLO');
  if (patch.name !== undefined) s.name = patch.name;
  if (patch.config_key !== undefined) s.configKey = patch.config_key;
  const policy = {
    ...policyOf(s),
    ...(patch.objective !== undefined ? { objective: patch.objective } : {}),
    ...(patch.window ? { window: patch.window } : {}),
    ...(patch.no_data ? { no_data: patch.no_data } : {}),
    ...(patch.maintenance ? { maintenance: patch.maintenance } : {}),
    ...(patch.degraded ? { degraded: patch.degraded } : {}),
  };
  checkPolicy(policy);
  s.objective = policy.objective;
  s.window = policy.window;
  s.noData = policy.no_data;
  s.maintenance = policy.maintenance;
  s.degraded = policy.degraded ?? 'good';
  s.updatedAt = ctx.now;
  await guardConfigKey('SLO', patch.config_key, () => ctx.em.flush());
  return sloView(ctx, s);
}

export async function getSlo(ctx: OrgContext, id: string) {
  return sloView(ctx, await findLive(ctx, SloSchema, id, 'SLO'));
}

export async function listSlos(ctx: OrgContext, q: { limit: number; cursor?: string }) {
  const page = await listLive(ctx, SloSchema, q);
  return { items: await Promise.all(page.items.map((s) => sloView(ctx, s))), nextCursor: page.nextCursor };
}

export async function deleteSlo(ctx: OrgContext, id: string) {
  const live = await ctx.em.findOne(
    SloSchema,
    { id: isUuid(id) ? id : '00000000-0000-0000-0000-000000000000', organization: ctx.org.id, deletedAt: null },
    { fields: ['id'] },
  );
  if (live) await assertNotReferenced(ctx, { sloIds: [live.id] }, 'SLO');
  const s = await softDelete(ctx, SloSchema, id, 'SLO');
  return { ...base(s), attainment: null };
}

/** What reading an SLO's attainment needs: no plan, so public pages can show it too. */
export type SloReadContext = Pick<OrgContext, 'em' | 'now'> & { org: { id: string } };

/** The status timeline the SLO counts: its metric's, or the worst of its service's metrics at each instant. */
async function timelineOf(ctx: SloReadContext, s: Slo, from: Date): Promise<StatusChange[]> {
  const metrics = await ctx.em.find(
    MetricSchema,
    s.metric ? { id: s.metric } : { service: s.service!, organization: ctx.org.id, deletedAt: null },
  );
  const timelines = await metricTimelines(ctx.em, metrics, from);
  if (s.metric) return timelines.get(s.metric) ?? [];
  return worstOfTimelines([...timelines.values()]);
}

function base(s: Slo) {
  return {
    id: s.id,
    name: s.name,
    config_key: s.configKey ?? null,
    metric_id: s.metric ?? null,
    service_id: s.service ?? null,
    objective: s.objective,
    window: s.window as SloPolicy['window'],
    no_data: s.noData as SloPolicy['no_data'],
    maintenance: s.maintenance as SloPolicy['maintenance'],
    degraded: s.degraded as 'good' | 'bad',
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
    deleted_at: toIsoOrNull(s.deletedAt),
  };
}

/** The SLO with its attainment now, computed from the stored status history. */
export async function sloView(ctx: SloReadContext, s: Slo) {
  const policy = policyOf(s);
  // A window never reaches back further than 400 days; read flips from there.
  const from = new Date(ctx.now.getTime() - 400 * 86_400_000);
  const timeline = await timelineOf(ctx, s, from);
  const serviceId = s.service ?? (s.metric ? (await ctx.em.findOne(MetricSchema, s.metric))?.service : null);
  const maintenances = serviceId ? await serviceMaintenanceIntervals(ctx.em, ctx.org.id, serviceId, ctx.now) : [];
  const r: SloResult = computeSlo(timeline, maintenances, policy, ctx.now.getTime());
  return {
    ...base(s),
    attainment: {
      period_start: toIso(new Date(r.period_start)),
      period_end: toIso(new Date(r.period_end)),
      period_label: r.period_label,
      attainment: r.attainment,
      met: r.met,
      good_ms: r.good_ms,
      bad_ms: r.bad_ms,
      excluded_ms: r.excluded_ms,
      error_budget_total_ms: r.error_budget_total_ms,
      error_budget_remaining_ms: r.error_budget_remaining_ms,
      error_budget_remaining_pct: r.error_budget_remaining_pct,
      burn_rate: r.burn_rate,
    },
  };
}

/**
 * The SLO's bad and counted minutes over each of the given windows ending now (the
 * same counting rules as its attainment), for multi-window burn-rate alerting.
 */
export async function sloWindowMeasurements(
  ctx: SloReadContext,
  s: Slo,
  windowsMinutes: readonly number[],
): Promise<{ minutes: number; bad: number; total: number }[]> {
  const longest = Math.max(...windowsMinutes);
  const from = new Date(ctx.now.getTime() - longest * 60_000);
  const timeline = await timelineOf(ctx, s, from);
  const serviceId = s.service ?? (s.metric ? (await ctx.em.findOne(MetricSchema, s.metric))?.service : null);
  const maintenances = serviceId ? await serviceMaintenanceIntervals(ctx.em, ctx.org.id, serviceId, ctx.now) : [];
  const policy = policyOf(s);
  return windowsMinutes.map((minutes) => {
    const v = countVerdicts(timeline, maintenances, policy, ctx.now.getTime() - minutes * 60_000, ctx.now.getTime());
    return { minutes, bad: v.bad / 60_000, total: (v.good + v.bad) / 60_000 };
  });
}
