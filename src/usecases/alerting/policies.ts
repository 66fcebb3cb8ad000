import { randomUUID } from 'node:crypto';
import {
  AlertRuleSchema,
  ConsoleUserSchema,
  EscalationPolicySchema,
  NotificationChannelSchema,
  OnCallScheduleSchema,
} from '../../db/entities';
import { type EscalationPolicy as PolicySpec, validateEscalationPolicy } from '../../domain/alerting/escalation';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { type PolicyView, apiPath, invalidFields, policyView } from './views';

export interface PolicyInput {
  name: string;
  levels: unknown;
  repeat?: number;
}
export type PolicyPatch = Partial<PolicyInput>;

/** Field errors for the emails that name no enabled console user of the organization. */
export async function consoleUserErrors(
  ctx: OrgContext,
  refs: { email: string; path: string }[],
): Promise<FieldError[]> {
  if (!refs.length) return [];
  const emails = [...new Set(refs.map((r) => r.email.toLowerCase()))];
  const users = await ctx.em.find(
    ConsoleUserSchema,
    { organization: ctx.org.id, email: { $in: emails }, disabledAt: null },
    { fields: ['email'] },
  );
  const known = new Set(users.map((u) => u.email));
  return refs
    .filter((r) => !known.has(r.email.toLowerCase()))
    .map((r) => ({ path: r.path, message: 'Not a console user of this organization' }));
}

/** The ids among `ids` that name a live record of the organization. */
async function liveIds(
  ctx: OrgContext,
  entity: typeof NotificationChannelSchema | typeof OnCallScheduleSchema,
  ids: string[],
): Promise<Set<string>> {
  const wellFormed = [...new Set(ids.filter(isUuid))];
  if (!wellFormed.length) return new Set();
  const rows = await ctx.em.find(
    entity as typeof NotificationChannelSchema,
    { id: { $in: wellFormed }, organization: ctx.org.id, deletedAt: null },
    { fields: ['id'] },
  );
  return new Set(rows.map((r) => r.id));
}

/** Validated (escalation.ts), user emails lower-cased, and every target found in the organization: or 400 naming each field. */
async function checkedPolicy(ctx: OrgContext, input: { levels: unknown; repeat?: number }): Promise<PolicySpec> {
  const v = validateEscalationPolicy({
    levels: input.levels,
    ...(input.repeat !== undefined ? { repeat: input.repeat } : {}),
  });
  if (!v.ok) throw invalidFields(v.errors.map((e) => ({ path: apiPath(e.path), message: e.message })));
  const policy: PolicySpec = {
    repeat: v.value.repeat,
    levels: v.value.levels.map((l) => ({
      delay_minutes: l.delay_minutes,
      targets: l.targets.map((t) => (t.type === 'user' ? { type: 'user', email: t.email.toLowerCase() } : t)),
    })),
  };
  const located = policy.levels.flatMap((l, li) =>
    l.targets.map((t, ti) => ({ t, path: `levels.${li}.targets.${ti}` })),
  );
  const idsOf = (type: 'channel' | 'schedule') => located.flatMap(({ t }) => (t.type === type ? [t.id] : []));
  const channels = await liveIds(ctx, NotificationChannelSchema, idsOf('channel'));
  const schedules = await liveIds(ctx, OnCallScheduleSchema, idsOf('schedule'));
  const errors: FieldError[] = [];
  for (const { t, path } of located) {
    if (t.type === 'channel' && !channels.has(t.id))
      errors.push({ path: `${path}.id`, message: 'No such notification channel in this organization' });
    if (t.type === 'schedule' && !schedules.has(t.id))
      errors.push({ path: `${path}.id`, message: 'No such on-call schedule in this organization' });
  }
  errors.push(
    ...(await consoleUserErrors(
      ctx,
      located.flatMap(({ t, path }) => (t.type === 'user' ? [{ email: t.email, path: `${path}.email` }] : [])),
    )),
  );
  if (errors.length) throw invalidFields(errors);
  return policy;
}

/** Live policies of the organization that name the channel (or schedule) as a target. */
export async function policiesTargeting(ctx: OrgContext, target: { type: 'channel' | 'schedule'; id: string }) {
  const policies = await ctx.em.find(EscalationPolicySchema, { organization: ctx.org.id, deletedAt: null });
  return policies.filter((p) =>
    (p.levels as { targets?: { type?: string; id?: string }[] }[]).some((level) =>
      level.targets?.some((t) => t.type === target.type && t.id === target.id),
    ),
  );
}

/** 409 in_use naming the live escalation policies that still target it. */
export function inUseByPolicies(what: string, policies: { id: string; name: string }[]): ProblemError {
  return new ProblemError(
    'in_use',
    `The ${what} is a target of ${policies.length} escalation polic${policies.length > 1 ? 'ies' : 'y'}; remove it from them first.`,
    {
      referenced_by: {
        slos: [],
        pages: [],
        subscribers: 0,
        escalation_policies: policies.map((p) => ({ id: p.id, config_key: null, name: p.name })),
      },
    },
  );
}

export async function createPolicy(ctx: OrgContext, input: PolicyInput): Promise<PolicyView> {
  const spec = await checkedPolicy(ctx, input);
  const p = ctx.em.create(EscalationPolicySchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    levels: spec.levels,
    repeat: spec.repeat,
    deletedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return policyView(p);
}

export async function getPolicy(ctx: OrgContext, id: string): Promise<PolicyView> {
  return policyView(await findLive(ctx, EscalationPolicySchema, id, 'Escalation policy'));
}

export async function listPolicies(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  const page = await listLive(ctx, EscalationPolicySchema, query);
  return { items: page.items.map(policyView), nextCursor: page.nextCursor };
}

/** Changes the fields sent; `levels` is replaced whole, and the result is checked again as a whole. */
export async function updatePolicy(ctx: OrgContext, id: string, patch: PolicyPatch): Promise<PolicyView> {
  const p = await findLive(ctx, EscalationPolicySchema, id, 'Escalation policy');
  if (patch.levels !== undefined || patch.repeat !== undefined) {
    const spec = await checkedPolicy(ctx, { levels: patch.levels ?? p.levels, repeat: patch.repeat ?? p.repeat });
    p.levels = spec.levels;
    p.repeat = spec.repeat;
  }
  if (patch.name !== undefined) p.name = patch.name;
  p.updatedAt = ctx.now;
  await ctx.em.flush();
  return policyView(p);
}

/** Soft delete, idempotent; refused (409 in_use) while a live alert rule (enabled or not) escalates by it. */
export async function deletePolicy(ctx: OrgContext, id: string): Promise<PolicyView> {
  if (isUuid(id)) {
    const rules = await ctx.em.find(
      AlertRuleSchema,
      { organization: ctx.org.id, escalationPolicy: id, deletedAt: null },
      { orderBy: { createdAt: 'asc' } },
    );
    const live = rules.length
      ? await ctx.em.findOne(EscalationPolicySchema, { id, organization: ctx.org.id, deletedAt: null })
      : null;
    if (live) {
      throw new ProblemError(
        'in_use',
        `The escalation policy is used by ${rules.length} alert rule${rules.length > 1 ? 's' : ''}; give them another policy or delete them first.`,
        {
          referenced_by: {
            slos: [],
            pages: [],
            subscribers: 0,
            alert_rules: rules.map((r) => ({ id: r.id, config_key: null, name: r.name })),
          },
        },
      );
    }
  }
  return policyView(await softDelete(ctx, EscalationPolicySchema, id, 'Escalation policy'));
}
