import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { lokiProbe } from '../../src/probes/loki';
import { prometheusProbe } from '../../src/probes/prometheus';
import type { ProbeContext } from '../../src/probes/types';

/**
 * The agent's fixed credentials (settings a probe reads under its own name) go only to the server
 * the operator configured for them. Two loopback hosts stand in for the agent's own server
 * (127.0.0.2) and a server a metric writer chose (127.0.0.3); both answer like Loki and
 * Prometheus, whatever the headers, so each probe measures and we read what each host received.
 */
interface Host {
  url: string;
  received: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function startHost(address: string): Promise<Host> {
  const received: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: 'success',
        data: { resultType: 'vector', result: [{ metric: {}, value: [1_700_000_000, '7'] }] },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    url: `http://${address}:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ctxWith = (vars: Record<string, string>): ProbeContext => ({
  env: (name) => vars[name],
  setting: (name) => vars[name],
  mode: 'agent',
  signal: new AbortController().signal,
  defaultTimeoutMs: 5_000,
});

const credentialHeaders = (headers: http.IncomingHttpHeaders | undefined) => ({
  tenant: headers?.['x-scope-orgid'],
  authorization: headers?.authorization,
});

describe('fixed agent credentials stay with the configured server', () => {
  let own: Host;
  let other: Host;

  beforeAll(async () => {
    own = await startHost('127.0.0.2');
    other = await startHost('127.0.0.3');
  });

  afterAll(async () => {
    await own?.close();
    await other?.close();
  });

  describe('loki: LOKI_TENANT_ID goes only to the origin of LOKI_SERVER_URL', () => {
    const env = () => ({ LOKI_SERVER_URL: own.url, LOKI_TENANT_ID: 'team-a', VIGIL_SECRET_LOKI_URL: other.url });

    it('sends the tenant to the configured server, with a path prefix too', async () => {
      expect(
        (await lokiProbe({ query: 'sum(rate({app="api"}[5m]))', url: `${own.url}/loki-prefix` }, ctxWith(env()))).value,
      ).toBe(7);
      expect(credentialHeaders(own.received.at(-1))).toEqual({ tenant: 'team-a', authorization: undefined });
    });

    it('queries a url on another host without the tenant', async () => {
      const before = other.received.length;
      expect((await lokiProbe({ query: 'sum(rate({app="api"}[5m]))', url: other.url }, ctxWith(env()))).value).toBe(7);
      expect(other.received.length).toBe(before + 1);
      expect(credentialHeaders(other.received.at(-1))).toEqual({ tenant: undefined, authorization: undefined });
    });

    it('queries a url_ref on another host without the tenant', async () => {
      expect((await lokiProbe({ query: '1', url_ref: 'VIGIL_SECRET_LOKI_URL' }, ctxWith(env()))).value).toBe(7);
      expect(other.received.at(-1)?.['x-scope-orgid']).toBeUndefined();
    });

    it('keeps the tenant from the same host on another port and from another scheme', async () => {
      const port = Number(new URL(own.url).port);
      const elsewhere = { ...env(), LOKI_SERVER_URL: `http://127.0.0.2:${port === 65_535 ? port - 1 : port + 1}` };
      expect((await lokiProbe({ query: '1', url: own.url }, ctxWith(elsewhere))).value).toBe(7);
      expect(own.received.at(-1)?.['x-scope-orgid']).toBeUndefined();
      expect(
        (
          await lokiProbe(
            { query: '1', url: own.url },
            ctxWith({ ...env(), LOKI_SERVER_URL: own.url.replace('http:', 'https:') }),
          )
        ).value,
      ).toBe(7);
      expect(own.received.at(-1)?.['x-scope-orgid']).toBeUndefined();
    });

    it('sends the tenant nowhere while LOKI_SERVER_URL is unset or not a URL', async () => {
      for (const server of [undefined, '127.0.0.2', 'ftp://127.0.0.2/']) {
        const vars: Record<string, string> = {
          LOKI_TENANT_ID: 'team-a',
          ...(server ? { LOKI_SERVER_URL: server } : {}),
        };
        expect((await lokiProbe({ query: '1', url: own.url }, ctxWith(vars))).value).toBe(7);
        expect(own.received.at(-1)?.['x-scope-orgid']).toBeUndefined();
      }
    });
  });

  describe('prometheus: its token and tenant go only to the origin of PROMETHEUS_SERVER_URL', () => {
    const env = () => ({
      PROMETHEUS_SERVER_URL: own.url,
      PROMETHEUS_BEARER_TOKEN: 'own-token',
      PROMETHEUS_TENANT_ID: 'tenant-a',
    });

    it('sends them to the configured server, by default and when server_url names it', async () => {
      expect((await prometheusProbe({ query: 'up' }, ctxWith(env()))).value).toBe(7);
      expect(credentialHeaders(own.received.at(-1))).toEqual({ tenant: 'tenant-a', authorization: 'Bearer own-token' });
      expect((await prometheusProbe({ query: 'up', server_url: `${own.url}/` }, ctxWith(env()))).value).toBe(7);
      expect(credentialHeaders(own.received.at(-1))).toEqual({ tenant: 'tenant-a', authorization: 'Bearer own-token' });
    });

    it('queries a server_url on another host without them', async () => {
      expect((await prometheusProbe({ query: 'up', server_url: other.url }, ctxWith(env()))).value).toBe(7);
      expect(credentialHeaders(other.received.at(-1))).toEqual({ tenant: undefined, authorization: undefined });
    });
  });
});
