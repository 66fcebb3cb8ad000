import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getFreePort } from '../../src/launchers/free-port';
import { prometheusProbe } from '../../src/probes/prometheus';
import type { ProbeContext } from '../../src/probes/types';
import { type ProbePrometheus, startAuthProxy, startProbePrometheus } from '../support/probe-prometheus';

function ctxWith(
  env: Record<string, string> = {},
  signal = new AbortController().signal,
  defaultTimeoutMs = 5_000,
): ProbeContext {
  return { env: (name) => env[name], mode: 'agent', signal, defaultTimeoutMs };
}

describe('prometheus probe against a real Prometheus', () => {
  let prom: ProbePrometheus;
  let proxy: { url: string; close(): Promise<void> };
  let deadProxy: { url: string; close(): Promise<void> };
  let silent: http.Server;
  let silentUrl: string;

  const query = (q: string, env: Record<string, string> = {}) =>
    prometheusProbe({ query: q, server_url: prom.url }, ctxWith(env));

  beforeAll(async () => {
    prom = await startProbePrometheus();
    proxy = await startAuthProxy(prom.url, 'good-token', 'tenant-a');
    deadProxy = await startAuthProxy(`http://127.0.0.1:${await getFreePort()}`, 'good-token', 'tenant-a');
    silent = http.createServer(() => undefined); // accepts and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  }, 45_000);

  afterAll(async () => {
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
    await proxy?.close();
    await deadProxy?.close();
    await prom?.stop();
  });

  describe('measures', () => {
    it('a single-series vector (up), unit null', async () => {
      expect(await query('up')).toEqual({
        value: 1,
        unit: null,
        value_description: 'Result of the PromQL query',
        reason: null,
      });
    });

    it('vector(42), a scalar and a scraped gauge', async () => {
      expect((await query('vector(42)')).value).toBe(42);
      expect((await query('scalar(vector(7))')).value).toBe(7);
      expect((await query('probe_single')).value).toBe(5);
      expect((await query('sum(probe_pair)')).value).toBe(3);
    });

    it('from PROMETHEUS_SERVER_URL when the config names no server', async () => {
      expect((await prometheusProbe({ query: 'vector(1)' }, ctxWith({ PROMETHEUS_SERVER_URL: prom.url }))).value).toBe(
        1,
      );
    });

    it('through a gateway with PROMETHEUS_BEARER_TOKEN and PROMETHEUS_TENANT_ID (X-Scope-OrgID)', async () => {
      const env = {
        PROMETHEUS_SERVER_URL: proxy.url,
        PROMETHEUS_BEARER_TOKEN: 'good-token',
        PROMETHEUS_TENANT_ID: 'tenant-a',
      };
      expect((await prometheusProbe({ query: 'vector(9)' }, ctxWith(env))).value).toBe(9);
    });
  });

  describe('no value', () => {
    it('no_data_for_query for an empty selector', async () => {
      expect((await query('no_such_metric_anywhere')).reason).toBe('no_data_for_query');
    });

    it('prom_multiple_series for several series', async () => {
      expect(await query('probe_pair')).toMatchObject({
        value: null,
        reason: 'prom_multiple_series',
        metadata: { series: 2 },
      });
    });

    it('BadQuery (400 bad_data) for a PromQL parse error, with the error text', async () => {
      const outcome = await query('sum(');
      expect(outcome).toMatchObject({ reason: 'BadQuery', metadata: { status: 400, error_type: 'bad_data' } });
      expect(outcome.metadata?.error).toMatch(/parse error/);
    });

    it('BadQuery for a range vector, which is no instant value', async () => {
      expect(await query('probe_single[1m]')).toMatchObject({
        reason: 'BadQuery',
        metadata: { result_type: 'matrix' },
      });
    });

    it('non_finite_value for +Inf and NaN', async () => {
      expect((await query('1/0')).reason).toBe('non_finite_value');
      expect((await query('0/0')).reason).toBe('non_finite_value');
    });

    it('Unauthorized (401) when the gateway refuses the token or tenant', async () => {
      const env = {
        PROMETHEUS_SERVER_URL: proxy.url,
        PROMETHEUS_BEARER_TOKEN: 'wrong-token',
        PROMETHEUS_TENANT_ID: 'tenant-a',
      };
      expect(await prometheusProbe({ query: 'up' }, ctxWith(env))).toMatchObject({
        reason: 'Unauthorized',
        metadata: { status: 401 },
      });
      const noTenant = { PROMETHEUS_SERVER_URL: proxy.url, PROMETHEUS_BEARER_TOKEN: 'good-token' };
      expect((await prometheusProbe({ query: 'up' }, ctxWith(noTenant))).reason).toBe('Unauthorized');
    });

    it('PromUpstream (502) when the gateway cannot reach Prometheus', async () => {
      const env = {
        PROMETHEUS_SERVER_URL: deadProxy.url,
        PROMETHEUS_BEARER_TOKEN: 'good-token',
        PROMETHEUS_TENANT_ID: 'tenant-a',
      };
      expect(await prometheusProbe({ query: 'up' }, ctxWith(env))).toMatchObject({
        reason: 'PromUpstream',
        metadata: { status: 502 },
      });
    });

    it('prom_bad_response when the URL is not a Prometheus API (plain text on 200)', async () => {
      expect(await prometheusProbe({ query: 'up', server_url: prom.targetUrl }, ctxWith())).toMatchObject({
        reason: 'prom_bad_response',
        metadata: { problem: 'not_json' },
      });
    });

    it('prom_bad_response for a status outside the API (404 of a wrong path prefix)', async () => {
      expect(await prometheusProbe({ query: 'up', server_url: `${prom.url}/not-prometheus` }, ctxWith())).toMatchObject(
        { reason: 'prom_bad_response', metadata: { status: 404 } },
      );
    });

    it('DNS when the hostname does not resolve', async () => {
      expect(
        (await prometheusProbe({ query: 'up', server_url: 'http://vigil-no-such-host.invalid:9090' }, ctxWith()))
          .reason,
      ).toBe('DNS');
    });

    it('ECONNREFUSED when nothing listens', async () => {
      const port = await getFreePort();
      expect((await prometheusProbe({ query: 'up', server_url: `http://127.0.0.1:${port}` }, ctxWith())).reason).toBe(
        'ECONNREFUSED',
      );
    });

    it('ETIMEDOUT when the server does not answer in time (default timeout or ctx.signal)', async () => {
      expect(
        (await prometheusProbe({ query: 'up', server_url: silentUrl }, ctxWith({}, new AbortController().signal, 300)))
          .reason,
      ).toBe('ETIMEDOUT');
      expect(
        (await prometheusProbe({ query: 'up', server_url: silentUrl }, ctxWith({}, AbortSignal.timeout(300)))).reason,
      ).toBe('ETIMEDOUT');
    });
  });

  describe('agent configuration', () => {
    it("sends the agent's Prometheus credentials only to PROMETHEUS_SERVER_URL's origin, never to a server_url elsewhere", async () => {
      const seen: http.IncomingHttpHeaders[] = [];
      const elsewhere = http.createServer((req, res) => {
        seen.push(req.headers);
        res.writeHead(401).end();
      });
      await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
      try {
        const env = {
          PROMETHEUS_SERVER_URL: proxy.url,
          PROMETHEUS_BEARER_TOKEN: 'good-token',
          PROMETHEUS_TENANT_ID: 'tenant-a',
        };
        await prometheusProbe(
          { query: 'up', server_url: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}` },
          ctxWith(env),
        );
        expect(seen).toHaveLength(1);
        expect([seen[0]!.authorization, seen[0]!['x-scope-orgid']]).toEqual([undefined, undefined]);
        // The same origin as the variable (a server_url naming the agent's own Prometheus) still gets them.
        expect((await prometheusProbe({ query: 'vector(3)', server_url: proxy.url }, ctxWith(env))).value).toBe(3);
      } finally {
        await new Promise((r) => elsewhere.close(r));
      }
    });

    it('prometheus_url_missing without server_url and PROMETHEUS_SERVER_URL', async () => {
      expect(await prometheusProbe({ query: 'up' }, ctxWith())).toMatchObject({
        reason: 'prometheus_url_missing',
        metadata: { variable: 'PROMETHEUS_SERVER_URL' },
      });
    });

    it('invalid_prometheus_url for a variable that is not an http(s) URL', async () => {
      expect(
        (await prometheusProbe({ query: 'up' }, ctxWith({ PROMETHEUS_SERVER_URL: 'prometheus:9090 ' }))).reason,
      ).toBe('invalid_prometheus_url');
      expect((await prometheusProbe({ query: 'up' }, ctxWith({ PROMETHEUS_SERVER_URL: 'not a url' }))).reason).toBe(
        'invalid_prometheus_url',
      );
    });

    it('prometheus_auth_conflict for URL credentials plus a bearer token', async () => {
      const env = {
        PROMETHEUS_SERVER_URL: `http://user:pass@127.0.0.1:${new URL(prom.url).port}`,
        PROMETHEUS_BEARER_TOKEN: 't',
      };
      expect((await prometheusProbe({ query: 'up' }, ctxWith(env))).reason).toBe('prometheus_auth_conflict');
    });

    it('sends URL credentials as Basic auth (Prometheus without auth ignores them)', async () => {
      const env = { PROMETHEUS_SERVER_URL: `http://user:pass@127.0.0.1:${new URL(prom.url).port}` };
      const outcome = await prometheusProbe({ query: 'vector(3)' }, ctxWith(env));
      expect(outcome.value).toBe(3);
      expect(JSON.stringify(outcome)).not.toContain('pass');
    });

    it('prometheus_headers_invalid for a token with a line break', async () => {
      const env = { PROMETHEUS_SERVER_URL: prom.url, PROMETHEUS_BEARER_TOKEN: 'abc\ndef' };
      expect(await prometheusProbe({ query: 'up' }, ctxWith(env))).toMatchObject({
        reason: 'prometheus_headers_invalid',
        metadata: { variable: 'PROMETHEUS_BEARER_TOKEN' },
      });
    });
  });
});
