import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOG, ProblemError } from '../../domain/error-catalog';
import { CONSOLE_CSS, consolePage, publicConsolePage } from '../../render/console/layout';
import { type FormProblem, problemBox } from '../../render/console/forms';
import { CONSOLE_JS } from '../../render/console/script';
import { sessionOf } from '../../usecases/console/sessions';
import { SESSION_COOKIE, chromeOf, csrfMatches, viewerOf } from './context';
import { consoleSignInRoutes } from './sign-in-routes';
import type { ConsoleDeps } from './deps';
import { consolePages } from './pages';
import { isDatabaseUnavailable } from '../plugins/errors';
import { UNSTORABLE_MESSAGE, unstorableStringAt } from '../plugins/json-body';
import { takeFlash } from './flash';

/** Paths served without a session. */
const OPEN = /^\/console\/(sign-in(\/[^/]*)?|assets\/console\.(css|js))$/;

function problemOf(err: unknown): FormProblem & { status: number } {
  if (err instanceof ProblemError)
    return { status: err.status, title: err.token, detail: err.message, errors: err.extras.errors };
  if (isDatabaseUnavailable(err))
    return {
      status: 503,
      title: 'database_unavailable',
      detail: 'The database cannot be reached right now; nothing was done. Try again in a few seconds.',
    };
  const e = err as FastifyError;
  if (e.statusCode === 413) return { status: 413, title: 'payload_too_large', detail: 'The form is too large.' };
  if (e.statusCode === 415)
    return { status: 415, title: 'unsupported_media_type', detail: 'Send forms as application/x-www-form-urlencoded.' };
  if (e.statusCode && e.statusCode < 500)
    return { status: e.statusCode, title: 'validation_failed', detail: e.message };
  return { status: 500, title: 'internal_error', detail: ERROR_CATALOG.internal_error.summary };
}

/**
 * The console (registered at the prefix /console): server-rendered pages over the same use cases as the API, for the
 * signed-in users of an organization. Sessions are an HttpOnly, SameSite=Lax cookie; every form
 * post carries the session's CSRF token and, when the browser sends one, a same-origin Origin.
 */
export const consolePlugin: FastifyPluginAsync<ConsoleDeps> = async (app: FastifyInstance, opts) => {
  // The children get the dependencies without this plugin's own prefix (they would nest it again).
  const { prefix: _prefix, ...deps } = opts as ConsoleDeps & { prefix?: string };
  await app.register(fastifyCookie);
  app.decorateRequest('consoleViewer', null);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_req, body, done) => {
      const form: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(String(body))) {
        const prev = form[k];
        form[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      done(null, form);
    },
  );
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });

  // Pages load nothing but their own stylesheet and script, fetch only themselves (live pages), post only to the console, and are never framed.
  // A self-contained document (statement.html) sets its own, stricter policy: its inline styles by hash.
  // When each console request arrived, for the Server-Timing header (reply.elapsedTime needs a logger).
  const arrived = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (request) => {
    arrived.set(request, performance.now());
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy'))
      reply.header(
        'content-security-policy',
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-content-type-options', 'nosniff');
    // How long the server took to build the page (the browser tests log it per page).
    const started = arrived.get(request);
    if (started !== undefined) reply.header('server-timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
    return payload;
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    if (request.method === 'POST') assertSameOrigin(request);
    if (!OPEN.test(path)) {
      const token = request.cookies[SESSION_COOKIE];
      const session = token ? await sessionOf(request.em, token, request.now) : null;
      if (!session) {
        if (token) reply.clearCookie(SESSION_COOKIE, { path: '/console' });
        if (request.method === 'GET')
          return reply
            .code(303)
            .header('location', `/console/sign-in?next=${encodeURIComponent(request.url)}`)
            .send();
        throw new ProblemError('unauthenticated', 'Your session has ended; sign in again.');
      }
      request.consoleViewer = viewerOf(request, session, deps.csrfKey, deps.pricingUrl);
      if (request.method === 'GET') takeFlash(request, reply, token!);
      if (
        request.method === 'POST' &&
        !csrfMatches(deps.csrfKey, session.sessionId, (request.body as Record<string, unknown> | undefined)?._csrf)
      ) {
        throw new ProblemError(
          'forbidden',
          'The form is out of date or did not come from this console (CSRF check failed); reload the page and try again.',
        );
      }
    }
    // Once the viewer is known (so the refusal is shown in their console), before any page reads the input.
    assertStorable(request.body);
    assertStorable(request.query);
  });

  app.setErrorHandler((err, request, reply) => {
    const problem = problemOf(err);
    if (problem.status === 503) reply.header('retry-after', '5');
    else if (problem.status >= 500) request.log.error({ err }, 'console page failed');
    const body = `${problemBox(problem)}<p><a href="/console">Back to the overview</a></p>`;
    const v = request.consoleViewer;
    const html = v
      ? consolePage(chromeOf(v, ''), { title: problem.status === 403 ? 'Not allowed' : 'Something went wrong', body })
      : publicConsolePage(
          problem.status === 401 ? 'Sign in again' : 'Something went wrong',
          `${body}<p><a href="/console/sign-in">Sign in</a></p>`,
        );
    return reply.code(problem.status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });
  app.setNotFoundHandler((request, reply) => {
    const v = request.consoleViewer;
    const body = `<p>There is no such page${v ? '' : ', or you are not signed in'}.</p><p><a href="/console">Overview</a></p>`;
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(v ? consolePage(chromeOf(v, ''), { title: 'Not found', body }) : publicConsolePage('Not found', body));
  });

  app.get('/assets/console.css', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
  app.get('/assets/console.js', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/javascript; charset=utf-8').send(CONSOLE_JS),
  );
  await app.register(consoleSignInRoutes, deps);
  await app.register(consolePages, deps);
};

/**
 * The JSON API's rule (plugins/json-body.ts) for form fields and query parameters: PostgreSQL text
 * cannot hold U+0000 (`%00`), so such input is refused as validation_failed naming the field,
 * like any other invalid field, instead of failing in the database.
 */
function assertStorable(input: unknown): void {
  const at = input && typeof input === 'object' ? unstorableStringAt(input) : null;
  if (!at) return;
  const path = String(at[0]).replace(/\u0000/g, '\\u0000');
  throw new ProblemError('validation_failed', `${path}: ${UNSTORABLE_MESSAGE}.`, {
    errors: [{ path, message: UNSTORABLE_MESSAGE }],
  });
}

/** A form post must come from this origin when the browser says where it came from. */
function assertSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (!origin) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw new ProblemError('forbidden', 'The form came from an unreadable origin.');
  }
  if (host !== request.headers.host)
    throw new ProblemError('forbidden', `The form came from ${origin}, not from this console.`);
}
