import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addIncidentMessage,
  createIncident,
  deleteIncident,
  getIncident,
  listIncidents,
  publishIncident,
  resolveIncident,
  updateIncident,
} from '../../usecases/incidents/incidents';
import { IdempotencyHeaders, idempotentUnit } from '../idempotency';
import { routeDoc } from '../route-doc';
import { CreateWarnings } from '../schemas/create-warnings';
import { incidentFromMetric } from '../../usecases/incidents/from-metric';
import { incidentFromAlert } from '../../usecases/incidents/from-alert';
import { editIncidentMessage } from '../../usecases/incidents/message-edits';
import { BODY_ERRORS, IdParams, pageSchema } from '../schemas/common';
import {
  AlertIdParams,
  IncidentCreateBody,
  IncidentListQuery,
  IncidentMessageBody,
  IncidentMessagePatchBody,
  IncidentPatchBody,
  IncidentResolveBody,
  IncidentSchema,
  MessageIdParams,
  MetricIdParams,
} from '../schemas/incidents';

const tag = 'Incidents';

export const incidentRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listIncidents', {
      summary: 'List incidents',
      tag,
      description: 'Newest first; filters `state` and `since` (created at or after).',
      errors: ['validation_failed'],
    });
    app.get(
      '/incidents',
      {
        schema: {
          ...doc,
          querystring: IncidentListQuery,
          response: { 200: pageSchema(IncidentSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listIncidents(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getIncident', {
      summary: 'Read an incident',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/incidents/:id',
      { schema: { ...doc, params: IdParams, response: { 200: IncidentSchema, ...errorResponses } } },
      async (request) => getIncident(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createIncident', {
      summary: 'Create an incident',
      tag,
      description:
        "A draft unless `publish` is true. Events: incident.created (and incident.published, incident.message_added). Without `affected_services` it is shown on every status page of the organization: the answer's `warnings` says so (`shown_on_every_status_page`). `service_impacts` gives a service its impact (and makes it affected); the others follow the severity. Accepts an `Idempotency-Key`.",
      errors: [...BODY_ERRORS, 'unknown_services', 'unknown_customers', 'idempotency_key_reused'],
    });
    app.post(
      '/incidents',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: IncidentCreateBody,
          response: {
            201: IncidentSchema.extend({ warnings: CreateWarnings }).meta({ id: 'IncidentCreated' }),
            ...errorResponses,
          },
        },
      },
      async (request, reply) =>
        createIncident(request.orgContext(), request.body, idempotentUnit(request, reply, 'createIncident')),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createIncidentFromMetric', {
      summary: 'Create a draft incident from a metric that flipped status',
      tag,
      description:
        'Pre-fills, from the metric\'s latest status flip, a title and first Investigating message in words customers understand ("We are investigating problems with Checkout since 23:23 CET.": the service, and the time in the zone of the status page showing it, else UTC), severity (unhealthy or down → major, otherwise minor) and the affected service. What was measured (value or reason code, votes, locations) goes to `internal_note`, which no status page, feed or subscriber email shows. The incident is a draft: publish it when ready. Event: incident.created.',
      errors: ['not_found'],
    });
    app.post(
      '/incidents/from-metric/:metricId',
      { schema: { ...doc, params: MetricIdParams, response: { 201: IncidentSchema, ...errorResponses } } },
      async (request, reply) => {
        const view = await incidentFromMetric(request.orgContext(), request.params.metricId);
        reply.code(201);
        return view;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createIncidentFromAlert', {
      summary: 'Create a draft incident from an alert',
      tag,
      description:
        "As from a metric: an alert on a metric is drafted from that metric's latest flip; one on a service or an SLO names that service, since the alert triggered (severity critical → major, otherwise minor). The alert (title, summary, subject, ids) goes to `internal_note`. An alert about an agent, a location or an SLA statement names no service customers see: 400 `validation_failed` at `alertId`. Event: incident.created.",
      errors: ['not_found', 'validation_failed'],
    });
    app.post(
      '/incidents/from-alert/:alertId',
      { schema: { ...doc, params: AlertIdParams, response: { 201: IncidentSchema, ...errorResponses } } },
      async (request, reply) => {
        const view = await incidentFromAlert(request.orgContext(), request.params.alertId);
        reply.code(201);
        return view;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateIncidentMessage', {
      summary: 'Edit a timeline message',
      tag,
      description:
        'Replaces the body, of a draft or a published incident; the replaced body is kept in `previous_bodies` and `edited_at` is set. Event: incident.updated. Subscribers are not emailed about an edit unless `notify_subscribers` is true (only for the latest message of a published incident: event incident.message_added, emailed as an update). A message of another incident, or of another organization, answers 404.',
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.patch(
      '/incidents/:id/messages/:messageId',
      {
        schema: {
          ...doc,
          params: MessageIdParams,
          body: IncidentMessagePatchBody,
          response: { 200: IncidentSchema, ...errorResponses },
        },
      },
      async (request) =>
        editIncidentMessage(request.orgContext(), request.params.id, request.params.messageId, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateIncident', {
      summary: 'Edit title, severity or affected services',
      tag,
      description:
        'Also `service_impacts` (replaces the chosen impacts). Works on published incidents too. Event: incident.updated, only when a field changes value; a PATCH that changes nothing answers the incident as it is (same `updated_at`, no event).',
      errors: [...BODY_ERRORS, 'not_found', 'unknown_services'],
    });
    app.patch(
      '/incidents/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: IncidentPatchBody,
          response: { 200: IncidentSchema, ...errorResponses },
        },
      },
      async (request) => updateIncident(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteIncident', {
      summary: 'Delete an incident',
      tag,
      description: 'Soft delete; repeating it answers 200. Event: incident.deleted (once).',
      errors: ['not_found'],
    });
    app.delete(
      '/incidents/:id',
      { schema: { ...doc, params: IdParams, response: { 200: IncidentSchema, ...errorResponses } } },
      async (request) => deleteIncident(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('addIncidentMessage', {
      summary: 'Append a timeline message',
      tag,
      description:
        'A `Resolved` message also resolves a published incident. Events: incident.message_added (and incident.resolved). With `notify_subscribers: false` no subscriber email goes out for it (nor for the resolve it makes); webhooks still receive the events.',
      errors: [...BODY_ERRORS, 'not_found', 'not_published'],
    });
    app.post(
      '/incidents/:id/messages',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: IncidentMessageBody,
          response: { 200: IncidentSchema, ...errorResponses },
        },
      },
      async (request) => addIncidentMessage(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('publishIncident', {
      summary: 'Publish a draft',
      tag,
      description: 'Event: incident.published.',
      errors: ['not_found', 'already_published'],
    });
    app.post(
      '/incidents/:id/publish',
      { schema: { ...doc, params: IdParams, response: { 200: IncidentSchema, ...errorResponses } } },
      async (request) => publishIncident(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('resolveIncident', {
      summary: 'Resolve a published incident',
      tag,
      description: 'Optionally with a closing message (appended as Resolved). Event: incident.resolved.',
      errors: [...BODY_ERRORS, 'not_found', 'already_resolved', 'not_published'],
    });
    app.post(
      '/incidents/:id/resolve',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: IncidentResolveBody,
          response: { 200: IncidentSchema, ...errorResponses },
        },
      },
      async (request) => resolveIncident(request.orgContext(), request.params.id, request.body?.message),
    );
  }
};
