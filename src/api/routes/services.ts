import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createService, deleteService, listServices, updateService } from '../../usecases/services/services';
import { sendCachedJson } from '../cached-json';
import { IdempotencyHeaders, idempotentCreate } from '../idempotency';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import {
  ServiceCreateBody,
  ServiceDetailSchema,
  ServicePatchBody,
  ServiceSchema,
  presentService,
} from '../schemas/services';
import { serviceDetail } from '../../usecases/services/service-status';
import type { MetricScheduler } from '../../usecases/metrics/ports';

const tag = 'Services';

export const serviceRoutes: FastifyPluginAsyncZod<{ scheduler: MetricScheduler }> = async (app, opts) => {
  {
    const { errorResponses, ...doc } = routeDoc('listServices', {
      summary: 'List services',
      tag,
      errors: ['validation_failed'],
    });
    const Page = pageSchema(ServiceSchema);
    app.get(
      '/services',
      { schema: { ...doc, querystring: ListQuery, response: { 200: Page, ...errorResponses } } },
      async (request, reply) => {
        const ctx = request.orgContext();
        const { limit, cursor } = request.query;
        return sendCachedJson(request, reply, `services?limit=${limit}&cursor=${cursor ?? ''}`, Page, async () => {
          const page = await listServices(ctx, request.query);
          return { items: page.items.map(presentService), next_cursor: page.nextCursor };
        });
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getService', {
      summary: 'Read a service with its status, metrics and 90-day uptime',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/services/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ServiceDetailSchema, ...errorResponses } } },
      async (request) => {
        const { service, ...detail } = await serviceDetail(request.orgContext(), request.params.id);
        return { ...presentService(service), ...detail };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createService', {
      summary: 'Create a service',
      tag,
      errors: [...BODY_ERRORS, 'quota_exceeded', 'config_key_taken', 'idempotency_key_reused'],
    });
    app.post(
      '/services',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: ServiceCreateBody,
          response: { 201: ServiceSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        idempotentCreate(request, reply, 'createService', async (em) =>
          presentService(await createService({ ...request.orgContext(), em }, request.body)),
        ),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateService', {
      summary: 'Update a service',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'item_suspended_plan', 'config_key_taken'],
    });
    app.patch(
      '/services/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: ServicePatchBody,
          response: { 200: ServiceSchema, ...errorResponses },
        },
      },
      async (request) => presentService(await updateService(request.orgContext(), request.params.id, request.body)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteService', {
      summary: 'Delete a service',
      tag,
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/services/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ServiceSchema, ...errorResponses } } },
      async (request) =>
        presentService(
          await deleteService(request.orgContext(), { metricScheduler: opts.scheduler }, request.params.id),
        ),
    );
  }
};
