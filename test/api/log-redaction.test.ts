import type { RouteOptions } from 'fastify';
import { createLogger } from '../../src/composition/logger';
import { REDACTED, SECRET_PATH_ROUTES, SECRET_QUERY_PARAMS, redactUrl } from '../../src/domain/url-redaction';
import { type ApiHarness, startApi } from '../support/api-harness';
import { pageRequest } from '../support/status-host';

// Issue 24 §5.2: request logs must not carry a credential that a URL holds.
const lines: string[] = [];
const routes: { method: string; url: string; params: string[]; query: string[] }[] = [];
let api: ApiHarness;

/** A parameter name that says it holds a credential. */
const SECRET_NAME = /token|secret|sig|password|passwd|credential|api_?key|code/i;

beforeAll(async () => {
  const logger = createLogger('debug', 'vigil-api-test', { write: (line: string) => void lines.push(line) });
  api = await startApi({
    logger,
    onRoute: (r: RouteOptions) => {
      const schema = r.schema as { querystring?: { properties?: Record<string, unknown> } } | undefined;
      for (const method of [r.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({ method, url: r.url, params: [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!), query: Object.keys(schema?.querystring?.properties ?? {}) });
      }
    },
  });
});
afterAll(async () => api.close());

const CANARY = 'canary0SECRET0value0that0must0never0be0logged';
const logged = () => lines.join('');

async function expectRedacted(method: string, path: string, send: () => Promise<unknown> = () => fetch(`${api.baseUrl}${path}`, { method }).then((r) => r.text())): Promise<void> {
  const before = lines.length;
  await send();
  const mine = lines.slice(before).join('');
  expect([path, mine.includes('incoming request')]).toEqual([path, true]);
  expect([path, mine.includes(CANARY)]).toEqual([path, false]);
  expect([path, mine.includes(REDACTED)]).toEqual([path, true]);
}

describe('request logs redact secret-bearing URL parts (issue 24 §5.2)', () => {
  it('has a redaction rule for every route that takes a secret-named path or query parameter', () => {
    expect(routes.length).toBeGreaterThan(50);
    const uncovered = routes.flatMap((r) => [
      ...r.params.filter((p) => SECRET_NAME.test(p) && !(SECRET_PATH_ROUTES as readonly string[]).includes(r.url)).map((p) => `${r.method} ${r.url} (path :${p})`),
      ...r.query.filter((q) => SECRET_NAME.test(q) && !(SECRET_QUERY_PARAMS as readonly string[]).includes(q.toLowerCase())).map((q) => `${r.method} ${r.url} (query ${q})`),
    ]);
    expect(uncovered).toEqual([]);
    // Every path rule names a route that exists, so a renamed route cannot leave its rule behind.
    for (const template of SECRET_PATH_ROUTES) expect([template, routes.some((r) => r.url === template)]).toEqual([template, true]);
  });

  it('redacts the secret segment of every secret-bearing route in the table, whatever the answer', async () => {
    const secretRoutes = routes.filter((r) => r.params.some((p) => SECRET_NAME.test(p)));
    expect(secretRoutes.length).toBeGreaterThanOrEqual(SECRET_PATH_ROUTES.length);
    for (const r of secretRoutes) {
      await expectRedacted(r.method, r.url.replace(/:(\w+)/g, (_, name: string) => (SECRET_NAME.test(name) ? CANARY : '00000000-0000-4000-8000-000000000000')));
    }
  });

  it('redacts viewer tokens and subscriber confirm/unsubscribe tokens on status pages, and secret query parameters anywhere', async () => {
    for (const path of [`/?viewer_token=${CANARY}`, `/summary.json?viewer_token=${CANARY}`, `/confirm?token=${CANARY}`, `/unsubscribe?token=${CANARY}&x=1`]) {
      await expectRedacted('GET', path, () => pageRequest(api.baseUrl, 'some-page', path));
    }
    for (const name of SECRET_QUERY_PARAMS) await expectRedacted('GET', `/v1/services?${name}=${CANARY}`);
    // A request that matches no route (a mistyped link) is redacted all the same.
    await expectRedacted('GET', `/v1/heartbeats/${CANARY}/extra`);
    expect(logged()).not.toContain(CANARY);
  });

  it('redactUrl keeps everything else', () => {
    expect(redactUrl('/v1/heartbeats/abc?x=1&TOKEN=s&viewer_token=t&y')).toBe(`/v1/heartbeats/${REDACTED}?x=1&TOKEN=${REDACTED}&viewer_token=${REDACTED}&y`);
    expect(redactUrl('/console/sign-in/abc')).toBe(`/console/sign-in/${REDACTED}`);
    expect(redactUrl('/console/sign-in?next=%2Fconsole')).toBe('/console/sign-in?next=%2Fconsole');
    expect(redactUrl('/v1/services/9?limit=5')).toBe('/v1/services/9?limit=5');
  });
});
