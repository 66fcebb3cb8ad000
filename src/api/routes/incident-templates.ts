import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createIncidentTemplate,
  deleteIncidentTemplate,
  getIncidentTemplate,
  listIncidentTemplates,
  updateIncidentTemplate,
} from '../../usecases/incidents/templates';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import {
  IncidentTemplateCreateBody,
  IncidentTemplatePatchBody,
  IncidentTemplateSchema,
} from '../schemas/incident-templates';

const tag = 'Incident templates';

/** Prepared incidents (title, first message, severity, services and their impacts). */
export const incidentTemplateRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listIncidentTemplates', {
      summary: 'List incident templates',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/incident-templates',
      {
        schema: {
          ...doc,
          querystring: ListQuery,
          response: { 200: pageSchema(IncidentTemplateSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listIncidentTemplates(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getIncidentTemplate', {
      summary: 'Read an incident template',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/incident-templates/:id',
      { schema: { ...doc, params: IdParams, response: { 200: IncidentTemplateSchema, ...errorResponses } } },
      async (request) => getIncidentTemplate(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createIncidentTemplate', {
      summary: 'Create an incident template',
      tag,
      errors: [...BODY_ERRORS, 'unknown_services'],
    });
    app.post(
      '/incident-templates',
      {
        schema: {
          ...doc,
          body: IncidentTemplateCreateBody,
          response: { 201: IncidentTemplateSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const made = await createIncidentTemplate(request.orgContext(), request.body);
        reply.code(201);
        return made;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateIncidentTemplate', {
      summary: 'Update an incident template',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'unknown_services'],
    });
    app.patch(
      '/incident-templates/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: IncidentTemplatePatchBody,
          response: { 200: IncidentTemplateSchema, ...errorResponses },
        },
      },
      async (request) => updateIncidentTemplate(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteIncidentTemplate', {
      summary: 'Delete an incident template',
      tag,
      errors: ['not_found'],
    });
    app.delete(
      '/incident-templates/:id',
      { schema: { ...doc, params: IdParams, response: { 200: IncidentTemplateSchema, ...errorResponses } } },
      async (request) => deleteIncidentTemplate(request.orgContext(), request.params.id),
    );
  }
};
