import { connect } from 'node:net';
import type { RouteOptions } from 'fastify';
import { createLogger } from '../../src/composition/logger';
import {
  REDACTED,
  SECRET_PATH_ROUTES,
  SECRET_QUERY_PARAMS,
  redactText,
  redactUrl,
} from '../../src/domain/url-redaction';
import { type ApiHarness, startApi } from '../support/api-harness';
import { pageRequest } from '../support/status-host';

// Request logs must not carry a credential that a URL holds.
const lines: string[] = [];
const routes: { method: string; url: string; params: string[]; secretParams: string[]; query: string[] }[] = [];
let api: ApiHarness;

/** A parameter name that says it holds a credential. */
const SECRET_NAME = /token|secret|sig|password|passwd|credential|api_?key|code/i;
/** A parameter whose description says it holds a credential, whatever its name (the legacy alert URL's `:id`). */
const SECRET_DESCRIPTION = /\b(secret|token|credential)\b/i;

beforeAll(async () => {
  const logger = createLogger('debug', 'vigil-api-test', { write: (line: string) => void lines.push(line) });
  api = await startApi({
    logger,
    onRoute: (r: RouteOptions) => {
      const schema = r.schema as
        | {
            querystring?: { properties?: Record<string, unknown> };
            params?: { shape?: Record<string, { description?: string }> };
          }
        | undefined;
      const params = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const secretParams = params.filter(
        (p) => SECRET_NAME.test(p) || SECRET_DESCRIPTION.test(schema?.params?.shape?.[p]?.description ?? ''),
      );
      for (const method of [r.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({
          method,
          url: r.url,
          params,
          secretParams,
          query: Object.keys(schema?.querystring?.properties ?? {}),
        });
      }
    },
  });
});
afterAll(async () => api.close());

const CANARY = 'canary0SECRET0value0that0must0never0be0logged';
const logged = () => lines.join('');

/** The canary without its first character: what a log holds of it when that character came percent-encoded. */
const CANARY_TAIL = CANARY.slice(1);

async function expectRedacted(
  method: string,
  path: string,
  send: () => Promise<unknown> = () => fetch(`${api.baseUrl}${path}`, { method }).then((r) => r.text()),
): Promise<void> {
  const before = lines.length;
  await send();
  // The completion line follows the answer by a tick.
  await new Promise((r) => setImmediate(r));
  const mine = lines.slice(before).join('');
  expect([path, mine.includes('incoming request')]).toEqual([path, true]);
  expect([path, mine.includes(CANARY_TAIL)]).toEqual([path, false]);
  expect([path, mine.includes(REDACTED)]).toEqual([path, true]);
}

/**
 * One request with its request line exactly as given, over a plain socket: fetch and undici
 * normalise a URL (dot segments, an absolute form) before sending it, a raw client does not.
 */
function rawRequest(method: string, target: string, host = new URL(api.baseUrl).host): Promise<string> {
  const { hostname, port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

/**
 * A route's secret in every form that reaches the app: what the router routes to it (absolute
 * form, `%xx` escapes, a trailing slash) and what it refuses but Fastify logs all the same.
 */
function urlForms(template: string, secret: string): string[] {
  const statics = template.split('/').filter((s) => s && !s.startsWith(':'));
  const path = (segments: string[], sep = '/') => `${sep}${segments.join(sep)}`;
  const escaped = statics.map((s) => `%${s.charCodeAt(0).toString(16)}${s.slice(1)}`);
  const origin = new URL(api.baseUrl).host;
  return [
    path([...statics, secret]),
    `http://${origin}${path([...statics, secret])}`,
    `HTTP://${origin.toUpperCase()}${path([...statics, secret])}?x=1`,
    `http://user:pw@${origin}${path([...statics, secret])}`,
    path([...escaped, secret]),
    path([...statics, `%${CANARY.charCodeAt(0).toString(16)}${secret.slice(1)}`]),
    `/${path([...statics, secret])}`,
    path([...statics, '', secret]),
    path([...statics, secret, '']),
    path([...statics, secret, 'extra']),
    path([...statics, secret].map((s) => s.toUpperCase())),
    path([...statics.map((s) => `${s};jsessionid=1`), `${secret};x=1`]),
    `${path(statics)}%2F${secret}`,
    `${path(statics)}%2f${secret}`,
    path([statics[0]!, 'x', '..', ...statics.slice(1), '.', secret]),
    `/${[...statics, secret].join('\\')}`,
    `/_page${path([...statics, secret])}`,
  ];
}

describe('request logs redact secret-bearing URL parts', () => {
  it('has a redaction rule for every route that takes a secret-named or secret-described path parameter or a secret-named query parameter', () => {
    expect(routes.length).toBeGreaterThan(50);
    const uncovered = routes.flatMap((r) => [
      ...r.secretParams
        .filter(() => !(SECRET_PATH_ROUTES as readonly string[]).includes(r.url))
        .map((p) => `${r.method} ${r.url} (path :${p})`),
      ...r.query
        .filter((q) => SECRET_NAME.test(q) && !(SECRET_QUERY_PARAMS as readonly string[]).includes(q.toLowerCase()))
        .map((q) => `${r.method} ${r.url} (query ${q})`),
    ]);
    expect(uncovered).toEqual([]);
    // Every path rule names a route that exists, so a renamed route cannot leave its rule behind.
    for (const template of SECRET_PATH_ROUTES)
      expect([template, routes.some((r) => r.url === template)]).toEqual([template, true]);
  });

  it('redacts the secret segment of every secret-bearing route in the table, whatever the answer', async () => {
    const secretRoutes = routes.filter((r) => r.secretParams.length);
    expect(secretRoutes.length).toBeGreaterThanOrEqual(SECRET_PATH_ROUTES.length);
    for (const r of secretRoutes) {
      await expectRedacted(
        r.method,
        r.url.replace(/:(\w+)/g, (_, name: string) =>
          r.secretParams.includes(name) ? CANARY : '00000000-0000-4000-8000-000000000000',
        ),
      );
    }
  });

  it('redacts viewer tokens and subscriber confirm/unsubscribe tokens on status pages, and secret query parameters anywhere', async () => {
    for (const path of [
      `/?viewer_token=${CANARY}`,
      `/summary.json?viewer_token=${CANARY}`,
      `/confirm?token=${CANARY}`,
      `/unsubscribe?token=${CANARY}&x=1`,
    ]) {
      await expectRedacted('GET', path, () => pageRequest(api.baseUrl, 'some-page', path));
    }
    for (const name of SECRET_QUERY_PARAMS) await expectRedacted('GET', `/v1/services?${name}=${CANARY}`);
    // A request that matches no route (a mistyped link) is redacted all the same.
    await expectRedacted('GET', `/v1/heartbeats/${CANARY}/extra`);
    expect(logged()).not.toContain(CANARY);
  });

  it('redacts every secret path segment in every URL form the router reads or a client may send, even when no route matches', async () => {
    for (const template of SECRET_PATH_ROUTES) {
      const methods = new Set(routes.filter((r) => r.url === template && r.secretParams.length).map((r) => r.method));
      expect([template, methods.size > 0]).toEqual([template, true]);
      for (const method of methods) {
        for (const target of urlForms(template, CANARY))
          await expectRedacted(method, `${method} ${template} as ${target}`, () => rawRequest(method, target));
      }
    }
    // A status page host routes every path under its prefix: a token sent there is redacted too.
    await expectRedacted('GET', 'heartbeat on a status host', () =>
      rawRequest('GET', `/v1/heartbeats/${CANARY}`, `some-page.status.localhost:${new URL(api.baseUrl).port}`),
    );
    expect(logged()).not.toContain(CANARY_TAIL);
  });

  it('redacts secret query parameters however they are spelled, and a URL in a query value that carries one', async () => {
    const page = `some-page.status.localhost:${new URL(api.baseUrl).port}`;
    for (const [target, host] of [
      [`/?%76iewer_token=${CANARY}`, page],
      [`/?viewer%5Ftoken=${CANARY}`, page],
      [`/unsubscribe?TOKEN=${CANARY}`, page],
      [`http://${page}/confirm?token=${CANARY}`, page],
      [`/v1/services?a=1;token=${CANARY}`, undefined],
      [`/console/sign-in?next=%2Fconsole%2Fsign-in%2F${CANARY}`, undefined],
      [`/console/sign-in?next=http%3A%2F%2Fx%2Fv1%2F%68eartbeats%2F${CANARY}`, undefined],
    ] as const) {
      await expectRedacted('GET', target, () => rawRequest('GET', target, host));
    }
    expect(logged()).not.toContain(CANARY_TAIL);
  });

  it('redacts URLs quoted in log messages and in logged errors', () => {
    const out: string[] = [];
    const log = createLogger('info', 'redaction', { write: (line: string) => void out.push(line) });
    log.error(
      {
        err: new Error(`GET http://x/v1/%68eartbeats/${CANARY} failed`, {
          cause: new Error(`at //console/sign-in/${CANARY}`),
        }),
      },
      `Route POST:/v1/alerts/${CANARY} not found`,
    );
    log.info(`Rewrote /V1/ALERT-ACTIONS/${CANARY}`);
    expect(out.join('')).not.toContain(CANARY_TAIL);
    expect(out.join('')).toContain(`Route POST:/v1/alerts/${REDACTED} not found`);
    expect(redactText(`'/v1/inbound-alerts/${CANARY}' is not a valid url component`)).toBe(
      `'/v1/inbound-alerts/${REDACTED}' is not a valid url component`,
    );
  });

  it('redactUrl keeps everything else', () => {
    expect(redactUrl('/v1/heartbeats/abc?x=1&TOKEN=s&viewer_token=t&y')).toBe(
      `/v1/heartbeats/${REDACTED}?x=1&TOKEN=${REDACTED}&viewer_token=${REDACTED}&y`,
    );
    expect(redactUrl('/console/sign-in/abc')).toBe(`/console/sign-in/${REDACTED}`);
    expect(redactUrl('/console/sign-in?next=%2Fconsole')).toBe('/console/sign-in?next=%2Fconsole');
    expect(redactUrl('/v1/services/9?limit=5')).toBe('/v1/services/9?limit=5');
    expect(redactUrl(`http://vigil.test/v1/%68eartbeats//abc;x/?y=1`)).toBe(
      `http://vigil.test/v1/%68eartbeats//${REDACTED}/?y=1`,
    );
    expect(redactUrl('/v1/heartbeats')).toBe('/v1/heartbeats');
    expect(redactUrl('/v1/services/heartbeats/abc')).toBe('/v1/services/heartbeats/abc');
  });
});
