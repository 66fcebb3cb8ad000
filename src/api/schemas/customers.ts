import { z } from 'zod';
import type { Customer } from '../../db/entities';
import { toIso, toIsoOrNull } from '../../domain/time';
import { DateTime, Uuid } from './common';

const Name = z.string().trim().min(1).max(200);
const ExternalId = z.string().trim().min(1).max(200).nullable();
const Email = z.email().max(320).nullable();

export const CustomerCreateBody = z
  .strictObject({ name: Name, external_id: ExternalId.optional(), contact_email: Email.optional() })
  .meta({ id: 'CustomerCreate' });

export const CustomerPatchBody = z
  .strictObject({ name: Name.optional(), external_id: ExternalId.optional(), contact_email: Email.optional() })
  .meta({ id: 'CustomerPatch' });

export const CustomerSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    config_key: z
      .string()
      .nullable()
      .describe('Its handle in configuration documents (config as code); null when created otherwise'),
    external_id: z.string().nullable().describe("The customer's id in your own systems"),
    contact_email: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'Customer' });

export function presentCustomer(c: Customer): z.output<typeof CustomerSchema> {
  return {
    id: c.id,
    name: c.name,
    config_key: c.configKey ?? null,
    external_id: c.externalId ?? null,
    contact_email: c.contactEmail ?? null,
    created_at: toIso(c.createdAt),
    updated_at: toIso(c.updatedAt),
    deleted_at: toIsoOrNull(c.deletedAt),
  };
}
