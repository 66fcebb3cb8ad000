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

export const MaintenanceMessageBody = z
  .strictObject({
    body: z.string().trim().min(1).max(20_000),
    notify_subscribers: z.boolean().optional().describe('Email the status page subscribers (default true)'),
  })
  .meta({ id: 'MaintenanceMessageCreate' });

export const MaintenanceListQuery = ListQuery.extend({
  state: z
    .enum(['scheduled', 'in_progress', 'completed', 'canceled'])
    .optional()
    .describe('Only maintenances in this state'),
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
    messages: z
      .array(
        z.object({
          id: Uuid,
          type: z
            .string()
            .describe("Information or Resolved (system messages and reschedules), Update (an operator's update)"),
          body: z.string(),
          posted_at: DateTime,
          kind: z
            .enum(['system', 'update', 'reschedule'])
            .describe(
              'system: started, completed, canceled; update: posted with POST /maintenances/{id}/messages; reschedule: a PATCH moved the window',
            ),
          notify_subscribers: z
            .boolean()
            .nullable()
            .describe('Updates: whether subscribers were emailed; null for the other kinds'),
        }),
      )
      .describe('The timeline, oldest first'),
  })
  .meta({ id: 'Maintenance' });
