import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createChangeEvent, getChangeEvent, listChangeEvents } from '../../usecases/events/change-events';
import { IdempotencyHeaders, idempotentCreate } from '../idempotency';
import { routeDoc } from '../route-doc';
import {
  ChangeEventCreateBody,
  ChangeEventListQuery,
  ChangeEventSchema,
  presentChangeEvent,
} from '../schemas/change-events';
import { BODY_ERRORS, IdParams, pageSchema } from '../schemas/common';

const tag = 'Change events';

export const changeEventRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listChangeEvents', {
      summary: 'List change events',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/change-events',
      {
        schema: {
          ...doc,
          querystring: ChangeEventListQuery,
          response: { 200: pageSchema(ChangeEventSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listChangeEvents(request.orgContext(), request.query);
        return { items: page.items.map(presentChangeEvent), next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getChangeEvent', {
      summary: 'Read a change event',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/change-events/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ChangeEventSchema, ...errorResponses } } },
      async (request) => presentChangeEvent(await getChangeEvent(request.orgContext(), request.params.id)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createChangeEvent', {
      summary: 'Report a change event',
      tag,
      errors: [...BODY_ERRORS, 'unknown_services', 'idempotency_key_reused'],
    });
    app.post(
      '/change-events',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: ChangeEventCreateBody,
          response: { 201: ChangeEventSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        idempotentCreate(request, reply, 'createChangeEvent', async (em) =>
          presentChangeEvent(await createChangeEvent({ ...request.orgContext(), em }, request.body)),
        ),
    );
  }
};
