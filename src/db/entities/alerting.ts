import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';

/**
 * Where alerts go. `settings` holds what may be shown (email addresses, Opsgenie
 * region); `sealedSecret` the JSON of what may not (webhook URLs, routing keys, API keys), sealed
 * like webhook secrets and never answered after creation; `secretHint` says which one it is.
 */
export const NotificationChannelSchema = defineEntity({
  name: 'NotificationChannel',
  tableName: 'notification_channels',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.text(),
    type: p.string().length(16),
    settings: p.json<Record<string, unknown>>(),
    sealedSecret: p.text().nullable(),
    secretHint: p.text().nullable(),
    disabledAt: p.datetime(3).nullable(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type NotificationChannel = InferEntity<typeof NotificationChannelSchema>;

/** Ordered levels of targets with a delay between them (src/domain/alerting/escalation.ts). */
export const EscalationPolicySchema = defineEntity({
  name: 'EscalationPolicy',
  tableName: 'escalation_policies',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.text(),
    levels: p.json<unknown[]>(),
    repeat: p.integer(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type EscalationPolicy = InferEntity<typeof EscalationPolicySchema>;

/** Rotations in an IANA time zone, layered, with overrides (src/domain/on-call/). */
export const OnCallScheduleSchema = defineEntity({
  name: 'OnCallSchedule',
  tableName: 'on_call_schedules',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.text(),
    timezone: p.text(),
    layers: p.json<unknown[]>(),
    overrides: p.json<unknown[]>(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type OnCallSchedule = InferEntity<typeof OnCallScheduleSchema>;

/** What raises an alert: a kind, the subject it watches (null: every subject of the kind), severity and policy. */
export const AlertRuleSchema = defineEntity({
  name: 'AlertRule',
  tableName: 'alert_rules',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    name: p.text(),
    kind: p.string().length(32),
    subjectId: p.text().nullable(),
    includeDegraded: p.boolean(),
    severity: p.string().length(16),
    escalationPolicy: p.manyToOne(EscalationPolicySchema).mapToPk(),
    autoResolve: p.boolean(),
    settings: p.json<Record<string, unknown>>(),
    disabledAt: p.datetime(3).nullable(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'alert_rules_subject_index',
      expression:
        'create index alert_rules_subject_index on alert_rules (organization_id, kind, subject_id) where deleted_at is null and disabled_at is null',
    },
  ],
});
export type AlertRule = InferEntity<typeof AlertRuleSchema>;

/** A manual silence: the rules and services it covers, until `endsAt`. Silenced alerts are recorded as suppressed. */
export const SilenceSchema = defineEntity({
  name: 'Silence',
  tableName: 'silences',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    ruleIds: p.array().columnType('uuid[]'),
    serviceIds: p.array().columnType('uuid[]'),
    startsAt: p.datetime(3),
    endsAt: p.datetime(3),
    reason: p.text(),
    createdBy: p.text().nullable(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
});
export type Silence = InferEntity<typeof SilenceSchema>;

/** One alert: a rule firing for a subject, from trigger to resolution; `alert:<rule>:<subject>` is its workflow. */
export const AlertSchema = defineEntity({
  name: 'Alert',
  tableName: 'alerts',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    rule: p.manyToOne(AlertRuleSchema).mapToPk().deleteRule('cascade'),
    subjectKind: p.string().length(32),
    subjectId: p.text(),
    subjectName: p.text(),
    workflowId: p.text(),
    /** triggered, acknowledged, suppressed or resolved. */
    state: p.string().length(16),
    severity: p.string().length(16),
    title: p.text(),
    summary: p.text(),
    level: p.integer(),
    triggerCount: p.integer(),
    suppressedBy: p.json<Record<string, unknown>>().nullable(),
    snoozedUntil: p.datetime(3).nullable(),
    triggeredAt: p.datetime(3),
    lastTriggeredAt: p.datetime(3),
    acknowledgedAt: p.datetime(3).nullable(),
    acknowledgedBy: p.text().nullable(),
    resolvedAt: p.datetime(3).nullable(),
    resolvedBy: p.text().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    { properties: ['rule', 'createdAt'] },
    {
      name: 'alerts_open_unique',
      expression: "create unique index alerts_open_unique on alerts (rule_id, subject_id) where state <> 'resolved'",
    },
  ],
});
export type Alert = InferEntity<typeof AlertSchema>;

/** What happened to an alert, in order; `key` makes each entry's write idempotent (activity retries). */
export const AlertTimelineEntrySchema = defineEntity({
  name: 'AlertTimelineEntry',
  tableName: 'alert_timeline',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    alert: p.manyToOne(AlertSchema).mapToPk().deleteRule('cascade'),
    key: p.text(),
    at: p.datetime(3),
    kind: p.string().length(32),
    actor: p.text().nullable(),
    detail: p.json<Record<string, unknown>>(),
  },
  uniques: [{ properties: ['alert', 'key'] }],
  indexes: [{ properties: ['alert', 'at', 'id'] }],
});
export type AlertTimelineEntry = InferEntity<typeof AlertTimelineEntrySchema>;

/** One message to one channel (an alert action or a test), recorded like a webhook delivery. `key` makes it once-only. */
export const NotificationSendSchema = defineEntity({
  name: 'NotificationSend',
  tableName: 'notification_sends',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    /** Null for an email to a console user (a `user` target, or whoever a schedule has on call). */
    channel: p.manyToOne(NotificationChannelSchema).mapToPk().deleteRule('cascade').nullable(),
    alert: p.manyToOne(AlertSchema).mapToPk().deleteRule('cascade').nullable(),
    key: p.text().unique(),
    action: p.string().length(16),
    level: p.integer(),
    recipient: p.text().nullable(),
    /** pending, succeeded or failed. */
    state: p.string().length(16),
    attemptCount: p.integer(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
  indexes: [{ properties: ['channel', 'createdAt', 'id'] }, { properties: ['alert', 'createdAt'] }],
});
export type NotificationSend = InferEntity<typeof NotificationSendSchema>;

/** One try of a send: when, what the receiver answered, how long it took. */
export const NotificationAttemptSchema = defineEntity({
  name: 'NotificationAttempt',
  tableName: 'notification_attempts',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    send: p.manyToOne(NotificationSendSchema).mapToPk().deleteRule('cascade'),
    number: p.integer(),
    attemptedAt: p.datetime(3),
    statusCode: p.integer().nullable(),
    latencyMs: p.integer(),
    error: p.text().nullable(),
    response: p.text().nullable(),
    succeeded: p.boolean(),
  },
  uniques: [{ properties: ['send', 'number'] }],
});
export type NotificationAttempt = InferEntity<typeof NotificationAttemptSchema>;

/** An event fanned out to a rule that watches it; `signalledAt` once its alert workflow heard it. */
export const AlertSignalSchema = defineEntity({
  name: 'AlertSignal',
  tableName: 'alert_signals',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    rule: p.manyToOne(AlertRuleSchema).mapToPk().deleteRule('cascade'),
    subjectKind: p.string().length(32),
    subjectId: p.text(),
    eventId: p.uuid().nullable(),
    firing: p.boolean(),
    createdAt: p.datetime(3),
    signalledAt: p.datetime(3).nullable(),
  },
  indexes: [
    {
      name: 'alert_signals_unsignalled_index',
      expression:
        'create index alert_signals_unsignalled_index on alert_signals (created_at) where signalled_at is null',
    },
  ],
});
export type AlertSignal = InferEntity<typeof AlertSignalSchema>;

/** A one-click link used: each signed link works once per action. */
export const AlertActionUseSchema = defineEntity({
  name: 'AlertActionUse',
  tableName: 'alert_action_uses',
  properties: {
    tokenId: p.text().primary(),
    alert: p.manyToOne(AlertSchema).mapToPk().deleteRule('cascade'),
    action: p.string().length(16),
    usedAt: p.datetime(3),
  },
});
export type AlertActionUse = InferEntity<typeof AlertActionUseSchema>;

export const ALERTING_ENTITIES = [
  NotificationChannelSchema,
  EscalationPolicySchema,
  OnCallScheduleSchema,
  AlertRuleSchema,
  SilenceSchema,
  AlertSchema,
  AlertTimelineEntrySchema,
  NotificationSendSchema,
  NotificationAttemptSchema,
  AlertSignalSchema,
  AlertActionUseSchema,
];
