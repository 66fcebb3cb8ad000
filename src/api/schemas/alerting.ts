import { z } from 'zod';
import { EscalationPolicySchema as EscalationPolicyInput } from '../../domain/alerting/escalation';
import { ScheduleSpecSchema } from '../../domain/on-call/schedule-input';
import { ALERT_SEVERITIES, CHANNEL_TYPES, RULE_KINDS, SILENCE_STATES } from '../../usecases/alerting/views';
import { WebhookCreateBody } from './webhooks';
import { DateTime, InstantInput, ListQuery, Uuid } from './common';

const Name = z.string().trim().min(1).max(200);
const Enabled = z.boolean().optional().describe('Default true.');

// --- Notification channels -------------------------------------------------------------------

/** The webhook URL rule (http or https; the sender's public-address guard decides at connect time). */
const Url = WebhookCreateBody.shape.url.describe(
  'The incoming-webhook URL (http or https). Secret: never answered after creation.',
);
const Addresses = z.array(z.email().max(320)).min(1).max(20).describe('Where the email goes: 1 to 20 addresses.');
const RoutingKey = z
  .string()
  .length(32)
  .describe('PagerDuty Events API v2 integration (routing) key: 32 characters. Secret.');
const ApiKey = z.string().trim().min(1).max(200).describe('Opsgenie API integration key. Secret.');
const SlackSigningSecret = z
  .string()
  .trim()
  .min(16)
  .max(200)
  .describe(
    'Slack channels: the Slack app’s signing secret (Basic Information → App Credentials). With it the message’s Acknowledge and Resolve are interactive buttons whose presses Slack sends to `/v1/integrations/slack/interactions/{channel id}`, verified with this secret; without it they are links. Secret: sealed, never answered.',
  );
const VendorApiUrl = WebhookCreateBody.shape.url.describe(
  'PagerDuty and Opsgenie channels: where this channel sends instead of the vendor’s default (PagerDuty: the Events API base, default https://events.pagerduty.com, to which `/v2/enqueue` is added unless the URL already ends in it; Opsgenie: the API base, default by `region`) — a proxy, a regional or a compatible endpoint. Shown in `settings.api_url`.',
);
const Region = z
  .enum(['us', 'eu'])
  .describe('Opsgenie endpoint: `us` (api.opsgenie.com, the default) or `eu` (api.eu.opsgenie.com).');

export const ChannelCreateBody = z
  .discriminatedUnion('type', [
    z.strictObject({ name: Name, type: z.literal('email'), addresses: Addresses, enabled: Enabled }),
    z.strictObject({
      name: Name,
      type: z.literal('slack'),
      url: Url,
      signing_secret: SlackSigningSecret.optional(),
      enabled: Enabled,
    }),
    z.strictObject({ name: Name, type: z.literal('teams'), url: Url, enabled: Enabled }),
    z.strictObject({ name: Name, type: z.literal('discord'), url: Url, enabled: Enabled }),
    z.strictObject({ name: Name, type: z.literal('webhook'), url: Url, enabled: Enabled }),
    z.strictObject({
      name: Name,
      type: z.literal('pagerduty'),
      routing_key: RoutingKey,
      api_url: VendorApiUrl.optional(),
      enabled: Enabled,
    }),
    z.strictObject({
      name: Name,
      type: z.literal('opsgenie'),
      api_key: ApiKey,
      region: Region.optional(),
      api_url: VendorApiUrl.optional(),
      enabled: Enabled,
    }),
  ])
  .meta({ id: 'NotificationChannelCreate' });

export const ChannelPatchBody = z
  .strictObject({
    name: Name.optional(),
    enabled: z.boolean().optional(),
    addresses: Addresses.optional(),
    url: Url.optional(),
    signing_secret: SlackSigningSecret.nullable()
      .optional()
      .describe(
        'Slack channels: the Slack app’s signing secret (see the create body); null removes it, and the buttons are links again.',
      ),
    routing_key: RoutingKey.optional(),
    api_key: ApiKey.optional(),
    region: Region.optional(),
    api_url: VendorApiUrl.nullable()
      .optional()
      .describe(
        'PagerDuty and Opsgenie channels: where this channel sends (see the create body); null goes back to the vendor’s default.',
      ),
  })
  .meta({ id: 'NotificationChannelPatch' });

export const ChannelSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    type: z.enum(CHANNEL_TYPES),
    settings: z
      .object({
        addresses: z.array(z.string()).optional(),
        region: Region.optional(),
        api_url: z
          .string()
          .optional()
          .describe(
            'PagerDuty and Opsgenie channels sending to an endpoint of their own instead of the vendor’s default.',
          ),
        signing_secret_hint: z
          .string()
          .optional()
          .describe('Slack channels with a signing secret (interactive buttons): `…` and its last four characters.'),
      })
      .describe(
        'What may be shown: `addresses` of an email channel, `region` of an Opsgenie channel, `api_url` of a PagerDuty or Opsgenie channel with an endpoint of its own, `signing_secret_hint` of a Slack channel with a signing secret; `{}` otherwise.',
      ),
    secret_hint: z
      .string()
      .nullable()
      .describe(
        "Tells channels apart without the secret: the URL's host, or `…` and the key's last four characters; null for email.",
      ),
    enabled: z.boolean(),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'NotificationChannel' });

export const ChannelCreatedSchema = ChannelSchema.extend({
  signing_secret: z
    .string()
    .optional()
    .describe(
      'Webhook channels only: the Standard Webhooks signing secret (`whsec_…`) of the messages. Shown only in this response: store it now.',
    ),
}).meta({ id: 'NotificationChannelCreated' });

export const SendSchema = z
  .object({
    id: Uuid,
    channel_id: Uuid,
    alert_id: Uuid.nullable().describe('Null for a test send.'),
    action: z.string().describe('trigger, escalate, acknowledge, resolve or test'),
    level: z.int().describe('The escalation level that sent it (0 for a test).'),
    recipient: z
      .string()
      .nullable()
      .describe('The user an on-call or user target resolved to, when it went through one.'),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempt_count: z.int(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    created_at: DateTime,
    completed_at: DateTime.nullable(),
    attempts: z.array(
      z.object({
        number: z.int(),
        attempted_at: DateTime,
        status_code: z.int().nullable(),
        latency_ms: z.int(),
        error: z.string().nullable().describe('Network failure or `HTTP <status>`; never the response body.'),
        succeeded: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'NotificationSend' });

// --- Escalation policies ---------------------------------------------------------------------

const policyShape = EscalationPolicyInput.shape;
export const PolicyCreateBody = z
  .strictObject({
    name: Name,
    levels: policyShape.levels,
    repeat: policyShape.repeat.describe('Run the whole policy this many more times (0 to 10); default 0.'),
  })
  .meta({ id: 'EscalationPolicyCreate' });

export const PolicyPatchBody = z
  .strictObject({ name: Name.optional(), levels: policyShape.levels.optional(), repeat: policyShape.repeat })
  .meta({ id: 'EscalationPolicyPatch' });

const TargetOut = z.object({
  type: z.enum(['channel', 'schedule', 'user']),
  id: z.string().optional().describe('channel and schedule targets'),
  email: z.string().optional().describe('user targets (lower-cased)'),
});

export const PolicySchema = z
  .object({
    id: Uuid,
    name: z.string(),
    levels: z.array(z.object({ delay_minutes: z.int(), targets: z.array(TargetOut) })),
    repeat: z.int(),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'EscalationPolicy' });

// --- On-call schedules -----------------------------------------------------------------------

const scheduleShape = ScheduleSpecSchema.shape;
export const ScheduleCreateBody = z
  .strictObject({
    name: Name,
    timezone: scheduleShape.timezone,
    layers: scheduleShape.layers,
    overrides: scheduleShape.overrides,
  })
  .meta({ id: 'OnCallScheduleCreate' });

export const SchedulePatchBody = z
  .strictObject({
    name: Name.optional(),
    timezone: scheduleShape.timezone.optional(),
    layers: scheduleShape.layers.optional(),
    overrides: scheduleShape.overrides,
  })
  .meta({ id: 'OnCallSchedulePatch' });

export const ScheduleSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    timezone: z.string(),
    layers: z.array(
      z.object({
        name: z.string(),
        rotation: z.object({
          kind: z.enum(['daily', 'weekly', 'hourly']),
          shift_hours: z.int().optional(),
          handoff_time: z.string(),
          handoff_weekday: z.int().optional(),
          starts_on: z.string(),
          participants: z.array(z.string()).describe('Console users by email (lower-cased), in rotation order'),
        }),
      }),
    ),
    overrides: z.array(z.object({ user: z.string(), start_at: DateTime, end_at: DateTime })),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'OnCallSchedule' });

const OnCallUser = z.object({ email: z.string() });
const LayerRef = z.object({ index: z.int().describe('0-based; higher layers win'), name: z.string() });
const Source = z.enum(['override', 'layer']);

export const OnCallQuery = z.object({ at: InstantInput.optional().describe('Default: now') });

export const OnCallNowSchema = z
  .object({
    at: DateTime,
    user: OnCallUser.nullable().describe('Null when nobody is on call at `at`.'),
    source: Source.nullable(),
    layer: LayerRef.nullable().describe('The winning layer; null for an override.'),
    shift_start: DateTime.nullable(),
    shift_end: DateTime.nullable().describe('The next handoff, or where an override or a higher layer takes over.'),
  })
  .meta({ id: 'OnCallNow' });

export const ShiftsQuery = z.object({
  from: InstantInput.optional().describe('Default: now'),
  to: InstantInput.optional().describe('Default: from + 14 days; at most 93 days after from'),
});

export const ShiftsSchema = z
  .object({
    from: DateTime,
    to: DateTime,
    items: z.array(
      z.object({ user: OnCallUser, source: Source, layer: LayerRef.nullable(), start: DateTime, end: DateTime }),
    ),
    truncated: z.boolean().describe("More than 1,000 shifts: ask again from the last one's `end`."),
  })
  .meta({ id: 'OnCallShifts' });

// --- Alert rules -----------------------------------------------------------------------------

const SubjectId = z
  .string()
  .min(1)
  .max(200)
  .nullable()
  .describe(
    'What the rule watches, by kind: a metric (metric_status, required), a service or null for every service (service_status), a status page (status_page_status, required: every service on it), an SLO or null (slo_burn), an agent or null (agent_offline), a heartbeat metric or null (heartbeat_missed), a probe location id (`eu-central`) or null (location_offline), null (sla_review_overdue).',
  );
const RuleSettings = z
  .strictObject({
    reminder_hours: z
      .int()
      .min(1)
      .max(720)
      .optional()
      .describe('sla_review_overdue: hours a statement may wait in review; default 24'),
  })
  .describe('Per kind; only sla_review_overdue has any.');

export const RuleCreateBody = z
  .strictObject({
    name: Name,
    kind: z.enum(RULE_KINDS),
    subject_id: SubjectId.optional(),
    include_degraded: z
      .boolean()
      .optional()
      .describe('Status kinds only: `degraded` raises the alert too. Default false.'),
    severity: z.enum(ALERT_SEVERITIES),
    escalation_policy_id: Uuid,
    auto_resolve: z.boolean().optional().describe('Resolve the alert when the subject recovers. Default true.'),
    enabled: Enabled,
    settings: RuleSettings.optional(),
  })
  .meta({ id: 'AlertRuleCreate' });

export const RulePatchBody = z
  .strictObject({
    name: Name.optional(),
    subject_id: SubjectId.optional(),
    include_degraded: z.boolean().optional(),
    severity: z.enum(ALERT_SEVERITIES).optional(),
    escalation_policy_id: Uuid.optional(),
    auto_resolve: z.boolean().optional(),
    enabled: z.boolean().optional(),
    settings: RuleSettings.optional(),
  })
  .meta({ id: 'AlertRulePatch' });

export const RuleSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    kind: z.enum(RULE_KINDS),
    subject_id: z.string().nullable(),
    include_degraded: z.boolean(),
    severity: z.enum(ALERT_SEVERITIES),
    escalation_policy_id: Uuid,
    auto_resolve: z.boolean(),
    enabled: z.boolean(),
    settings: z.object({ reminder_hours: z.int().optional() }),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'AlertRule' });

// --- Silences --------------------------------------------------------------------------------

export const SilenceCreateBody = z
  .strictObject({
    rule_ids: z.array(Uuid).max(100).optional().describe('Alert rules to silence.'),
    service_ids: z.array(Uuid).max(100).optional().describe('Services whose alerts are silenced.'),
    starts_at: InstantInput.optional().describe('Default: now.'),
    ends_at: InstantInput.describe('In the future, after starts_at.'),
    reason: z.string().trim().min(1).max(500),
  })
  .meta({ id: 'SilenceCreate' });

export const SilenceListQuery = ListQuery.extend({
  state: z.enum(SILENCE_STATES).optional().describe('Only silences in this state now'),
});

export const SilenceSchema = z
  .object({
    id: Uuid,
    rule_ids: z.array(Uuid),
    service_ids: z.array(Uuid),
    starts_at: DateTime,
    ends_at: DateTime,
    reason: z.string(),
    created_by: z.string().nullable().describe('`api_key:<id>` or `console:<user id>`'),
    state: z.enum(SILENCE_STATES).describe('scheduled (starts later), active, or expired (ended or deleted)'),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'Silence' });
