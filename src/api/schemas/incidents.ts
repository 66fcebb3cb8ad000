import { z } from 'zod';
import { INCIDENT_STATES, MESSAGE_TYPES, SEVERITIES } from '../../domain/incident-state';
import { DateTime, InstantInput, ListQuery, Uuid } from './common';

const Title = z.string().trim().min(1).max(300);
const Severity = z.enum(SEVERITIES).describe('minor, major or critical');
const MessageType = z.enum(MESSAGE_TYPES);
const Body = z.string().trim().min(1).max(20_000);

export const IncidentCreateBody = z
  .strictObject({
    title: Title,
    severity: Severity.optional().describe('Default minor'),
    affected_services: z.array(Uuid).max(200).optional(),
    visible_to_customer_ids: z.array(Uuid).max(500).optional().describe('Restrict the incident to these customers; never shown publicly when set'),
    publish: z.boolean().optional().describe('Publish at once (default: a draft)'),
    initial_message: z.strictObject({ type: MessageType.optional().describe('Default Investigating'), body: Body }).optional(),
  })
  .meta({ id: 'IncidentCreate' });

export const IncidentPatchBody = z
  .strictObject({ title: Title.optional(), severity: Severity.optional(), affected_services: z.array(Uuid).max(200).optional() })
  .meta({ id: 'IncidentPatch' });

export const IncidentMessageBody = z.strictObject({ type: MessageType, body: Body }).meta({ id: 'IncidentMessageCreate' });

export const IncidentResolveBody = z.strictObject({ message: Body.optional().describe('Appended as a Resolved message') }).nullish();

export const IncidentListQuery = ListQuery.extend({
  state: z.enum(INCIDENT_STATES.filter((s) => s !== 'deleted') as ['draft', 'published', 'resolved', 'canceled']).optional(),
  since: InstantInput.optional().describe('Only incidents created at or after this instant'),
});

export const MetricIdParams = z.object({ metricId: z.string() });

export const IncidentSchema = z
  .object({
    id: Uuid,
    title: z.string(),
    severity: Severity,
    state: z.enum(INCIDENT_STATES).describe('Derived from the timestamps'),
    affected_services: z.array(Uuid),
    visible_to_customer_ids: z.array(Uuid),
    published_at: DateTime.nullable(),
    resolved_at: DateTime.nullable(),
    canceled_at: DateTime.nullable(),
    deleted_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    messages: z.array(z.object({ id: Uuid, type: MessageType, body: z.string(), posted_at: DateTime })).describe('The timeline, oldest first'),
  })
  .meta({ id: 'Incident' });
