import { z } from 'zod';
import { MAINTENANCE_STATES } from '../../domain/maintenance-state';
import { DateTime, InstantInput, ListQuery, Uuid } from './common';

const Instant = InstantInput;
const Title = z.string().trim().min(1).max(300);

export const MaintenanceCreateBody = z
  .strictObject({
    title: Title,
    description: z.string().max(20_000).nullable().optional(),
    affected_services: z.array(Uuid).max(200).optional(),
    scheduled_start_at: Instant,
    scheduled_end_at: Instant,
  })
  .meta({ id: 'MaintenanceCreate' });

export const MaintenancePatchBody = z
  .strictObject({
    title: Title.optional(),
    description: z.string().max(20_000).nullable().optional(),
    affected_services: z.array(Uuid).max(200).optional(),
    scheduled_start_at: Instant.optional().describe('Only while scheduled'),
    scheduled_end_at: Instant.optional().describe('Until completed'),
  })
  .meta({ id: 'MaintenancePatch' });

export const MaintenanceListQuery = ListQuery.extend({
  state: z.enum(['scheduled', 'in_progress', 'completed', 'canceled']).optional(),
});

export const MaintenanceSchema = z
  .object({
    id: Uuid,
    title: z.string(),
    description: z.string().nullable(),
    state: z.enum(MAINTENANCE_STATES).describe('Derived from the timestamps'),
    affected_services: z.array(Uuid),
    scheduled_start_at: DateTime,
    scheduled_end_at: DateTime,
    actual_start_at: DateTime.nullable(),
    actual_end_at: DateTime.nullable(),
    canceled_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    messages: z.array(z.object({ id: Uuid, type: z.string(), body: z.string(), posted_at: DateTime })).describe('System messages, oldest first'),
  })
  .meta({ id: 'Maintenance' });
