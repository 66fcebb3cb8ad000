import { z } from 'zod';
import { REASON_CLASSES } from '../../domain/reason-class';
import { ALL_SOURCE_TYPES } from '../../domain/source-config';
import { HEALTH_STATUSES } from '../../domain/thresholds';
import { DateTime, DateTimeInput, ListQuery, Uuid } from './common';

const Name = z.string().trim().min(1).max(200);

/** A location as a request names it: its id, or an object with it (a GET's `locations` item sent back). */
const LocationRef = z.union([z.string().min(1).max(80), z.object({ id: z.string().min(1).max(80) }).loose()]);
const Locations = z
  .array(LocationRef)
  .max(20)
  .nullable()
  .describe(
    'The locations that measure it: cloud location ids (GET /v1/locations) and/or agents as `agent:<agent id>`. null or omitted: every online cloud location for a cloud metric, its agent for an agent metric. Not for pushed metrics (manual, heartbeat, alert).',
  );
const ConfirmationInput = z
  .strictObject({
    quorum: z
      .union([z.enum(['majority', 'any', 'all']), z.int().min(1).max(20)])
      .optional()
      .describe(
        'How many voting locations must fail for a round to fail: `majority` (more than half), `any`, `all`, or a number k',
      ),
    failures: z
      .int()
      .min(1)
      .max(10)
      .optional()
      .describe('Consecutive failing rounds before the metric flips (default 2)'),
    recoveries: z
      .int()
      .min(1)
      .max(10)
      .optional()
      .describe('Consecutive good rounds before it returns to healthy (default 2)'),
    recheck: z
      .boolean()
      .optional()
      .describe(
        'Run a failing location’s check once more from another location within the round before its vote counts',
      ),
  })
  .nullable()
  .describe(
    'When a failure counts. Omitted fields take the defaults (majority, 2, 2, false) on create and keep their value on update; null resets to the defaults. Not for pushed metrics.',
  );
const Thresholds = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe(
    'healthy_operation / healthy_value / unhealthy_operation / unhealthy_value: strict over (>), under (<), equal (=); between them is degraded. Not for manual and alert metrics. Optional for http (and mtls_http): without them the metric is an up/down check, healthy when the target answers an accepted `expected_status`, unhealthy (reason unexpected_status:<code>) when it answers another, no_data with the network reason when it does not answer.',
  );

export const MetricCreateBody = z
  .strictObject({
    service_id: z.string().describe('The service the metric belongs to'),
    name: Name,
    source_type: z.enum(ALL_SOURCE_TYPES),
    source_config: z.record(z.string(), z.unknown()).describe('Validated by the same rules as the probe test.'),
    thresholds: Thresholds.optional(),
    interval_seconds: z.int().min(5).max(86_400).optional().describe('How often it runs (default 60).'),
    agent_id: z
      .string()
      .nullable()
      .optional()
      .describe('The agent that runs it; null runs public HTTP/TCP/DNS/TLS/ping checks from the cloud.'),
    unit: z.string().max(16).nullable().optional(),
    locations: Locations.optional(),
    confirmation: ConfirmationInput.optional(),
  })
  .meta({ id: 'MetricCreate' });

export const MetricPatchBody = z
  .strictObject({
    service_id: z.string().optional(),
    name: Name.optional(),
    source_config: z.record(z.string(), z.unknown()).optional(),
    thresholds: Thresholds.optional(),
    interval_seconds: z.int().min(5).max(86_400).optional(),
    agent_id: z.string().nullable().optional(),
    unit: z.string().max(16).nullable().optional(),
    locations: Locations.optional(),
    confirmation: ConfirmationInput.optional(),
    paused: z
      .boolean()
      .optional()
      .describe(
        'true pauses the metric (no checks, not handed to agents, samples sent for it not stored); false resumes it',
      ),
  })
  .meta({ id: 'MetricPatch' });

const Status = z.enum(HEALTH_STATUSES);
const ReasonClass = z.enum(REASON_CLASSES);
const Confirmation = z
  .object({
    quorum: z.union([z.enum(['majority', 'any', 'all']), z.int()]),
    failures: z.int(),
    recoveries: z.int(),
    recheck: z.boolean(),
  })
  .meta({ id: 'Confirmation' });

const Vote = z
  .object({
    location: z.string(),
    value: z.number().nullable(),
    reason: z.string().nullable(),
    status: Status,
    at: DateTime,
    recheck: z
      .object({
        location: z.string(),
        value: z.number().nullable(),
        reason: z.string().nullable(),
        status: Status,
        at: DateTime,
      })
      .nullable()
      .optional()
      .describe(
        'The same check run again from another location in the round (`recheck`); the vote counts as its result',
      ),
  })
  .meta({ id: 'LocationVote' });

export const FlipRoundsSchema = z
  .array(z.object({ at: DateTime, votes: z.array(Vote) }))
  .describe('The rounds that confirmed the flip, oldest first, each with every location’s vote');

export const MetricSchema = z
  .object({
    id: Uuid,
    service_id: Uuid,
    name: z.string(),
    config_key: z
      .string()
      .nullable()
      .describe('Its handle in configuration documents (config as code); null when created otherwise'),
    source_type: z.string(),
    source_config: z.record(z.string(), z.unknown()),
    thresholds: z.record(z.string(), z.unknown()).nullable(),
    interval_seconds: z.int(),
    agent_id: Uuid.nullable(),
    mode: z.enum(['agent', 'cloud', 'push']),
    unit: z.string().nullable(),
    status: Status,
    current_value: z.number().nullable().describe('null while the metric reports no_data'),
    reason: z.string().nullable(),
    reason_label: z.string().nullable(),
    reason_hint: z.string().nullable(),
    reason_class: ReasonClass.nullable().describe(
      'While no_data: `target` (the target did not answer as configured; counts as down for availability) or `measurement` (Vigil could not measure; a gap in the evidence). null otherwise.',
    ),
    availability: z
      .enum(['up', 'down', 'unmeasured'])
      .describe(
        'What the reading means for uptime, SLOs and statements: `up` (healthy, degraded), `down` (unhealthy, or no_data with a `target` reason), `unmeasured` (no_data with a `measurement` reason).',
      ),
    last_sample_at: DateTime.nullable(),
    status_since: DateTime.nullable(),
    locations: z
      .array(z.string())
      .nullable()
      .describe(
        'The locations that measure it as configured (cloud ids, `agent:<agent id>`); null: the default (every online cloud location, or its agent)',
      ),
    confirmation: Confirmation.nullable().describe(
      'null for pushed metrics (manual, heartbeat, alert): no location measures them',
    ),
    paused: z
      .boolean()
      .describe(
        'Paused (PATCH `paused`): not checked, not handed to agents, samples sent for it not stored; `status` keeps the last status it had',
      ),
    paused_at: DateTime.nullable().describe('When it was paused; null while it runs'),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'Metric' });

export const MetricCreatedSchema = MetricSchema.extend({
  inbound_url: z
    .string()
    .nullable()
    .describe(
      'Heartbeat: the ping URL; alert: the webhook URL for Alertmanager or Grafana. Shown only in this response.',
    ),
}).meta({ id: 'MetricCreated' });

export const MetricDetailSchema = MetricSchema.extend({
  location_readings: z
    .array(
      z.object({
        location: z.string(),
        label: z.string().nullable(),
        value: z.number().nullable(),
        status: Status,
        reason: z.string().nullable(),
        reason_class: ReasonClass.nullable(),
        at: DateTime.nullable().describe('When the location last answered'),
        offline: z
          .boolean()
          .describe(
            'It has not answered for two intervals (or is offline): shown as no_data with reason `location_offline`, never counted as a failure',
          ),
      }),
    )
    .describe('Per location, its latest answer'),
  confirmation_pending: z
    .object({
      to_status: Status,
      reason_class: ReasonClass.nullable(),
      rounds: z.int(),
      needed: z.int(),
      since: DateTime,
      summary: z.string().describe('e.g. "failing 1 of 2"'),
    })
    .nullable()
    .describe(
      'A change being confirmed: the status it would move to after `needed` consecutive rounds; null when none',
    ),
  history: z
    .array(
      z.object({
        sampled_at: DateTime,
        value: z.number().nullable(),
        status: Status,
        reason: z.string().nullable(),
        reason_class: ReasonClass.nullable(),
      }),
    )
    .describe('The latest samples, newest first'),
}).meta({ id: 'MetricDetail' });

export const MetricFlipSchema = z
  .object({
    id: Uuid,
    metric_id: Uuid,
    from_status: Status,
    to_status: Status,
    reason: z.string().nullable(),
    reason_class: ReasonClass.nullable(),
    value: z.number().nullable(),
    at: DateTime.describe('When the change began: the first of the rounds that confirmed it'),
    confirmed_at: DateTime.nullable().describe(
      'The round that confirmed it; null for flips from before confirmation or rebuilt from history',
    ),
    confirmations: z.int().nullable().describe('How many consecutive rounds confirmed it'),
    rounds: FlipRoundsSchema,
  })
  .meta({ id: 'MetricFlip' });

export const MetricListQuery = ListQuery.extend({
  service_id: Uuid.optional(),
  status: Status.optional().describe('Only metrics with this status'),
  agent_id: Uuid.optional(),
});

export const ManualStatusBody = z
  .strictObject({ status: z.enum(['healthy', 'degraded', 'unhealthy']), note: z.string().max(500).optional() })
  .meta({ id: 'ManualStatus' });

export const AgentSamplesBody = z
  .strictObject({
    samples: z
      .array(
        z.strictObject({
          metric_id: Uuid,
          sampled_at: DateTimeInput,
          value: z.number().nullable(),
          reason: z.string().max(200).nullable().optional(),
        }),
      )
      .min(1)
      .max(5_000),
  })
  .meta({ id: 'AgentSamples' });

export const MetricSamplesImportBody = z
  .strictObject({
    samples: z
      .array(
        z.strictObject({
          sampled_at: DateTimeInput,
          value: z
            .number()
            .nullable()
            .describe('null: no value (the metric is no_data for that sample, with `reason`)'),
          reason: z
            .string()
            .max(200)
            .nullable()
            .optional()
            .describe('A reason code (§7.3) when `value` is null; default `no_data`'),
        }),
      )
      .min(1)
      .max(50_000),
  })
  .meta({ id: 'MetricSamplesImport' });

export const MetricSamplesImportAnswer = z
  .object({
    accepted: z
      .int()
      .describe(
        'Samples that passed validation, new or already stored (a re-import accepts them again and stores nothing)',
      ),
    stored: z.int().describe('Of those, how many were new'),
    rejected: z.array(
      z.object({
        index: z.int(),
        metric_id: z.string(),
        reason: z
          .enum(['sampled_in_future', 'sampled_before_retention', 'unknown_metric'])
          .describe(
            'sampled_in_future: `sampled_at` more than 60 s ahead of the server’s clock; sampled_before_retention: older than the sample retention (METRIC_SAMPLE_RETENTION_DAYS, 400 days by default)',
          ),
      }),
    ),
    flips: z.int().describe('Status flips the rebuilt history holds from the earliest new sample on'),
  })
  .meta({ id: 'MetricSamplesImportResult' });
