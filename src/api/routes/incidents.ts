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
