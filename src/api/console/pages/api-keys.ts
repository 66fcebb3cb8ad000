import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import { zonedTimeToUtc } from '../../../domain/periods';
import {
  apiKeyCreatedBody,
  apiKeyFormBody,
  apiKeyListBody,
  apiKeyRevokeBody,
  keyHref,
} from '../../../render/console/pages/api-keys';
import {
  createOrgApiKey,
  getOrgApiKey,
  listOrgApiKeys,
  revokeOrgApiKey,
} from '../../../usecases/organizations/api-keys';
import { type ConsoleViewer, redirectWithFlash, sendPage, viewer } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, flashOf, listQuery } from '../forms';
import { shownOnce } from '../shown-once';

const NAV = '/console/api-keys';
/** A new key's secret is shown once, on the page the create form redirects to (see shownOnce). */
const SECRET_COOKIE = 'vigil_new_key';
const SECRET_PATH = '/console/api-keys';

/** Keys are the owner's business, as in the navigation (the API has no route that makes keys). */
export function requireOwner(request: FastifyRequest): ConsoleViewer {
  const v = viewer(request);
  if (v.role !== 'owner')
    throw new ProblemError('forbidden', `Your role (${v.role}) cannot do this: only owners manage users and API keys.`);
  return v;
}

/** A datetime-local reading in the viewer's zone as an instant; '' is no expiry. */
function expiryOf(local: string, zone: string): { at: Date | null; error?: string } {
  if (local === '') return { at: null };
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return { at: null, error: 'Give a date and time (YYYY-MM-DDTHH:MM), or leave it empty' };
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59)
    return { at: null, error: 'That date and time does not exist' };
  return { at: new Date(zonedTimeToUtc({ year, month, day, hour, minute, second: 0 }, zone)) };
}

export const apiKeyPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const secrets = shownOnce(deps, SECRET_COOKIE, SECRET_PATH);

  app.get('/api-keys', async (request, reply) => {
    const v = requireOwner(request);
    const page = await listOrgApiKeys(v.ctx, listQuery(request.query, 50));
    return sendPage(reply, v, NAV, {
      title: 'API keys',
      flash: flashOf(request.query),
      body: apiKeyListBody(page.items, page.nextCursor, v.timeZone),
    });
  });

  app.get('/api-keys/new', async (request, reply) => {
    const v = requireOwner(request);
    return sendPage(reply, v, NAV, {
      title: 'Create an API key',
      body: apiKeyFormBody({ csrf: v.csrf, name: '', scopes: [], expiresAt: '', zone: v.timeZone, problem: null }),
    });
  });

  app.post('/api-keys/new', async (request, reply) => {
    const v = requireOwner(request);
    const input = {
      name: field(request.body, 'name'),
      scopes: fields(request.body, 'scopes'),
      expiresAt: field(request.body, 'expires_at').trim(),
    };
    const expiry = expiryOf(input.expiresAt, v.timeZone);
    const done = await attempt(() =>
      createOrgApiKey(v.ctx, {
        name: input.name,
        scopes: input.scopes,
        expiresAt: expiry.at,
        ...(expiry.error ? { expiryError: expiry.error } : {}),
      }),
    );
    if (!done.ok)
      return sendPage(
        reply,
        v,
        NAV,
        {
          title: 'Create an API key',
          body: apiKeyFormBody({ csrf: v.csrf, ...input, zone: v.timeZone, problem: done.problem }),
        },
        done.status,
      );
    const { key, plaintext } = done.value;
    secrets.put(reply, v, key.id, plaintext);
    return reply
      .code(303)
      .header('location', `${keyHref(key.id)}/created`)
      .send();
  });

  app.get<{ Params: { id: string } }>('/api-keys/:id/created', async (request, reply) => {
    const v = requireOwner(request);
    const key = await getOrgApiKey(v.ctx, request.params.id);
    const secret = secrets.take(request, reply, v, key.id);
    return sendPage(reply, v, NAV, { title: `API key: ${key.name}`, body: apiKeyCreatedBody(key, secret, v.timeZone) });
  });

  app.get<{ Params: { id: string } }>('/api-keys/:id/revoke', async (request, reply) => {
    const v = requireOwner(request);
    const key = await getOrgApiKey(v.ctx, request.params.id);
    return sendPage(reply, v, NAV, { title: `Revoke ${key.name}?`, body: apiKeyRevokeBody(key, v.csrf, v.timeZone) });
  });

  app.post<{ Params: { id: string } }>('/api-keys/:id/revoke', async (request, reply) => {
    const v = requireOwner(request);
    const key = await revokeOrgApiKey(v.ctx, request.params.id);
    return redirectWithFlash(
      reply,
      '/console/api-keys',
      `Revoked ${key.name} (${key.prefix}…): requests with it now answer 401.`,
    );
  });
};
