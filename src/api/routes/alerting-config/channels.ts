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
      description: 'Secrets (URLs, keys) are never shown after creation; `secret_hint` tells channels apart.',
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
      description: [
        'Where alerts go. The body is `name`, `type` and the fields of that type at the top level:',
        '- `email`: `addresses` (1 to 20);',
        '- `slack`, `teams`, `discord`: `url`, the incoming-webhook (Teams: Workflows) URL;',
        '- `webhook`: `url`; messages are signed with the Standard Webhooks scheme, and the response carries the generated `signing_secret`, once;',
        '- `pagerduty`: `routing_key` (Events API v2 integration key, 32 characters);',
        '- `opsgenie`: `api_key`, and `region` `us` (default) or `eu`.',
        '',
        'URLs and keys are sealed at rest and never answered again (`secret_hint` shows the host or the last four characters). URLs obey the webhook rules: http or https, and a public address when the message is sent. Accepts an `Idempotency-Key` (a replay shows the current signing secret).',
      ].join('\n'),
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
      description:
        "Changes only the fields sent: `name`, `enabled`, and the fields of the channel's type (`addresses`, `region`); a secret field sent (`url`, `routing_key`, `api_key`) replaces the stored one. The type cannot change. A webhook channel keeps its signing secret.",
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
      description:
        'Soft delete; repeating it answers 200 with the same channel. Refused with 409 `in_use` while an escalation policy targets it (`referenced_by.escalation_policies`).',
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
      description:
        'Every message to the channel (alert actions and tests), newest first, each with every attempt (time, status code, latency, error).',
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
