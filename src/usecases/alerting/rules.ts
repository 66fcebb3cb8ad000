import { randomUUID } from 'node:crypto';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import {
  AgentSchema,
  AlertRuleSchema,
  type AlertRule,
  EscalationPolicySchema,
  MetricSchema,
  ProbeLocationSchema,
  ServiceSchema,
  SloSchema,
  StatusPageSchema,
} from '../../db/entities';
import type { FieldError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { isLocationId } from '../../domain/locations';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { type AlertSeverity, type RuleKind, type RuleView, invalidFields, ruleView } from './views';

export interface RuleSettings {
  /** sla_review_overdue only: hours a statement may wait in review before the alert (1..720, default 24). */
  reminder_hours?: number;
}

export interface RuleInput {
  name: string;
  kind: RuleKind;
  subject_id?: string | null;
  include_degraded?: boolean;
  severity: AlertSeverity;
  escalation_policy_id: string;
  auto_resolve?: boolean;
  enabled?: boolean;
  settings?: RuleSettings;
}
export type RulePatch = Partial<Omit<RuleInput, 'kind'>>;

export const DEFAULT_REMINDER_HOURS = 24;

/** What each kind watches: its subject (null: every subject of the kind), or nothing. */
const SUBJECTS: Record<RuleKind, { required: boolean; none?: true; label: string }> = {
  metric_status: { required: true, label: 'metric' },
  service_status: { required: false, label: 'service' },
  status_page_status: { required: true, label: 'status page' },
  slo_burn: { required: false, label: 'SLO' },
  agent_offline: { required: false, label: 'agent' },
  heartbeat_missed: { required: false, label: 'heartbeat metric' },
  location_offline: { required: false, label: 'probe location' },
  sla_review_overdue: { required: false, none: true, label: '' },
};

/** Kinds that follow a health status, where `degraded` can count too. */
const STATUS_KINDS: readonly RuleKind[] = ['metric_status', 'service_status', 'status_page_status'];

async function liveInOrg(
  ctx: OrgContext,
  entity: EntityName<{ id: string }>,
  id: string,
  extra: Record<string, unknown> = { deletedAt: null },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await ctx.em.count(entity, { id, organization: ctx.org.id, ...extra } as FilterQuery<{ id: string }>)) > 0;
}

/** Whether `id` names a subject of `kind` the organization has (another organization's is simply not found). */
async function subjectExists(ctx: OrgContext, kind: RuleKind, id: string): Promise<boolean> {
  switch (kind) {
    case 'metric_status':
      return liveInOrg(ctx, MetricSchema as EntityName<{ id: string }>, id);
    case 'heartbeat_missed':
      return liveInOrg(ctx, MetricSchema as EntityName<{ id: string }>, id, {
        deletedAt: null,
        sourceType: 'heartbeat',
      });
    case 'service_status':
      return liveInOrg(ctx, ServiceSchema as EntityName<{ id: string }>, id);
    case 'status_page_status':
      return liveInOrg(ctx, StatusPageSchema as EntityName<{ id: string }>, id);
    case 'slo_burn':
      return liveInOrg(ctx, SloSchema as EntityName<{ id: string }>, id);
    case 'agent_offline':
      return liveInOrg(ctx, AgentSchema as EntityName<{ id: string }>, id, { revokedAt: null });
    case 'location_offline':
      // Cloud locations belong to the installation, not to an organization: one that has registered.
      return isLocationId(id) && (await ctx.em.count(ProbeLocationSchema, { id })) > 0;
    case 'sla_review_overdue':
      return false;
  }
}

/** Every cross-field and stored-data rule of a rule as it would be stored: or 400 naming each field. */
async function checkRule(
  ctx: OrgContext,
  r: {
    kind: RuleKind;
    subject_id: string | null;
    include_degraded: boolean;
    escalation_policy_id: string;
    settings: RuleSettings;
  },
): Promise<void> {
  const errors: FieldError[] = [];
  const subject = SUBJECTS[r.kind];
  if (subject.none && r.subject_id !== null)
    errors.push({ path: 'subject_id', message: `Must be null for kind ${r.kind}` });
  else if (subject.required && r.subject_id === null)
    errors.push({ path: 'subject_id', message: `Is required for kind ${r.kind}: the ${subject.label} to watch` });
  else if (r.subject_id !== null && !(await subjectExists(ctx, r.kind, r.subject_id)))
    errors.push({ path: 'subject_id', message: `No such ${subject.label} in this organization` });
  if (r.include_degraded && !STATUS_KINDS.includes(r.kind))
    errors.push({ path: 'include_degraded', message: `Only for kinds ${STATUS_KINDS.join(', ')}` });
  if (r.settings.reminder_hours !== undefined && r.kind !== 'sla_review_overdue')
    errors.push({ path: 'settings.reminder_hours', message: 'Only for kind sla_review_overdue' });
  if (!(await liveInOrg(ctx, EscalationPolicySchema as EntityName<{ id: string }>, r.escalation_policy_id))) {
    errors.push({ path: 'escalation_policy_id', message: 'No such escalation policy in this organization' });
  }
  if (errors.length) throw invalidFields(errors);
}

const storedSettings = (kind: RuleKind, settings: RuleSettings | undefined): RuleSettings =>
  kind === 'sla_review_overdue'
    ? { reminder_hours: settings?.reminder_hours ?? DEFAULT_REMINDER_HOURS }
    : { ...settings };

export async function createRule(ctx: OrgContext, input: RuleInput): Promise<RuleView> {
  const fields = {
    kind: input.kind,
    subject_id: input.subject_id ?? null,
    include_degraded: input.include_degraded ?? false,
    escalation_policy_id: input.escalation_policy_id,
    settings: input.settings ?? {},
  };
  await checkRule(ctx, fields);
  const r = ctx.em.create(AlertRuleSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    kind: input.kind,
    subjectId: fields.subject_id,
    includeDegraded: fields.include_degraded,
    severity: input.severity,
    escalationPolicy: input.escalation_policy_id,
    autoResolve: input.auto_resolve ?? true,
    settings: storedSettings(input.kind, input.settings),
    disabledAt: input.enabled === false ? ctx.now : null,
    deletedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return ruleView(r);
}

export async function getRule(ctx: OrgContext, id: string): Promise<RuleView> {
  return ruleView(await findLive(ctx, AlertRuleSchema, id, 'Alert rule'));
}

export async function listRules(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  const page = await listLive(ctx, AlertRuleSchema, query);
  return { items: page.items.map(ruleView), nextCursor: page.nextCursor };
}

/** Changes the fields sent (`settings` replaced whole); the kind cannot change. The result is checked again as a whole. */
export async function updateRule(ctx: OrgContext, id: string, patch: RulePatch): Promise<RuleView> {
  const r: AlertRule = await findLive(ctx, AlertRuleSchema, id, 'Alert rule');
  const kind = r.kind as RuleKind;
  const settings = patch.settings ?? r.settings;
  await checkRule(ctx, {
    kind,
    subject_id: patch.subject_id !== undefined ? patch.subject_id : (r.subjectId ?? null),
    include_degraded: patch.include_degraded ?? r.includeDegraded,
    escalation_policy_id: patch.escalation_policy_id ?? r.escalationPolicy,
    settings,
  });
  if (patch.name !== undefined) r.name = patch.name;
  if (patch.subject_id !== undefined) r.subjectId = patch.subject_id;
  if (patch.include_degraded !== undefined) r.includeDegraded = patch.include_degraded;
  if (patch.severity !== undefined) r.severity = patch.severity;
  if (patch.escalation_policy_id !== undefined) r.escalationPolicy = patch.escalation_policy_id;
  if (patch.auto_resolve !== undefined) r.autoResolve = patch.auto_resolve;
  if (patch.enabled !== undefined) r.disabledAt = patch.enabled ? null : (r.disabledAt ?? ctx.now);
  if (patch.settings !== undefined) r.settings = storedSettings(kind, settings) as Record<string, unknown>;
  r.updatedAt = ctx.now;
  await ctx.em.flush();
  return ruleView(r);
}

/** Soft delete, idempotent. Alerts it raised keep their history. */
export async function deleteRule(ctx: OrgContext, id: string): Promise<RuleView> {
  return ruleView(await softDelete(ctx, AlertRuleSchema, id, 'Alert rule'));
}
