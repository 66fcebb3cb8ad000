import { z } from 'zod';
import { REASON_CLASSES } from '../../domain/reason-class';
import { ALL_SOURCE_TYPES } from '../../domain/source-config';
import { HEALTH_STATUSES } from '../../domain/thresholds';
import { DateTime, DateTimeInput, ListQuery, Uuid } from './common';

const Name = z.string().trim().min(1).max(200);
const Thresholds = z.record(z.string(), z.unknown()).nullable().describe('healthy_operation / healthy_value / unhealthy_operation / unhealthy_value: strict over (>), under (<), equal (=); between them is degraded. Not for manual and alert metrics.');

export const MetricCreateBody = z
  .strictObject({
    service_id: z.string().describe('The service the metric belongs to'),
    name: Name,
    source_type: z.enum(ALL_SOURCE_TYPES),
    source_config: z.record(z.string(), z.unknown()).describe('Validated by the same rules as the probe test.'),
    thresholds: Thresholds.optional(),
    interval_seconds: z.int().min(5).max(86_400).optional().describe('How often it runs (default 60).'),
    agent_id: z.string().nullable().optional().describe('The agent that runs it; null runs public HTTP/TCP/DNS/TLS/ping checks from the cloud.'),
    unit: z.string().max(16).nullable().optional(),
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
  })
  .meta({ id: 'MetricPatch' });

const Status = z.enum(HEALTH_STATUSES);
const ReasonClass = z.enum(REASON_CLASSES);

export const MetricSchema = z
  .object({
    id: Uuid,
    service_id: Uuid,
    name: z.string(),
    config_key: z.string().nullable().describe('Its handle in configuration documents (config as code); null when created otherwise'),
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
    reason_class: ReasonClass.nullable().describe('While no_data: `target` (the target did not answer as configured; counts as down for availability) or `measurement` (Vigil could not measure; a gap in the evidence). null otherwise.'),
    availability: z.enum(['up', 'down', 'unmeasured']).describe('What the reading means for uptime, SLOs and statements: `up` (healthy, degraded), `down` (unhealthy, or no_data with a `target` reason), `unmeasured` (no_data with a `measurement` reason).'),
    last_sample_at: DateTime.nullable(),
    status_since: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'Metric' });

export const MetricCreatedSchema = MetricSchema.extend({
  inbound_url: z.string().nullable().describe('Heartbeat: the ping URL; alert: the webhook URL for Alertmanager or Grafana. Shown only in this response.'),
}).meta({ id: 'MetricCreated' });

export const MetricDetailSchema = MetricSchema.extend({
  history: z.array(z.object({ sampled_at: DateTime, value: z.number().nullable(), status: Status, reason: z.string().nullable(), reason_class: ReasonClass.nullable() })).describe('The latest samples, newest first'),
}).meta({ id: 'MetricDetail' });

export const MetricListQuery = ListQuery.extend({
  service_id: Uuid.optional(),
  status: Status.optional(),
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
          value: z.number().nullable().describe('null: no value (the metric is no_data for that sample, with `reason`)'),
          reason: z.string().max(200).nullable().optional().describe('A reason code (§7.3) when `value` is null; default `no_data`'),
        }),
      )
      .min(1)
      .max(50_000),
  })
  .meta({ id: 'MetricSamplesImport' });

export const MetricSamplesImportAnswer = z
  .object({
    accepted: z.int().describe('Samples that passed validation, new or already stored (a re-import accepts them again and stores nothing)'),
    stored: z.int().describe('Of those, how many were new'),
    rejected: z.array(
      z.object({
        index: z.int(),
        metric_id: z.string(),
        reason: z.enum(['sampled_in_future', 'sampled_before_retention', 'unknown_metric']).describe('sampled_in_future: `sampled_at` more than 60 s ahead of the server’s clock; sampled_before_retention: older than the sample retention (METRIC_SAMPLE_RETENTION_DAYS, 400 days by default)'),
      }),
    ),
    flips: z.int().describe('Status flips the rebuilt history holds from the earliest new sample on'),
  })
  .meta({ id: 'MetricSamplesImportResult' });
