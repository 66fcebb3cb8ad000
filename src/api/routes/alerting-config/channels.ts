import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecretBox } from '../../../crypto/secret-box';
import {
  createChannel,
  deleteChannel,
  getChannel,
  listChannels,
  revealSigningSecret,
  updateChannel,
} from '../../../usecases/alerting/channels';
import { listSends } from '../../../usecases/alerting/sends';
import { IdempotencyHeaders, idempotentCreate } from '../../idempotency';
import { routeDoc } from '../../route-doc';
import {
  ChannelCreateBody,
  ChannelCreatedSchema,
  ChannelPatchBody,
  ChannelSchema,
  SendSchema,
} from '../../schemas/alerting';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../../schemas/common';

const tag = 'Alerting';

export const channelRoutes: FastifyPluginAsyncZod<{ box: SecretBox }> = async (app, opts) => {
  {
    const { errorResponses, ...doc } = routeDoc('listNotificationChannels', {
      summary: 'List notification channels',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/notification-channels',
      { schema: { ...doc, querystring: ListQuery, response: { 200: pageSchema(ChannelSchema), ...errorResponses } } },
      async (request) => {
        const page = await listChannels(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getNotificationChannel', {
      summary: 'Read a notification channel',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/notification-channels/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ChannelSchema, ...errorResponses } } },
      async (request) => getChannel(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createNotificationChannel', {
      summary: 'Create a notification channel',
      tag,
      errors: [...BODY_ERRORS, 'idempotency_key_reused'],
    });
    app.post(
      '/notification-channels',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: ChannelCreateBody,
          response: { 201: ChannelCreatedSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        // The recorded idempotent response never holds the signing secret; it is unsealed for each answer.
        const view = await idempotentCreate(request, reply, 'createNotificationChannel', (em) =>
          createChannel({ ...ctx, em }, opts.box, request.body),
        );
        const signingSecret = view.type === 'webhook' ? await revealSigningSecret(ctx, opts.box, view.id) : null;
        return signingSecret ? { ...view, signing_secret: signingSecret } : view;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateNotificationChannel', {
      summary: 'Update a notification channel',
      tag,
      checks: ["The type-specific fields belong to the channel's type (e.g. no `routing_key` on a Slack channel)"],
      errors: [...BODY_ERRORS, 'not_found'],
    });
    app.patch(
      '/notification-channels/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: ChannelPatchBody,
          response: { 200: ChannelSchema, ...errorResponses },
        },
      },
      async (request) => updateChannel(request.orgContext(), opts.box, request.params.id, request.body),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteNotificationChannel', {
      summary: 'Delete a notification channel',
      tag,
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/notification-channels/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ChannelSchema, ...errorResponses } } },
      async (request) => deleteChannel(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listNotificationSends', {
      summary: 'List sends of a notification channel',
      tag,
      errors: ['validation_failed', 'not_found'],
    });
    app.get(
      '/notification-channels/:id/sends',
      {
        schema: {
          ...doc,
          params: IdParams,
          querystring: ListQuery,
          response: { 200: pageSchema(SendSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listSends(request.orgContext(), request.params.id, request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
};
