import type { ServerResponse } from 'node:http';
import type { SourceConfigOf } from '../../src/domain/source-config';
import { getFreePort } from '../../src/launchers/free-port';
import { lokiProbe } from '../../src/probes/loki';
import type { ProbeContext } from '../../src/probes/types';
import { type ApiServer, type RecordedRequest, sendJson, sendText, startApiServer } from '../support/probe-http-api';

/**
 * Loki cannot be installed here, so a loopback server answers /loki/api/v1/query with the
 * response formats Loki documents (docs/sources/reference/loki-http-api.md) and writes errors
 * as Loki does (pkg/util/server/error.go: text/plain with the status; 401 "no org id" without
 * X-Scope-OrgID when auth_enabled). In front, like a gateway, it wants an Authorization header.
 */
const AUTH = `Basic ${Buffer.from('loki:secret').toString('base64')}`;
const TENANT = 'team-a';
const NOW = 1_700_000_000.123;

const vector = (series: { metric: Record<string, string>; value: string }[]) => ({
  status: 'success',
  data: {
    resultType: 'vector',
    result: series.map((s) => ({ metric: s.metric, value: [NOW, s.value] })),
    stats: {
      summary: {
        bytesProcessedPerSecond: 1024,
        linesProcessedPerSecond: 10,
        totalBytesProcessed: 2048,
        totalLinesProcessed: 20,
        execTime: 0.002,
      },
    },
  },
});

const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  'sum(count_over_time({app="api"}[5m]))': (res) => sendJson(res, 200, vector([{ metric: {}, value: '42' }])),
  'count_over_time({app="api"}[5m])': (res) =>
    sendJson(
      res,
      200,
      vector([
        { metric: { app: 'api', level: 'info' }, value: '40' },
        { metric: { app: 'api', level: 'error' }, value: '2' },
      ]),
    ),
  'sum(count_over_time({app="none"}[5m]))': (res) => sendJson(res, 200, vector([])),
  'sum(rate({app="api"}[5m])) / 0': (res) => sendJson(res, 200, vector([{ metric: {}, value: 'NaN' }])),
  '1 + 1': (res) => sendJson(res, 200, { status: 'success', data: { resultType: 'scalar', result: [NOW, '2'] } }),
  '{app="api"}': (res) =>
    sendJson(res, 200, {
      status: 'success',
      data: {
        resultType: 'streams',
        result: [{ stream: { app: 'api' }, values: [['1700000000000000000', 'GET /health 200']] }],
        stats: {},
      },
    }),
  'sum(': (res) => sendText(res, 400, 'parse error at line 1, col 5: syntax error: unexpected $end'),
  'sum(count_over_time({app=~".*"}[30d]))': (res) =>
    sendText(
      res,
      504,
      'request timed out, decrease the duration of the request or add more label matchers (prefer exact match over regex match) to reduce the amount of data processed',
    ),
  'sum(count_over_time({app="boom"}[5m]))': (res) =>
    sendText(res, 500, 'rpc error: code = Internal desc = failed to fetch chunks'),
  'sum(count_over_time({app="slow"}[5m]))': (res) =>
    void setTimeout(() => sendJson(res, 200, vector([{ metric: {}, value: '1' }])), 2_000).unref(),
};

function loki(req: RecordedRequest, res: ServerResponse): void {
  const url = new URL(req.path, 'http://loki');
  if (url.pathname.startsWith('/grafana/'))
    return sendText(res, 200, '<!doctype html><title>Grafana</title>', 'text/html');
  if (url.pathname !== '/loki/api/v1/query') return sendText(res, 404, '404 page not found');
  if (req.headers.authorization !== AUTH) return sendText(res, 401, 'invalid authentication credentials');
  if (req.headers['x-scope-orgid'] === undefined) return sendText(res, 401, 'no org id');
  if (req.headers['x-scope-orgid'] !== TENANT) return sendText(res, 403, 'tenant not allowed');
  const answer = ANSWERS[url.searchParams.get('query') ?? ''];
  if (!answer) return sendText(res, 400, 'unexpected query in the test server');
  answer(res);
}

type LokiConfig = SourceConfigOf<'loki'>;

describe('loki probe against a Loki-format API', () => {
  let server: ApiServer;
  const env: Record<string, string> = { LOKI_AUTH: AUTH, LOKI_TENANT_ID: TENANT };
  const ctxWith = (vars: Record<string, string> = env, signal = new AbortController().signal): ProbeContext => ({
    env: (name) => vars[name],
    mode: 'agent',
    signal,
    defaultTimeoutMs: 5_000,
  });
  const query = (q: string, extra: Partial<LokiConfig> = {}, vars = env) =>
    lokiProbe({ query: q, url: server.url, auth_ref: 'LOKI_AUTH', ...extra }, ctxWith(vars));

  beforeAll(async () => {
    server = await startApiServer(loki);
    // The tenant goes only to the agent's own Loki (test/probes/fixed-credentials.test.ts).
    env.LOKI_SERVER_URL = server.url;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('measures', () => {
    it('a single-series vector, unit null, sending auth and tenant', async () => {
      expect(await query('sum(count_over_time({app="api"}[5m]))')).toEqual({
        value: 42,
        unit: null,
        value_description: 'Result of the LogQL query',
        reason: null,
      });
      const sent = server.requests.at(-1)!;
      expect(sent.method).toBe('GET');
      expect(sent.headers).toMatchObject({ authorization: AUTH, 'x-scope-orgid': TENANT });
    });

    it('a scalar', async () => {
      expect((await query('1 + 1')).value).toBe(2);
    });

    it('from the URL in url_ref, keeping a trailing slash', async () => {
      expect(
        (await query('1 + 1', { url: undefined, url_ref: 'LOKI_URL' }, { ...env, LOKI_URL: `${server.url}/` })).value,
      ).toBe(2);
    });
  });

  describe('no value', () => {
    it('loki_not_aggregation for a log query (streams)', async () => {
      expect((await query('{app="api"}')).reason).toBe('loki_not_aggregation');
    });

    it('loki_no_data for an empty vector', async () => {
      expect((await query('sum(count_over_time({app="none"}[5m]))')).reason).toBe('loki_no_data');
    });

    it('loki_multiple_series for several series', async () => {
      expect(await query('count_over_time({app="api"}[5m])')).toMatchObject({
        reason: 'loki_multiple_series',
        metadata: { series: 2 },
      });
    });

    it('non_finite_value for NaN', async () => {
      expect((await query('sum(rate({app="api"}[5m])) / 0')).reason).toBe('non_finite_value');
    });

    it('loki_query_error (400) with Loki’s error text', async () => {
      expect(await query('sum(')).toMatchObject({
        reason: 'loki_query_error',
        metadata: { status: 400, error: 'parse error at line 1, col 5: syntax error: unexpected $end' },
      });
    });

    it('loki_unauthorized for bad credentials (401), a missing tenant (401 no org id) and a foreign tenant (403)', async () => {
      expect(await query('1 + 1', {}, { ...env, LOKI_AUTH: 'Basic d3Jvbmc6d3Jvbmc=' })).toMatchObject({
        reason: 'loki_unauthorized',
        metadata: { status: 401 },
      });
      expect(await query('1 + 1', {}, { LOKI_AUTH: AUTH })).toMatchObject({
        reason: 'loki_unauthorized',
        metadata: { status: 401 },
      });
      expect(await query('1 + 1', {}, { ...env, LOKI_TENANT_ID: 'team-b' })).toMatchObject({
        reason: 'loki_unauthorized',
        metadata: { status: 403 },
      });
    });

    it('loki_server_error for a 5xx', async () => {
      expect(await query('sum(count_over_time({app="boom"}[5m]))')).toMatchObject({
        reason: 'loki_server_error',
        metadata: { status: 500 },
      });
    });

    it('loki_timeout for Loki’s own query timeout (504) and for timeout_ms', async () => {
      expect(await query('sum(count_over_time({app=~".*"}[30d]))')).toMatchObject({
        reason: 'loki_timeout',
        metadata: { status: 504 },
      });
      // The slow query answers (a success) only after 2 s: a timeout reason shows the probe gave up first, without a wall-clock bound.
      expect((await query('sum(count_over_time({app="slow"}[5m]))', { timeout_ms: 200 })).reason).toBe('loki_timeout');
    });

    it('loki_timeout when the probe deadline (ctx.signal) passes', async () => {
      const outcome = await lokiProbe(
        { query: 'sum(count_over_time({app="slow"}[5m]))', url: server.url, auth_ref: 'LOKI_AUTH' },
        ctxWith(env, AbortSignal.timeout(200)),
      );
      expect(outcome.reason).toBe('loki_timeout');
    });

    it('loki_bad_response for a URL that is not the Loki API (404, HTML on 200)', async () => {
      expect(await query('1 + 1', { url: `${server.url}/not-loki` })).toMatchObject({
        reason: 'loki_bad_response',
        metadata: { status: 404 },
      });
      expect(await query('1 + 1', { url: `${server.url}/grafana/` })).toMatchObject({
        reason: 'loki_bad_response',
        metadata: { status: 200, problem: 'not_json' },
      });
    });

    it('loki_unreachable when nothing listens', async () => {
      const port = await getFreePort();
      expect(await query('1 + 1', { url: `http://127.0.0.1:${port}` })).toMatchObject({
        reason: 'loki_unreachable',
        metadata: { cause: 'ECONNREFUSED' },
      });
    });
  });

  describe('agent configuration', () => {
    it('loki_auth_ref_missing when the auth variable is unset, naming it', async () => {
      expect(await query('1 + 1', {}, { LOKI_TENANT_ID: TENANT })).toMatchObject({
        reason: 'loki_auth_ref_missing',
        metadata: { auth_ref: 'LOKI_AUTH' },
      });
    });

    it('header_ref_invalid when the auth variable holds a line break', async () => {
      expect((await query('1 + 1', {}, { ...env, LOKI_AUTH: `${AUTH}\r\nX-Evil: 1` })).reason).toBe(
        'header_ref_invalid',
      );
    });

    it('loki_error when url_ref is unset, invalid_url when it is not a URL', async () => {
      expect(await query('1 + 1', { url: undefined, url_ref: 'LOKI_URL' })).toMatchObject({
        reason: 'loki_error',
        metadata: { url_ref: 'LOKI_URL', problem: 'url_ref_unset' },
      });
      expect(
        (await query('1 + 1', { url: undefined, url_ref: 'LOKI_URL' }, { ...env, LOKI_URL: 'loki:3100' })).reason,
      ).toBe('invalid_url');
    });

    it('never puts the credentials or the result in the outcome', async () => {
      const outcome = await query('count_over_time({app="api"}[5m])');
      expect(JSON.stringify(outcome)).not.toMatch(/Basic|level|info/);
    });
  });
});
