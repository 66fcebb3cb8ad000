import { z } from 'zod';
import type { Service } from '../../db/entities';
import { toIso, toIsoOrNull } from '../../domain/time';
import { DateTime, Uuid } from './common';

const Name = z.string().trim().min(1).max(200);
const Description = z.string().max(5000).nullable();
const ConfigKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'Lowercase letters, digits, "-" and "_", starting with a letter or digit (max 100)')
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
