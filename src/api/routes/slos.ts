import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createSlo, deleteSlo, getSlo, listSlos, updateSlo } from '../../usecases/slos/slos';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import { SloCreateBody, SloPatchBody, SloSchema } from '../schemas/slos';

const tag = 'SLOs';

export const sloRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listSlos', {
      summary: 'List SLOs',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/slos',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(SloSchema), ...errorResponses } } },
      async (request) => {
        const page = await listSlos(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlo', {
      summary: 'Read an SLO with its attainment, error budget and burn rate',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/slos/:id',
      { schema: { ...doc, params: IdParams, response: { 200: SloSchema, ...errorResponses } } },
      async (request) => getSlo(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createSlo', {
      summary: 'Create an SLO',
      tag,
      errors: [...BODY_ERRORS, 'config_key_taken'],
      checks: [
        'Exactly one of `metric_id` and `service_id`, naming a live metric or service of the organization.',
        "`objective` is a decimal percent above 0 and at most 100 (`'99.9'`); a rolling `window.days` is a positive integer; `window.timezone` is an IANA zone.",
      ],
    });
    app.post(
      '/slos',
      { schema: { ...doc, body: SloCreateBody, response: { 201: SloSchema, ...errorResponses } } },
      async (request, reply) => {
        reply.code(201);
        return createSlo(request.orgContext(), request.body);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateSlo', {
      summary: 'Update an SLO',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'config_key_taken'],
      checks: [
        'Once the patch is applied: exactly one of `metric_id` and `service_id`, naming a live metric or service of the organization.',
        "`objective` is a decimal percent above 0 and at most 100 (`'99.9'`); a rolling `window.days` is a positive integer; `window.timezone` is an IANA zone.",
      ],
    });
    app.patch(
      '/slos/:id',
      { schema: { ...doc, params: IdParams, body: SloPatchBody, response: { 200: SloSchema, ...errorResponses } } },
      async (request) => updateSlo(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteSlo', {
      summary: 'Delete an SLO',
      tag,
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/slos/:id',
      { schema: { ...doc, params: IdParams, response: { 200: SloSchema, ...errorResponses } } },
      async (request) => deleteSlo(request.orgContext(), request.params.id),
    );
  }
};
