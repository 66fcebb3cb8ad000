import { z } from 'zod';
import { ALL_SOURCE_TYPES } from '../../domain/source-config';
import { THRESHOLD_OPERATIONS } from '../../domain/thresholds';
import { DateTime, Uuid } from './common';

const Operation = z.enum(THRESHOLD_OPERATIONS);

/** Documents the body; the route reads it with parseProbeTestRequest for the spec's own error tokens. */
export const ProbeTestRequestSchema = z
  .looseObject({
    agent_id: Uuid.nullable().optional().describe('Agent to run on; omit for a public HTTP check from the cloud.'),
    source_type: z.enum(ALL_SOURCE_TYPES).describe('custom, otlp, manual, heartbeat and alert cannot be tested.'),
    source_config: z
      .record(z.string(), z.unknown())
      .describe('The same object a metric of that source_type takes, validated by the same rules.'),
    thresholds: z
      .object({
        healthy_operation: Operation.optional(),
        healthy_value: z.number().optional(),
        unhealthy_operation: Operation.optional(),
        unhealthy_value: z.number().optional(),
      })
      .optional()
      .describe('Strict comparisons; `status` is computed only when all four are set.'),
    wait_seconds: z
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe('How long to wait for the agent before answering 202 (default 20).'),
  })
  .meta({ id: 'ProbeTestRequest' });

export const ProbeTestResultSchema = z
  .object({
    value: z.number().nullable(),
    unit: z.string().nullable(),
    value_description: z.string().nullable(),
    status: z.enum(['healthy', 'degraded', 'unhealthy', 'no_data']).nullable(),
    reason: z.string().nullable(),
    reason_label: z.string().nullable(),
    reason_hint: z.string().nullable(),
    duration_ms: z.int(),
    mode: z.enum(['agent', 'cloud']),
    job_id: Uuid.nullable(),
    agent_id: Uuid.nullable(),
    thresholds_complete: z.boolean(),
    skipped_secret_headers: z.array(z.string()),
  })
  .meta({ id: 'ProbeTestResult' });

export const ProbeTestPendingSchema = z
  .object({
    job_id: Uuid,
    status: z.enum(['pending', 'running']),
    agent_id: Uuid.nullable(),
    expires_at: DateTime,
    poll: z.string().describe('Path to GET for the result (getProbeTest).'),
    detail: z.string(),
  })
  .meta({ id: 'ProbeTestPending' });

export const JobIdParams = z.object({ job_id: z.string().describe('Probe test job id (UUID)') });
