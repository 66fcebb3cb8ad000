import { z } from 'zod';
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
  history: z.array(z.object({ sampled_at: DateTime, value: z.number().nullable(), status: Status, reason: z.string().nullable() })).describe('The latest samples, newest first'),
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
