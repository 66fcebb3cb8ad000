import { z } from 'zod';
import type { Service } from '../../db/entities';
import { toIso, toIsoOrNull } from '../../domain/time';
import { DateTime, Uuid } from './common';
import { MetricSchema } from './metrics';

const Name = z.string().trim().min(1).max(200);
const Description = z.string().max(5000).nullable();
const ConfigKey = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,99}$/,
    'Lowercase letters, digits, "-" and "_", starting with a letter or digit (max 100)',
  )
  .nullable();

export const ServiceCreateBody = z
  .strictObject({ name: Name, description: Description.optional(), config_key: ConfigKey.optional() })
  .meta({ id: 'ServiceCreate' });

export const ServicePatchBody = z
  .strictObject({ name: Name.optional(), description: Description.optional(), config_key: ConfigKey.optional() })
  .meta({ id: 'ServicePatch' });

export const ServiceSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    description: z.string().nullable(),
    config_key: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable().describe('Set once the service is deleted'),
  })
  .meta({ id: 'Service' });

export function presentService(s: Service): z.output<typeof ServiceSchema> {
  return {
    id: s.id,
    name: s.name,
    description: s.description ?? null,
    config_key: s.configKey ?? null,
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
    deleted_at: toIsoOrNull(s.deletedAt),
  };
}

export const ServiceDetailSchema = ServiceSchema.extend({
  status: z
    .enum(['healthy', 'degraded', 'unhealthy', 'no_data'])
    .describe(
      'The worst of its metrics: unhealthy > degraded > healthy, a metric that is no_data with a `target` reason_class (the target did not answer) counting as unhealthy; no_data only when no metric is measured (every metric no_data with a `measurement` reason, or none).',
    ),
  maintenance: z
    .object({ id: Uuid, title: z.string(), actual_start_at: DateTime, scheduled_end_at: DateTime })
    .nullable()
    .describe('The maintenance window in progress on this service, if any.'),
  metrics: z.array(MetricSchema),
  uptime: z
    .array(z.object({ date: z.string(), uptime_pct: z.string().nullable(), samples: z.int() }))
    .describe(
      "The last 90 UTC days, oldest first: the share of the day's measured time the service was up, from its status flips (healthy or degraded is up; unhealthy, or no_data with a `target` reason, is down; a `measurement` gap and time before the first sample are not measured); null for a day with no measured time.",
    ),
}).meta({ id: 'ServiceDetail' });
