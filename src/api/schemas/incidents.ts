import { z } from 'zod';
import { IMPACTS } from '../../domain/incident-impact';
import { INCIDENT_STATES, MESSAGE_TYPES, SEVERITIES } from '../../domain/incident-state';
import { DateTime, InstantInput, ListQuery, Uuid } from './common';

const Title = z.string().trim().min(1).max(300);
const Severity = z.enum(SEVERITIES).describe('minor, major or critical');
const MessageType = z.enum(MESSAGE_TYPES);
const Body = z.string().trim().min(1).max(20_000);
export const Impact = z.enum(IMPACTS).describe('degraded_performance, partial_outage or major_outage');
const InternalNote = z
  .string()
  .trim()
  .min(1)
  .max(20_000)
  .describe(
    'For the organization only (what was measured, who looked): shown by the API and the console, never on a status page, feed or subscriber email',
  );
const NotifySubscribers = z
  .boolean()
  .optional()
  .describe("Email the status pages' subscribers about this message (default true)");

const ServiceImpactItem = z.strictObject({ service_id: Uuid, impact: Impact }).meta({ id: 'ServiceImpact' });

/** Impact per affected service; each service at most once. */
export const ServiceImpactsInput = z
  .array(ServiceImpactItem)
  .max(200)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((x, n) => {
      const key = x.service_id.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [n, 'service_id'], message: 'This service already has an impact' });
      seen.add(key);
    });
  })
  .describe(
    'Impact per service; a service named here is affected too. Affected services left out get the impact of the severity (minor: degraded_performance, major: partial_outage, critical: major_outage).',
  );

export const IncidentCreateBody = z
  .strictObject({
    title: Title,
    severity: Severity.optional().describe('Default minor'),
    affected_services: z.array(Uuid).max(200).optional(),
    visible_to_customer_ids: z
      .array(Uuid)
      .max(500)
      .optional()
      .describe('Restrict the incident to these customers; never shown publicly when set'),
    publish: z.boolean().optional().describe('Publish at once (default: a draft)'),
    initial_message: z
      .strictObject({
        type: MessageType.optional().describe('Default Investigating'),
        body: Body,
        notify_subscribers: NotifySubscribers,
      })
      .optional(),
    service_impacts: ServiceImpactsInput.optional(),
    internal_note: InternalNote.optional(),
  })
  .meta({ id: 'IncidentCreate' });

export const IncidentPatchBody = z
  .strictObject({
    title: Title.optional(),
    severity: Severity.optional(),
    affected_services: z.array(Uuid).max(200).optional(),
    service_impacts: ServiceImpactsInput.optional().describe(
      'Replaces the chosen impacts: affected services left out follow the severity again',
    ),
    internal_note: InternalNote.nullable()
      .optional()
      .describe('Replaces the internal note; null clears it. Never shown publicly'),
  })
  .meta({ id: 'IncidentPatch' });

export const IncidentMessageBody = z
  .strictObject({ type: MessageType, body: Body, notify_subscribers: NotifySubscribers })
  .meta({ id: 'IncidentMessageCreate' });

export const IncidentMessagePatchBody = z
  .strictObject({
    body: Body.describe('The new body; the one it replaces is kept in `previous_bodies`'),
    notify_subscribers: z
      .boolean()
      .optional()
      .describe(
        "Email the edited message to the status pages' subscribers again (default false: a correction is not emailed). Only for the latest message of a published incident",
      ),
  })
  .meta({ id: 'IncidentMessagePatch' });

export const MessageIdParams = z.object({
  id: z.string().describe('The incident'),
  messageId: z.string().describe('A message of its timeline'),
});

export const AlertIdParams = z.object({
  alertId: z.string().describe('The alert whose subject the incident is drafted from'),
});

export const IncidentResolveBody = z
  .strictObject({ message: Body.optional().describe('Appended as a Resolved message') })
  .nullish();

export const IncidentListQuery = ListQuery.extend({
  state: z
    .enum(INCIDENT_STATES.filter((s) => s !== 'deleted') as ['draft', 'published', 'resolved', 'canceled'])
    .optional()
    .describe('Only incidents in this state'),
  since: InstantInput.optional().describe('Only incidents created at or after this instant'),
});

export const MetricIdParams = z.object({
  metricId: z.string().describe('The metric whose latest status flip the incident is drafted from'),
});

export const IncidentSchema = z
  .object({
    id: Uuid,
    title: z.string(),
    severity: Severity,
    state: z.enum(INCIDENT_STATES).describe('Derived from the timestamps'),
    affected_services: z.array(Uuid),
    service_impacts: z
      .array(z.object({ service_id: Uuid, impact: Impact }))
      .describe('One entry per affected service, in their order: the impact chosen, or the one its severity implies'),
    visible_to_customer_ids: z.array(Uuid),
    published_at: DateTime.nullable(),
    resolved_at: DateTime.nullable(),
    canceled_at: DateTime.nullable(),
    deleted_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    messages: z
      .array(
        z.object({
          id: Uuid,
          type: MessageType,
          body: z.string(),
          posted_at: DateTime,
          notify_subscribers: z.boolean().describe('False: subscribers were not emailed about it'),
          edited_at: DateTime.nullable().describe('When the body was last edited; null: never'),
          previous_bodies: z
            .array(z.object({ body: z.string(), replaced_at: DateTime }))
            .describe('The bodies edits replaced, oldest first'),
        }),
      )
      .describe('The timeline, oldest first'),
    internal_note: z
      .string()
      .nullable()
      .describe(
        'For the organization only (an incident drafted from a metric or an alert: what was measured); never on a status page, feed or subscriber email',
      ),
  })
  .meta({ id: 'Incident' });
