import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createSilence, deleteSilence, getSilence, listSilences } from '../../../usecases/alerting/silences';
import { IdempotencyHeaders, idempotentCreate } from '../../idempotency';
import { routeDoc } from '../../route-doc';
import { SilenceCreateBody, SilenceListQuery, SilenceSchema } from '../../schemas/alerting';
import { BODY_ERRORS, IdParams, pageSchema } from '../../schemas/common';

const tag = 'Alerting';

export const silenceRoutes: FastifyPluginAsyncZod = async (app) => {
  {
    const { errorResponses, ...doc } = routeDoc('listSilences', {
      summary: 'List silences',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/silences',
      {
        schema: {
          ...doc,
          querystring: SilenceListQuery,
          response: { 200: pageSchema(SilenceSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listSilences(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSilence', {
      summary: 'Read a silence',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/silences/:id',
      { schema: { ...doc, params: IdParams, response: { 200: SilenceSchema, ...errorResponses } } },
      async (request) => getSilence(request.orgContext(), request.params.id),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createSilence', {
      summary: 'Create a silence',
      tag,
      checks: [
        'At least one of `rule_ids` and `service_ids`',
        '`ends_at` in the future and after `starts_at`',
        'Every id names a live alert rule or service of the organization (`rule_ids.0`, `service_ids.1`)',
      ],
      errors: [...BODY_ERRORS, 'idempotency_key_reused'],
    });
    app.post(
      '/silences',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: SilenceCreateBody,
          response: { 201: SilenceSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        return idempotentCreate(request, reply, 'createSilence', (em) =>
          createSilence({ ...ctx, em }, `api_key:${request.principal!.keyId}`, request.body),
        );
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteSilence', {
      summary: 'End and delete a silence',
      tag,
      errors: ['not_found'],
    });
    app.delete(
      '/silences/:id',
      { schema: { ...doc, params: IdParams, response: { 200: SilenceSchema, ...errorResponses } } },
      async (request) => deleteSilence(request.orgContext(), request.params.id),
    );
  }
};
