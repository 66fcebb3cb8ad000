import { z } from 'zod';
import { AGENT_STATUSES } from '../../domain/agent-status';
import { DateTime, Uuid } from './common';

export const AgentCreateBody = z.strictObject({ name: z.string().trim().min(1).max(200) }).meta({ id: 'AgentCreate' });

export const AgentSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    status: z
      .enum(AGENT_STATUSES)
      .describe('online: heard from in the last minute; offline; never_connected; revoked.'),
    version: z.string().nullable().describe('Reported by the agent; probe tests need 1.7.0 or later.'),
    can_run_probe_tests: z.boolean(),
    hostname: z.string().nullable(),
    token_prefix: z.string().describe('The first characters of the token, to tell agents apart.'),
    last_seen_at: DateTime.nullable(),
    revoked_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'Agent' });

export const AgentWithTokenSchema = AgentSchema.extend({
  token: z
    .string()
    .describe(
      'The agent token (`vgl_agt_…`). Shown only in this response; start the agent with it (VIGIL_AGENT_TOKEN).',
    ),
}).meta({ id: 'AgentWithToken' });

/** Names the agent process: a random id drawn when the process starts. */
const AgentSession = z
  .string()
  .regex(/^[0-9A-Za-z_-]{8,64}$/)
  .describe(
    'A random id the agent process draws when it starts, the same on all its calls. A heartbeat with a new one tells the API that an earlier process was replaced: the probe-test jobs that process took and never answered go back to the queue (once) for the new one, before their expiry.',
  );

export const HeartbeatBody = z
  .strictObject({
    version: z.string().min(1).max(32),
    hostname: z.string().max(255).optional(),
    session: AgentSession.optional(),
  })
  .meta({ id: 'AgentHeartbeat' });

export const HeartbeatAnswer = z.object({
  agent_id: Uuid,
  organization_id: Uuid,
  server_time: DateTime.describe(
    'The server’s clock when it handled the heartbeat. Agents stamp samples in server time: their offset is server_time minus the midpoint of the exchange, refreshed on every heartbeat.',
  ),
  jobs_url: z.string(),
});

export const PollQuery = z.object({
  wait_seconds: z.coerce
    .number()
    .int()
    .min(0)
    .max(30)
    .optional()
    .describe('Long-poll up to this many seconds (default 25).'),
  config_version: z
    .string()
    .max(64)
    .optional()
    .describe('The `version` of the configuration the agent runs; another one answers config_changed at once.'),
  session: AgentSession.optional(),
});

export const AgentJobSchema = z.object({
  job_id: Uuid,
  source_type: z.string(),
  source_config: z.record(z.string(), z.unknown()),
  expires_at: DateTime,
});

export const JobResultBody = z
  .strictObject({
    outcome: z
      .strictObject({
        value: z.number().nullable(),
        unit: z.string().max(16).nullable(),
        value_description: z.string().max(200).nullable().optional(),
        reason: z.string().max(200).nullable(),
        duration_ms: z.number().min(0),
      })
      .optional(),
    error: z.strictObject({ reason: z.string().min(1).max(200) }).optional(),
  })
  .refine((b) => (b.outcome === undefined) !== (b.error === undefined), {
    message: 'Send exactly one of outcome and error',
  })
  .meta({ id: 'AgentJobResult' });

export const JobParams = z.object({ jobId: z.string().describe('Job id (UUID)') });

export const AgentConfigSchema = z.object({
  version: z.string().describe('Send it back as `config_version` on long polls'),
  metrics: z.array(
    z.object({
      metric_id: Uuid,
      source_type: z.string(),
      source_config: z.record(z.string(), z.unknown()),
      interval_seconds: z.int(),
    }),
  ),
});

export const SamplesAnswer = z.object({
  accepted: z.int(),
  rejected: z.array(
    z.object({
      index: z.int(),
      metric_id: z.string(),
      reason: z
        .enum(['unknown_metric', 'sampled_in_future', 'sampled_too_old'])
        .describe(
          'unknown_metric: no live metric of the organization that this agent runs; sampled_in_future: `sampled_at` more than 60 s ahead of the server’s clock (the agent’s clock is off); sampled_too_old: `sampled_at` older than SAMPLE_MAX_AGE (7 days by default; import history through POST /v1/metrics/{id}/samples/import).',
        ),
    }),
  ),
  flips: z.int(),
});
