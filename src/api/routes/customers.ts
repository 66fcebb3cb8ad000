import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from '../../usecases/sla/customers';
import { IdempotencyHeaders, idempotentCreate } from '../idempotency';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import { CustomerCreateBody, CustomerPatchBody, CustomerSchema, presentCustomer } from '../schemas/customers';

const tag = 'Customers';

export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listCustomers', {
      summary: 'List customers',
      tag,
      errors: ['feature_locked', 'validation_failed'],
    });
    app.get(
      '/customers',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(CustomerSchema), ...errorResponses } } },
      async (request) => {
        const page = await listCustomers(request.orgContext(), request.query);
        return { items: page.items.map(presentCustomer), next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getCustomer', {
      summary: 'Read a customer',
      tag,
      errors: ['feature_locked', 'not_found'],
    });
    app.get(
      '/customers/:id',
      { schema: { ...doc, params: IdParams, response: { 200: CustomerSchema, ...errorResponses } } },
      async (request) => presentCustomer(await getCustomer(request.orgContext(), request.params.id)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createCustomer', {
      summary: 'Create a customer',
      tag,
      errors: [...BODY_ERRORS, 'feature_locked', 'quota_exceeded', 'idempotency_key_reused'],
    });
    app.post(
      '/customers',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: CustomerCreateBody,
          response: { 201: CustomerSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        idempotentCreate(request, reply, 'createCustomer', async (em) =>
          presentCustomer(await createCustomer({ ...request.orgContext(), em }, request.body)),
        ),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateCustomer', {
      summary: 'Update a customer',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'feature_locked', 'item_suspended_plan'],
    });
    app.patch(
      '/customers/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: CustomerPatchBody,
          response: { 200: CustomerSchema, ...errorResponses },
        },
      },
      async (request) => presentCustomer(await updateCustomer(request.orgContext(), request.params.id, request.body)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteCustomer', {
      summary: 'Delete a customer',
      tag,
      errors: ['feature_locked', 'not_found'],
    });
    app.delete(
      '/customers/:id',
      { schema: { ...doc, params: IdParams, response: { 200: CustomerSchema, ...errorResponses } } },
      async (request) => presentCustomer(await deleteCustomer(request.orgContext(), request.params.id)),
    );
  }
};
