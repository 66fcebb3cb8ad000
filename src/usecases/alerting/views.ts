import type {
  Alert,
  AlertRule,
  AlertTimelineEntry,
  EscalationPolicy,
  NotificationAttempt,
  NotificationChannel,
  NotificationSend,
  OnCallSchedule,
  Silence,
} from '../../db/entities';
import type { EscalationLevel } from '../../domain/alerting/escalation';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import type { ScheduleLayer, ScheduleOverride } from '../../domain/on-call/schedule';
import { attemptViews } from '../shared/attempt-views';
import { toIso, toIsoOrNull } from '../../domain/time';

/** What the alerting configuration API shows, and the names its inputs share. */

// One list of channel types: the domain's.
export { CHANNEL_TYPES, type ChannelType } from '../../domain/alerting/channel-types';
import type { ChannelType } from '../../domain/alerting/channel-types';

// One list of rule kinds and severities: the domain's (the workflow and the sweep read the same).
export { ALERT_RULE_KINDS as RULE_KINDS, ALERT_SEVERITIES } from '../../domain/alerting/rule-kinds';
import type { AlertRuleKind as RuleKind, AlertSeverityLevel as AlertSeverity } from '../../domain/alerting/rule-kinds';
export type { RuleKind, AlertSeverity };
import type { AlertState } from '../../domain/alerting/rule-kinds';

export const SILENCE_STATES = ['scheduled', 'active', 'expired'] as const;
export type SilenceState = (typeof SILENCE_STATES)[number];

/** 400 validation_failed naming every field; the first one also in `detail`. */
export function invalidFields(errors: FieldError[]): ProblemError {
  const first = errors[0];
  return new ProblemError(
    'validation_failed',
    first ? `${first.path || 'body'}: ${first.message}` : 'The request is not valid.',
    { errors },
  );
}

/** The domain validators' `levels[0].targets[1].id` as the API writes paths everywhere else: `levels.0.targets.1.id`. */
export const apiPath = (path: string): string => path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');

export interface ChannelView {
  id: string;
  name: string;
  type: ChannelType;
  /** email: addresses; opsgenie: region; pagerduty and opsgenie with an endpoint of their own: api_url; slack with a signing secret: its hint; {} otherwise. */
  settings: { addresses?: string[]; region?: 'us' | 'eu'; api_url?: string; signing_secret_hint?: string };
  secret_hint: string | null;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function channelView(c: NotificationChannel): ChannelView {
  return {
    id: c.id,
    name: c.name,
    type: c.type as ChannelType,
    settings: c.settings,
    secret_hint: c.secretHint ?? null,
    enabled: c.disabledAt == null,
    created_at: toIso(c.createdAt),
    updated_at: toIso(c.updatedAt),
    deleted_at: toIsoOrNull(c.deletedAt),
  };
}

export function policyView(p: EscalationPolicy) {
  return {
    id: p.id,
    name: p.name,
    levels: p.levels as EscalationLevel[],
    repeat: p.repeat,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
    deleted_at: toIsoOrNull(p.deletedAt),
  };
}
export type PolicyView = ReturnType<typeof policyView>;

export function scheduleView(s: OnCallSchedule) {
  return {
    id: s.id,
    name: s.name,
    timezone: s.timezone,
    layers: s.layers as ScheduleLayer[],
    overrides: s.overrides as ScheduleOverride[],
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
    deleted_at: toIsoOrNull(s.deletedAt),
  };
}
export type ScheduleView = ReturnType<typeof scheduleView>;

export function ruleView(r: AlertRule) {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as RuleKind,
    subject_id: r.subjectId ?? null,
    include_degraded: r.includeDegraded,
    severity: r.severity as AlertSeverity,
    escalation_policy_id: r.escalationPolicy,
    auto_resolve: r.autoResolve,
    enabled: r.disabledAt == null,
    settings: r.settings as { reminder_hours?: number },
    created_at: toIso(r.createdAt),
    updated_at: toIso(r.updatedAt),
    deleted_at: toIsoOrNull(r.deletedAt),
  };
}
export type RuleView = ReturnType<typeof ruleView>;

export function silenceState(s: Pick<Silence, 'startsAt' | 'endsAt'>, now: Date): SilenceState {
  if (now.getTime() < s.startsAt.getTime()) return 'scheduled';
  return now.getTime() < s.endsAt.getTime() ? 'active' : 'expired';
}

export function silenceView(s: Silence, now: Date) {
  return {
    id: s.id,
    rule_ids: s.ruleIds,
    service_ids: s.serviceIds,
    starts_at: toIso(s.startsAt),
    ends_at: toIso(s.endsAt),
    reason: s.reason,
    created_by: s.createdBy ?? null,
    state: silenceState(s, now),
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
    deleted_at: toIsoOrNull(s.deletedAt),
  };
}
export type SilenceView = ReturnType<typeof silenceView>;

export function sendView(s: NotificationSend, attempts: NotificationAttempt[]) {
  return {
    id: s.id,
    channel_id: s.channel as string,
    alert_id: s.alert ?? null,
    action: s.action,
    level: s.level,
    recipient: s.recipient ?? null,
    state: s.state as 'pending' | 'succeeded' | 'failed',
    attempt_count: s.attemptCount,
    last_status_code: s.lastStatusCode ?? null,
    last_error: s.lastError ?? null,
    created_at: toIso(s.createdAt),
    completed_at: toIsoOrNull(s.completedAt),
    attempts: attemptViews(attempts.filter((a) => a.send === s.id)),
  };
}
export type SendView = ReturnType<typeof sendView>;

export interface AlertTimelineView {
  at: string;
  kind: string;
  actor: string | null;
  detail: Record<string, unknown>;
}

/** An alert as the API, webhooks and the console show it: state, subject, who acted, and its timeline in order. */
export function alertView(a: Alert, timeline: readonly AlertTimelineEntry[]) {
  return {
    id: a.id,
    rule_id: a.rule,
    subject: { kind: a.subjectKind, id: a.subjectId, name: a.subjectName },
    state: a.state as AlertState,
    severity: a.severity,
    title: a.title,
    summary: a.summary,
    level: a.level,
    trigger_count: a.triggerCount,
    suppressed_by: a.suppressedBy ?? null,
    snoozed_until: a.snoozedUntil ? toIso(a.snoozedUntil) : null,
    triggered_at: toIso(a.triggeredAt),
    last_triggered_at: toIso(a.lastTriggeredAt),
    acknowledged_at: a.acknowledgedAt ? toIso(a.acknowledgedAt) : null,
    acknowledged_by: a.acknowledgedBy ?? null,
    resolved_at: a.resolvedAt ? toIso(a.resolvedAt) : null,
    resolved_by: a.resolvedBy ?? null,
    workflow_id: a.workflowId,
    created_at: toIso(a.createdAt),
    updated_at: toIso(a.updatedAt),
    timeline: timeline.map((t): AlertTimelineView => ({
      at: toIso(t.at),
      kind: t.kind,
      actor: t.actor ?? null,
      detail: t.detail,
    })),
  };
}
export type AlertView = ReturnType<typeof alertView>;
