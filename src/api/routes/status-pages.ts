import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type StatusSite, pageBaseUrl } from '../../domain/status-page/site';
import type { SecretBox } from '../../crypto/secret-box';
import {
  createStatusPage,
  deleteStatusPage,
  getStatusPage,
  listStatusPages,
  updateStatusPage,
} from '../../usecases/status-pages/pages';
import { importSubscribers, rowsFromCsv } from '../../usecases/status-pages/subscriber-import';
import { deleteSubscriber, getSubscriber, listSubscribers } from '../../usecases/status-pages/subscribers';
import { mintViewerToken } from '../../usecases/status-pages/viewer-tokens';
import { IdempotencyHeaders, idempotentCreate } from '../idempotency';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, ListQuery, pageSchema } from '../schemas/common';
import {
  SUBSCRIBER_STATES,
  StatusPageCreateBody,
  StatusPagePatchBody,
  StatusPageSchemaOut,
  SubscriberImportBody,
  SubscriberImportResult,
  SubscriberOut,
  ViewerTokenBody,
  ViewerTokenOut,
  presentStatusPage,
  presentSubscriber,
} from '../schemas/status-pages';

const tag = 'Status pages';
const SubscriberParams = z.object({
  id: z.string().describe('Status page id'),
  subscriberId: z.string().describe('Subscriber id'),
});
const SubscriberListQuery = ListQuery.extend({
  state: z.enum(SUBSCRIBER_STATES).optional().describe('Only subscribers in this state'),
});

export const statusPageRoutes: FastifyPluginAsyncZod<{ box: SecretBox; site: StatusSite }> = async (app, opts) => {
  const present = (p: Parameters<typeof presentStatusPage>[0]) =>
    presentStatusPage(p, pageBaseUrl(opts.site, p.subdomain));
  {
    const { errorResponses, ...doc } = routeDoc('listStatusPages', {
      summary: 'List status pages',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/status-pages',
      {
        schema: {
          ...doc,
          querystring: ListQuery,
          response: { 200: pageSchema(StatusPageSchemaOut), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listStatusPages(request.orgContext(), request.query);
        return { items: page.items.map(present), next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getStatusPage', {
      summary: 'Read a status page',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/status-pages/:id',
      { schema: { ...doc, params: IdParams, response: { 200: StatusPageSchemaOut, ...errorResponses } } },
      async (request) => present(await getStatusPage(request.orgContext(), request.params.id)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createStatusPage', {
      summary: 'Create a status page',
      tag,
      errors: [...BODY_ERRORS, 'subdomain_taken', 'quota_exceeded', 'idempotency_key_reused'],
      checks: [
        '`subdomain` is 3 to 63 lower-case letters, digits and single hyphens, and not a reserved name.',
        'Every component of `groups` names a live service, metric or SLO of the organization, and none appears twice.',
        '`viewer_public_key` is a PEM public key (SPKI) for RS256 (RSA of 2048 bits or more), PS256, ES256 (P-256) or EdDSA (Ed25519).',
      ],
    });
    app.post(
      '/status-pages',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: StatusPageCreateBody,
          response: { 201: StatusPageSchemaOut, ...errorResponses },
        },
      },
      async (request, reply) => {
        return idempotentCreate(request, reply, 'createStatusPage', async (em) =>
          present(await createStatusPage({ ...request.orgContext(), em }, opts.box, request.body)),
        );
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateStatusPage', {
      summary: 'Update a status page',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'subdomain_taken', 'item_suspended_plan'],
      checks: [
        '`subdomain` is 3 to 63 lower-case letters, digits and single hyphens, and not a reserved name.',
        'Every component of `groups` names a live service, metric or SLO of the organization, and none appears twice.',
        '`viewer_public_key` is a PEM public key (SPKI) for RS256 (RSA of 2048 bits or more), PS256, ES256 (P-256) or EdDSA (Ed25519).',
      ],
    });
    app.patch(
      '/status-pages/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: StatusPagePatchBody,
          response: { 200: StatusPageSchemaOut, ...errorResponses },
        },
      },
      async (request) => {
        return present(await updateStatusPage(request.orgContext(), request.params.id, request.body));
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteStatusPage', {
      summary: 'Delete a status page',
      tag,
      errors: ['not_found', 'in_use'],
    });
    app.delete(
      '/status-pages/:id',
      { schema: { ...doc, params: IdParams, response: { 200: StatusPageSchemaOut, ...errorResponses } } },
      async (request) => present(await deleteStatusPage(request.orgContext(), request.params.id)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listSubscribers', {
      summary: "List a page's subscribers",
      tag,
      errors: ['not_found', 'validation_failed'],
    });
    app.get(
      '/status-pages/:id/subscribers',
      {
        schema: {
          ...doc,
          params: IdParams,
          querystring: SubscriberListQuery,
          response: { 200: pageSchema(SubscriberOut), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listSubscribers(request.orgContext(), request.params.id, request.query);
        return { items: page.items.map(presentSubscriber), next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSubscriber', {
      summary: 'Read a subscriber',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/status-pages/:id/subscribers/:subscriberId',
      { schema: { ...doc, params: SubscriberParams, response: { 200: SubscriberOut, ...errorResponses } } },
      async (request) =>
        presentSubscriber(await getSubscriber(request.orgContext(), request.params.id, request.params.subscriberId)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteSubscriber', {
      summary: 'Delete a subscriber',
      tag,
      errors: ['not_found'],
    });
    app.delete(
      '/status-pages/:id/subscribers/:subscriberId',
      { schema: { ...doc, params: SubscriberParams, response: { 200: SubscriberOut, ...errorResponses } } },
      async (request) =>
        presentSubscriber(await deleteSubscriber(request.orgContext(), request.params.id, request.params.subscriberId)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('importSubscribers', {
      summary: 'Import subscribers',
      tag,
      errors: [...BODY_ERRORS, 'not_found'],
      checks: ['`csv` parses, with a header row that has an `email` column.', 'At most 10,000 rows.'],
    });
    app.post(
      '/status-pages/:id/subscribers/import',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: SubscriberImportBody,
          response: { 200: SubscriberImportResult, ...errorResponses },
        },
      },
      async (request) => {
        const rows = request.body.csv !== undefined ? rowsFromCsv(request.body.csv) : request.body.subscribers!;
        return importSubscribers(request.orgContext(), request.params.id, rows, request.body.skip_confirmation);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createViewerToken', {
      summary: 'Mint a customer viewer token',
      tag,
      errors: [...BODY_ERRORS, 'not_found', 'unknown_customers'],
    });
    app.post(
      '/status-pages/:id/viewer-tokens',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: ViewerTokenBody,
          response: { 201: ViewerTokenOut, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { page, token, expiresAt } = await mintViewerToken(
          request.orgContext(),
          opts.box,
          request.params.id,
          request.body,
        );
        reply.code(201);
        return {
          token,
          customer_id: request.body.customer_id,
          expires_at: expiresAt.toISOString(),
          url: `${pageBaseUrl(opts.site, page.subdomain)}/?viewer_token=${token}`,
        };
      },
    );
  }
};
