import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import {
  ATOM_CONTENT_TYPE,
  FEED_CACHE_CONTROL,
  RSS_CONTENT_TYPE,
  buildAtom,
  buildRss,
  etagMatches,
  feedEtag,
  parseFeedLimit,
} from '../../domain/status-page/feed';
import {
  renderHistoryPage,
  renderItemPage,
  renderMessagePage,
  renderNotFoundPage,
  renderStatusPage,
} from '../../render/status-page';
import { subdomainOfHost } from '../../domain/status-page/subdomain';
import { type StatusSite, pageBaseUrl } from '../../domain/status-page/site';
import type { SecretBox } from '../../crypto/secret-box';
import {
  findPageBySubdomain,
  loadFeed,
  loadHistoryView,
  loadItemView,
  loadPageView,
  pageHeader,
} from '../../usecases/status-pages/public-view';
import type { StatusPage } from '../../usecases/status-pages/pages';
import {
  type SubscribeLimits,
  confirmSubscription,
  inspectLink,
  subscribe,
  unsubscribe,
} from '../../usecases/status-pages/subscribers';
import { type Viewer, verifyViewerToken } from '../../usecases/status-pages/viewer-tokens';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS } from '../schemas/common';
import { SubscribeAccepted, SubscribeBody } from '../schemas/status-pages';
import { STATUS_LIVE_JS } from '../../render/status-live-script';

export interface PublicPageOptions {
  box: SecretBox;
  site: StatusSite;
  /** Signs and checks subscribers' confirm and unsubscribe links. */
  linkKey: Buffer;
  limits: SubscribeLimits;
}

const VIEWER_COOKIE = 'vigil_viewer';
const HTML = 'text/html; charset=utf-8';
/** Pages hold no script and load nothing but the operator's logo. */
const CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; img-src https: data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const ACCEPTED_DETAIL =
  'If the address can be subscribed, a confirmation email is on its way; the subscription starts once its link is followed.';

const gzipAsync = promisify(gzip);

/** A body rendered once per cache fill, with its gzip copy, so a busy page costs neither rendering nor compression per request. */
interface Rendered {
  body: Buffer;
  gzip: Buffer;
  etag?: string;
}

async function rendered(text: string, etag?: string): Promise<Rendered> {
  const body = Buffer.from(text, 'utf8');
  return {
    body,
    gzip: await gzipAsync(body, { level: 6 }),
    etag: etag ?? `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * The page and its summary: browsers and proxies may keep them, but must ask again before each
 * use (a 304 costs nothing: the ETag is made once per cache fill). With `max-age`, a visitor
 * following "Back to current status" from the history saw the incident still ongoing for 30 s
 * after it was resolved. A signed-in viewer's answers are not kept at all.
 */
const PAGE_CACHE_CONTROL = 'public, no-cache';

function acceptsGzip(request: FastifyRequest): boolean {
  const accept = request.headers['accept-encoding'];
  return typeof accept === 'string' && /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(accept);
}

function sendRendered(request: FastifyRequest, reply: FastifyReply, r: Rendered) {
  if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(r.gzip);
  return reply.send(r.body);
}

function cookie(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return null; // a mangled cookie is no cookie
    }
  }
  return null;
}

/**
 * Requests to `<subdomain>.<STATUS_HOST>` are routed under this prefix (Fastify `rewriteUrl`, see
 * app.ts): one string check per request, where a host-constrained router would slow every route.
 */
export const PAGE_ROUTE_PREFIX = '/_page';

/** The page, feeds, summary and subscription forms served at `<subdomain>.<STATUS_HOST>` (no API key); registered under PAGE_ROUTE_PREFIX. */
export const publicPageRoutes: FastifyPluginAsync<PublicPageOptions> = async (app, opts) => {
  const { pages, publicViews } = app.platform;
  const hide = { hide: true };

  // Forms post urlencoded; an RFC 8058 one-click unsubscribe may post multipart. Only `token` and `email` are read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));

  const pageFor = async (request: FastifyRequest): Promise<StatusPage | null> => {
    const sub = subdomainOfHost(request.headers.host, opts.site.statusHost);
    if (!sub) return null;
    return pages.getOrLoad(sub, 'page', () => findPageBySubdomain(request.em, sub));
  };

  const notFound = (reply: FastifyReply) =>
    reply.code(404).header('content-type', HTML).header('content-security-policy', CSP).send(renderNotFoundPage());

  /** A viewer token from `?viewer_token=`, the cookie, or a Bearer header; remembered in the cookie when it came in the URL and verifies. */
  const viewerOf = async (request: FastifyRequest, reply: FastifyReply, page: StatusPage): Promise<Viewer | null> => {
    const fromQuery = (request.query as Record<string, unknown>).viewer_token;
    const auth = request.headers.authorization;
    const token =
      typeof fromQuery === 'string'
        ? fromQuery
        : (cookie(request, VIEWER_COOKIE) ?? (auth?.startsWith('Bearer ') ? auth.slice(7) : null));
    if (!token) return null;
    const viewer = await verifyViewerToken(request.em, page, opts.box, token, request.now);
    if (viewer && typeof fromQuery === 'string') {
      reply.header(
        'set-cookie',
        `${VIEWER_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax${request.protocol === 'https' ? '; Secure' : ''}`,
      );
    }
    return viewer;
  };

  const htmlHeaders = (reply: FastifyReply, viewer: Viewer | null, status: number) =>
    reply
      .code(status)
      .header('content-type', HTML)
      .header('cache-control', viewer ? 'private, no-store' : PAGE_CACHE_CONTROL)
      .header('vary', 'Cookie, Authorization, Accept-Encoding')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
  const html = (reply: FastifyReply, body: string, viewer: Viewer | null, status = 200) =>
    htmlHeaders(reply, viewer, status).send(body);

  const cached = <T>(page: StatusPage, key: string, viewer: Viewer | null, load: () => Promise<T>) =>
    publicViews.getOrLoad(
      page.organization,
      `${page.id}:${viewer?.customer_id ?? 'public'}:${key}`,
      load,
    ) as Promise<T>;

  app.get('/', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const viewer = await viewerOf(request, reply, page);
    const body = await cached(page, 'page', viewer, async () =>
      rendered(renderStatusPage(await loadPageView(request.em, page, viewer, request.now))),
    );
    htmlHeaders(reply, viewer, 200).header('etag', body.etag);
    if (etagMatches(request.headers['if-none-match'], body.etag!)) return reply.code(304).send();
    return sendRendered(request, reply, body);
  });

  app.get('/summary.json', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page)
      throw new ProblemError(
        'not_found',
        'No status page has this address.',
        {},
        { 'access-control-allow-origin': '*' },
      );
    const viewer = await viewerOf(request, reply, page);
    const json = await cached(page, 'summary', viewer, async () =>
      rendered(JSON.stringify(await loadPageView(request.em, page, viewer, request.now))),
    );
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', viewer ? 'private, no-store' : PAGE_CACHE_CONTROL)
      .header('vary', 'Cookie, Authorization, Accept-Encoding')
      .header('access-control-allow-origin', '*')
      .header('etag', json.etag);
    if (etagMatches(request.headers['if-none-match'], json.etag!)) return reply.code(304).send();
    return sendRendered(request, reply, json);
  });

  app.get('/history', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const viewer = await viewerOf(request, reply, page);
    const cursor = (request.query as Record<string, unknown>).cursor;
    const view = await loadHistoryView(
      request.em,
      page,
      viewer,
      request.now,
      typeof cursor === 'string' ? cursor : undefined,
    );
    return html(reply, renderHistoryPage(view), viewer);
  });

  // One incident's or maintenance's own page, kept like the page (its ETag stays until the
  // organization changes something). Only items this viewer may see are kept: an id that is not
  // found is never stored, so asking for made-up ids fills no cache.
  const notShown = new Error('not shown');
  for (const kind of ['incidents', 'maintenances'] as const) {
    app.get(`/${kind}/:id`, { schema: hide }, async (request, reply) => {
      const page = await pageFor(request);
      if (!page) return notFound(reply);
      const id = (request.params as { id: string }).id;
      const viewer = await viewerOf(request, reply, page);
      if (!isUuid(id)) return notFound(reply);
      const item = {
        kind: kind === 'incidents' ? ('incident' as const) : ('maintenance' as const),
        id: id.toLowerCase(),
      };
      let body: Rendered;
      try {
        body = await cached(page, `${item.kind}:${item.id}`, viewer, async () => {
          const view = await loadItemView(request.em, page, viewer, request.now, item);
          if (!view) throw notShown;
          return rendered(renderItemPage(view));
        });
      } catch (err) {
        if (err === notShown) return notFound(reply);
        throw err;
      }
      htmlHeaders(reply, viewer, 200).header('etag', body.etag);
      if (etagMatches(request.headers['if-none-match'], body.etag!)) return reply.code(304).send();
      return sendRendered(request, reply, body);
    });
  }

  const feedRoute = (format: 'atom' | 'rss') => async (request: FastifyRequest, reply: FastifyReply) => {
    const page = await pageFor(request);
    // Feed readers are programs: an unknown (or deleted) page is a not_found problem, not the HTML page for people.
    if (!page) throw new ProblemError('not_found', 'No status page has this address, so it has no feed.');
    const limit = parseFeedLimit((request.query as Record<string, unknown>).limit);
    if (limit === null) {
      throw new ProblemError(
        'validation_failed',
        'limit must be an integer from 1 (values above 200 are clamped to 200).',
        { errors: [{ path: 'query.limit', message: 'Expected an integer ≥ 1' }] },
      );
    }
    const base = pageBaseUrl(opts.site, page.subdomain);
    const feed = await cached<Rendered>(page, `feed:${format}:${limit}`, null, async () => {
      const f = await loadFeed(request.em, page, limit);
      const meta = {
        title: page.title,
        description: page.description ?? `Incidents and maintenance announced on ${page.title}`,
        site_url: `${base}/`,
        self_url: `${base}/feed.${format}`,
        author_name: page.title,
        updated: f.latestMs > 0 ? new Date(f.latestMs) : page.createdAt,
      };
      return rendered(
        format === 'atom' ? buildAtom(meta, f.entries) : buildRss(meta, f.entries),
        feedEtag(f.count, f.latestMs),
      );
    });
    reply.header('etag', feed.etag).header('cache-control', FEED_CACHE_CONTROL).header('vary', 'Accept-Encoding');
    if (etagMatches(request.headers['if-none-match'], feed.etag!)) return reply.code(304).send();
    return sendRendered(
      request,
      reply.header('content-type', format === 'atom' ? ATOM_CONTENT_TYPE : RSS_CONTENT_TYPE),
      feed,
    );
  };
  app.get('/feed.atom', { schema: hide }, feedRoute('atom'));
  app.get('/feed.rss', { schema: hide }, feedRoute('rss'));

  app.post('/subscribe', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const form = (request.body ?? {}) as Record<string, unknown>;
    const header = pageHeader(page);
    const email = z
      .email()
      .max(320)
      .safeParse(typeof form.email === 'string' ? form.email.trim() : '');
    if (!email.success)
      return html(
        reply,
        renderMessagePage(
          header,
          'Please check the address',
          'That does not look like an email address. Go back and try again.',
        ),
        null,
        400,
      );
    try {
      await subscribe(
        request.em,
        page,
        { email: email.data },
        { ip: request.ip, viewer: await viewerOf(request, reply, page), limits: opts.limits, now: request.now },
      );
    } catch (err) {
      if (err instanceof ProblemError && err.token === 'subscribe_limited') {
        reply.headers(err.headers);
        return html(
          reply,
          renderMessagePage(
            header,
            'Too many requests',
            'Too many subscribe requests came from here. Please try again in an hour.',
          ),
          null,
          429,
        );
      }
      throw err;
    }
    return html(reply, renderMessagePage(header, 'Check your inbox', ACCEPTED_DETAIL), null);
  });

  const tokenOf = (request: FastifyRequest) => {
    const q = (request.query as Record<string, unknown>).token;
    const b = (request.body as Record<string, unknown> | undefined)?.token;
    return typeof b === 'string' ? b : typeof q === 'string' ? q : '';
  };
  const linkProblem = (reply: FastifyReply, page: StatusPage | null, reason: 'invalid' | 'expired' | 'gone') =>
    html(
      reply,
      renderMessagePage(
        page ? pageHeader(page) : null,
        reason === 'expired' ? 'This link has expired' : 'This link does not work',
        reason === 'expired'
          ? 'Confirmation links are valid for 48 hours. Subscribe again to get a new one.'
          : 'The link is incomplete or no longer valid. Subscribe again from the status page.',
      ),
      null,
      reason === 'gone' ? 404 : 400,
    );

  // GET shows a button and changes nothing: mail scanners that follow links must not confirm or unsubscribe anyone.
  app.get('/confirm', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const r = await inspectLink(request.em, opts.linkKey, tokenOf(request), 'confirm', request.now);
    if (!r.ok || r.page.id !== page.id) return linkProblem(reply, page, r.ok ? 'invalid' : r.reason);
    return html(
      reply,
      renderMessagePage(
        pageHeader(page),
        'Confirm your subscription',
        `Send updates about ${page.title} to ${r.subscriber.email}?`,
        { path: '/confirm', token: tokenOf(request), label: 'Confirm subscription' },
      ),
      null,
    );
  });
  app.post('/confirm', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const r = await confirmSubscription(request.em, opts.linkKey, tokenOf(request), request.now, page.id);
    if (!r.ok || r.page.id !== page.id) return linkProblem(reply, page, r.ok ? 'invalid' : r.reason);
    return html(
      reply,
      renderMessagePage(
        pageHeader(page),
        'You are subscribed',
        `${r.subscriber.email} will get an email when ${page.title} posts an incident or maintenance. Every email has a link to unsubscribe.`,
      ),
      null,
    );
  });
  app.get('/unsubscribe', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const r = await inspectLink(request.em, opts.linkKey, tokenOf(request), 'unsubscribe', request.now);
    if (!r.ok || r.page.id !== page.id) return linkProblem(reply, page, r.ok ? 'invalid' : r.reason);
    return html(
      reply,
      renderMessagePage(
        pageHeader(page),
        'Unsubscribe',
        `Stop sending updates about ${page.title} to ${r.subscriber.email}?`,
        { path: '/unsubscribe', token: tokenOf(request), label: 'Unsubscribe' },
      ),
      null,
    );
  });
  // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the header's URL (token in the query).
  app.post('/unsubscribe', { schema: hide }, async (request, reply) => {
    const page = await pageFor(request);
    if (!page) return notFound(reply);
    const r = await unsubscribe(request.em, opts.linkKey, tokenOf(request), request.now, page.id);
    if (!r.ok || r.page.id !== page.id) return linkProblem(reply, page, r.ok ? 'invalid' : r.reason);
    return html(
      reply,
      renderMessagePage(
        pageHeader(page),
        'You are unsubscribed',
        `${r.subscriber.email} will get no more email from ${page.title}.`,
      ),
      null,
    );
  });

  // Browsers ask every host for one; an empty answer keeps their consoles clean.
  app.get('/live.js', { schema: hide }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(STATUS_LIVE_JS),
  );
  app.get('/favicon.ico', { schema: hide }, async (_request, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
  app.get('/*', { schema: hide }, async (_request, reply) => notFound(reply));
};

/** `POST /v1/status-page/{subdomain}/subscribe`: the spec's public subscribe endpoint (JSON). */
export const publicSubscribeRoutes: FastifyPluginAsyncZod<Pick<PublicPageOptions, 'limits' | 'box'>> = async (
  app,
  opts,
) => {
  const { errorResponses, ...doc } = routeDoc('subscribeToStatusPage', {
    summary: 'Subscribe to a status page',
    tag: 'Status pages',
    errors: [...BODY_ERRORS, 'not_found', 'subscribe_limited', 'database_unavailable', 'shutting_down'],
    checks: ['`components` name only services the page shows.'],
  });
  app.post(
    '/status-page/:subdomain/subscribe',
    {
      schema: {
        ...doc,
        params: z.object({ subdomain: z.string().max(63).describe('The status page’s subdomain') }),
        body: SubscribeBody,
        response: { 202: SubscribeAccepted, ...errorResponses },
      },
    },
    async (request, reply) => {
      const page = await findPageBySubdomain(request.em, request.params.subdomain);
      if (!page) throw new ProblemError('not_found', 'No status page has this subdomain.');
      let viewer: Viewer | null = null;
      const auth = request.headers.authorization;
      if (auth?.startsWith('Bearer '))
        viewer = await verifyViewerToken(request.em, page, opts.box, auth.slice(7), request.now);
      await subscribe(request.em, page, request.body, {
        ip: request.ip,
        viewer,
        limits: opts.limits,
        now: request.now,
      });
      reply.code(202);
      return { status: 'pending_confirmation' as const, detail: ACCEPTED_DETAIL };
    },
  );
};
