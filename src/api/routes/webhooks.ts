import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecretBox } from '../../crypto/secret-box';
import type { OutboxWorkflowStarter } from '../../usecases/events/ports';
import { getDelivery, listDeliveries, redeliver } from '../../usecases/webhooks/deliveries';
import { sendTestDelivery } from '../../usecases/webhooks/test-delivery';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  revealWebhookSecret,
  rotateWebhookSecret,
  updateWebhook,
} from '../../usecases/webhooks/subscriptions';
import { IdempotencyHeaders, idempotentCreate } from '../idempotency';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import {
  DeliveryListQuery,
  DeliveryParams,
  DeliverySchema,
  WebhookCreateBody,
  WebhookPatchBody,
  WebhookSchema,
  WebhookWithSecretSchema,
} from '../schemas/webhooks';

const tag = 'Webhooks';

export const webhookRoutes: FastifyPluginAsyncZod<{ box: SecretBox; starter?: OutboxWorkflowStarter }> = async (
  app,
  opts,
) => {
  {
    const { errorResponses, ...doc } = routeDoc('listWebhooks', {
      summary: 'List webhooks',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/webhooks',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(WebhookSchema), ...errorResponses } } },
      async (request) => {
        const page = await listWebhooks(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getWebhook', {
      summary: 'Read a webhook',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/webhooks/:id',
      { schema: { ...doc, params: IdParams, response: { 200: WebhookSchema, ...errorResponses } } },
      async (request) => getWebhook(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createWebhook', {
      summary: 'Create a webhook',
      tag,
      errors: [...BODY_ERRORS, 'quota_exceeded', 'idempotency_key_reused'],
    });
    app.post(
      '/webhooks',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: WebhookCreateBody,
          response: { 201: WebhookWithSecretSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        // The recorded idempotent response never holds the secret; it is unsealed for each answer.
        const view = await idempotentCreate(request, reply, 'createWebhook', (em) =>
          createWebhook({ ...ctx, em }, opts.box, request.body),
        );
        return { ...view, secret: await revealWebhookSecret(ctx, opts.box, view.id) };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateWebhook', {
      summary: 'Update a webhook',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'item_suspended_plan'],
    });
    app.patch(
      '/webhooks/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: WebhookPatchBody,
          response: { 200: WebhookSchema, ...errorResponses },
        },
      },
      async (request) => updateWebhook(request.orgContext(), request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteWebhook', {
      summary: 'Delete a webhook',
      tag,
      errors: ['not_found'],
    });
    app.delete(
      '/webhooks/:id',
      { schema: { ...doc, params: IdParams, response: { 200: WebhookSchema, ...errorResponses } } },
      async (request) => deleteWebhook(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('rotateWebhookSecret', {
      summary: 'Rotate the signing secret',
      tag,
      errors: ['not_found', 'item_suspended_plan'],
    });
    app.post(
      '/webhooks/:id/rotate-secret',
      { schema: { ...doc, params: IdParams, response: { 200: WebhookWithSecretSchema, ...errorResponses } } },
      async (request) => {
        const { view, secret } = await rotateWebhookSecret(request.orgContext(), opts.box, request.params.id);
        return { ...view, secret };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('testWebhook', {
      summary: 'Send a test delivery',
      tag,
      errors: ['not_found', 'webhook_disabled'],
    });
    app.post(
      '/webhooks/:id/test',
      { schema: { ...doc, params: IdParams, response: { 202: DeliverySchema, ...errorResponses } } },
      async (request, reply) => {
        const view = await sendTestDelivery(
          request.orgContext(),
          { starter: opts.starter },
          request.params.id,
          `api_key:${request.principal!.keyId}`,
        );
        reply.code(202);
        return view;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listWebhookDeliveries', {
      summary: 'List deliveries of a webhook',
      tag,
      errors: ['validation_failed', 'not_found'],
    });
    app.get(
      '/webhooks/:id/deliveries',
      {
        schema: {
          ...doc,
          params: IdParams,
          querystring: DeliveryListQuery,
          response: { 200: pageSchema(DeliverySchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listDeliveries(request.orgContext(), request.params.id, request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getWebhookDelivery', {
      summary: 'Read a delivery with its attempts',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/webhooks/:id/deliveries/:deliveryId',
      { schema: { ...doc, params: DeliveryParams, response: { 200: DeliverySchema, ...errorResponses } } },
      async (request) => getDelivery(request.orgContext(), request.params.id, request.params.deliveryId),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('redeliverWebhookDelivery', {
      summary: 'Send a delivery again',
      tag,
      errors: ['not_found', 'delivery_in_progress', 'webhook_disabled'],
    });
    app.post(
      '/webhooks/:id/deliveries/:deliveryId/redeliver',
      { schema: { ...doc, params: DeliveryParams, response: { 202: DeliverySchema, ...errorResponses } } },
      async (request, reply) => {
        const view = await redeliver(
          request.orgContext(),
          { starter: opts.starter },
          request.params.id,
          request.params.deliveryId,
        );
        reply.code(202);
        return view;
      },
    );
  }
};
