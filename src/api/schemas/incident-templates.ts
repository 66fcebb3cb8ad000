import { z } from 'zod';
import { MESSAGE_TYPES, SEVERITIES } from '../../domain/incident-state';
import { DateTime, Uuid } from './common';
import { Impact, ServiceImpactsInput } from './incidents';

const Name = z.string().trim().min(1).max(200);
const Title = z.string().trim().min(1).max(300);
const Body = z.string().trim().min(1).max(20_000).nullable();
const Severity = z.enum(SEVERITIES).describe('minor, major or critical');
const MessageType = z.enum(MESSAGE_TYPES);

export const IncidentTemplateCreateBody = z
  .strictObject({
    name: Name.describe('How operators find it, e.g. "Payment provider down"'),
    title: Title.describe('Title of the incident it starts'),
    body: Body.optional().describe('First message of the incident it starts; null: none'),
    severity: Severity.optional().describe('Default minor'),
    message_type: MessageType.optional().describe('Type of the first message; default Investigating'),
    affected_services: z.array(Uuid).max(200).optional(),
    service_impacts: ServiceImpactsInput.optional(),
  })
  .meta({ id: 'IncidentTemplateCreate' });

export const IncidentTemplatePatchBody = z
  .strictObject({
    name: Name.optional(),
    title: Title.optional(),
    body: Body.optional(),
    severity: Severity.optional(),
    message_type: MessageType.optional(),
    affected_services: z.array(Uuid).max(200).optional(),
    service_impacts: ServiceImpactsInput.optional().describe(
      'Replaces the chosen impacts: affected services left out follow the severity',
    ),
  })
  .meta({ id: 'IncidentTemplatePatch' });

export const IncidentTemplateSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    title: z.string(),
    body: z.string().nullable(),
    severity: Severity,
    message_type: MessageType,
    affected_services: z.array(Uuid),
    service_impacts: z
      .array(z.object({ service_id: Uuid, impact: Impact }))
      .describe('One entry per affected service: the impact chosen, or the one its severity implies'),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'IncidentTemplate' });
