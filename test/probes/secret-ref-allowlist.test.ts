import https from 'node:https';
import type { ServerResponse } from 'node:http';
import { secretRefResolver } from '../../src/agent/secret-refs';
import { LOCAL_SERVER_URL, canConnect } from '../../src/launchers/postgres';
import { databaseProbe } from '../../src/probes/database';
import { elasticsearchProbe } from '../../src/probes/elasticsearch';
import { grpcProbe } from '../../src/probes/grpc';
import { httpProbe } from '../../src/probes/http';
import { lokiProbe } from '../../src/probes/loki';
import type { ProbeContext, ProbeOutcome } from '../../src/probes/types';
import { websocketProbe } from '../../src/probes/websocket';
import { type ProbeCerts, makeProbeCerts } from '../support/probe-certs';
import { type GrpcTestCerts, makeGrpcTestCerts } from '../support/probe-grpc-certs';
import { HEALTH_TOKEN, type TestGrpcServer, startGrpcServer } from '../support/probe-grpc-server';
import { type ApiServer, type RecordedRequest, sendJson, sendText, startApiServer } from '../support/probe-http-api';
import { close, httpConfig, listen } from '../support/probe-http-targets';
import { agentContext, probeConfig } from '../support/probe-net-kit';
import { type TestWebsocketServer, WS_BEARER, startWebsocketServer } from '../support/probe-websocket-server';

/**
 * Issue 24 §5.1, probe by probe: every `*_ref` a probe reads goes through the agent's allowlisted
 * resolver (src/agent/secret-refs.ts) over a host environment where the same value sits under an
 * allowed name (VIGIL_SECRET_*), an ordinary name and the agent's own token (listed in
 * VIGIL_AGENT_SECRETS, which must not help). Only the allowed name may reach the target.
 */
const AUTH = 'Bearer api-secret-51d0';

/** The probe context an agent builds (agent.ts, metric-runner.ts) over the given host variables. */
function agentHost(values: Record<string, string>): { ctx: ProbeContext; refused: string[] } {
  const env: Record<string, string> = { VIGIL_AGENT_SECRETS: 'VIGIL_AGENT_TOKEN' };
  for (const [key, value] of Object.entries(values))
    Object.assign(env, { [`VIGIL_SECRET_${key}`]: value, [`PLAIN_${key}`]: value, VIGIL_AGENT_TOKEN: value });
  const refused: string[] = [];
  return { ctx: agentContext({ env: secretRefResolver(env, (name) => refused.push(name)) }), refused };
}

/** The refused names for one host variable: an ordinary one and the agent token. */
const refusedNames = (key: string) => [`PLAIN_${key}`, 'VIGIL_AGENT_TOKEN'];

async function expectRefused(
  key: string,
  value: string,
  run: (name: string, ctx: ProbeContext) => Promise<ProbeOutcome>,
  reason: string,
): Promise<void> {
  for (const name of refusedNames(key)) {
    const { ctx, refused } = agentHost({ [key]: value });
    const out = await run(name, ctx);
    expect([name, out.reason, out.value]).toEqual([name, reason, null]);
    expect(JSON.stringify(out)).not.toContain(value);
    expect(refused).toContain(name);
  }
}

let api: ApiServer;
let grpcPlain: TestGrpcServer;
let grpcTls: TestGrpcServer;
let grpcCerts: GrpcTestCerts;
let ws: TestWebsocketServer;
let certs: ProbeCerts;
let mtls: https.Server;
let mtlsUrl: string;

function lokiOrEs(req: RecordedRequest, res: ServerResponse): void {
  if (req.headers.authorization !== AUTH) return sendText(res, 401, 'unauthorized');
  if (req.path.startsWith('/loki/api/v1/query'))
    return sendJson(res, 200, { status: 'success', data: { resultType: 'scalar', result: [1_700_000_000, '7'] } });
  if (req.path === '/logs/_search')
    return sendJson(res, 200, { timed_out: false, hits: { total: { value: 1 } }, aggregations: { n: { value: 7 } } });
  sendText(res, 404, 'not found');
}

beforeAll(async () => {
  grpcCerts = makeGrpcTestCerts();
  certs = makeProbeCerts();
  mtls = https.createServer(
    {
      cert: certs.server.valid.cert + certs.ca.cert,
      key: certs.server.valid.key,
      ca: [certs.ca.cert],
      requestCert: true,
      rejectUnauthorized: true,
    },
    (_req, res) => res.end('ok'),
  );
  [api, grpcPlain, grpcTls, ws] = await Promise.all([
    startApiServer(lokiOrEs),
    startGrpcServer(),
    startGrpcServer({ tls: { cert: grpcCerts.certPem, key: grpcCerts.keyPem } }),
    startWebsocketServer(),
  ]);
  mtlsUrl = `https://localhost:${await listen(mtls)}/`;
});

afterAll(async () => {
  await Promise.all([api?.close(), grpcPlain?.close(), grpcTls?.close(), ws?.close(), close(mtls)]);
  grpcCerts?.remove();
  certs?.cleanup();
});

describe('probes resolve *_ref only through the agent allowlist', () => {
  it('grpc metadata_refs: metadata_ref_missing for a refused name, sent under VIGIL_SECRET_*', async () => {
    const run = (name: string, ctx: ProbeContext) =>
      grpcProbe(
        probeConfig('grpc', { target: grpcPlain.target, service: 'vigil.Secured', metadata_refs: { 'x-token': name } }),
        ctx,
      );
    await expectRefused('TOKEN', HEALTH_TOKEN, run, 'metadata_ref_missing');
    expect(await run('VIGIL_SECRET_TOKEN', agentHost({ TOKEN: HEALTH_TOKEN }).ctx)).toMatchObject({
      value: 1,
      reason: null,
    });
  });

  it('grpc ca_cert_ref: grpc_ca_unreadable for a refused name, trusted under VIGIL_SECRET_*', async () => {
    const ca = grpcCerts.caPem.toString();
    const run = (name: string, ctx: ProbeContext) =>
      grpcProbe(probeConfig('grpc', { target: grpcTls.target, tls: true, ca_cert_ref: name }), ctx);
    await expectRefused('CA', ca, run, 'grpc_ca_unreadable');
    expect(await run('VIGIL_SECRET_CA', agentHost({ CA: ca }).ctx)).toMatchObject({ value: 1, reason: null });
  });

  it('http ca_cert_ref and client_cert_ref/client_key_ref: mtls_ref_missing for refused names, mTLS works under VIGIL_SECRET_*', async () => {
    const pair = { CA: certs.ca.cert, CERT: certs.client.valid.cert, KEY: certs.client.valid.key };
    const { ctx: allowed } = agentHost(pair);
    const refs = (prefix: string) => ({
      ca_cert_ref: `${prefix}CA`,
      client_cert_ref: `${prefix}CERT`,
      client_key_ref: `${prefix}KEY`,
    });
    const run = (refsOf: Record<string, string>, ctx: ProbeContext) =>
      httpProbe(httpConfig({ url: mtlsUrl, ...refsOf }), ctx);
    // The CA refused (the client pair allowed): refused before any connection.
    await expectRefused(
      'CA',
      pair.CA,
      (name, ctx) => run({ ...refs('VIGIL_SECRET_'), ca_cert_ref: name }, agentWith(ctx, pair)),
      'mtls_ref_missing',
    );
    // The client pair refused (the CA allowed).
    const bothPlain = await run({ ...refs('PLAIN_'), ca_cert_ref: 'VIGIL_SECRET_CA' }, allowed);
    expect(bothPlain).toMatchObject({
      value: null,
      reason: 'mtls_ref_missing',
      metadata: { variable: 'PLAIN_CERT', key_variable: 'PLAIN_KEY' },
    });
    expect(await run(refs('VIGIL_SECRET_'), allowed)).toMatchObject({ unit: 'ms', reason: null });
  });

  it('websocket header_refs: header_ref_missing for a refused name, sent under VIGIL_SECRET_*', async () => {
    const run = (name: string, ctx: ProbeContext) =>
      websocketProbe(probeConfig('websocket', { url: ws.url('/auth'), header_refs: { Authorization: name } }), ctx);
    await expectRefused('WS', WS_BEARER, run, 'header_ref_missing');
    expect(await run('VIGIL_SECRET_WS', agentHost({ WS: WS_BEARER }).ctx)).toMatchObject({ unit: 'ms', reason: null });
  });

  it('loki auth_ref and url_ref: loki_auth_ref_missing / loki_error (url_ref_unset) for refused names, queried under VIGIL_SECRET_*', async () => {
    const query = 'sum(count_over_time({app="api"}[5m]))';
    const runAuth = (name: string, ctx: ProbeContext) =>
      lokiProbe(probeConfig('loki', { url: api.url, query, auth_ref: name }), ctx);
    await expectRefused('AUTH', AUTH, runAuth, 'loki_auth_ref_missing');
    const runUrl = (name: string, ctx: ProbeContext) =>
      lokiProbe(probeConfig('loki', { url_ref: name, query, auth_ref: 'VIGIL_SECRET_AUTH' }), agentWith(ctx, { AUTH }));
    await expectRefused('URL', api.url, runUrl, 'loki_error');
    const { ctx } = agentHost({ AUTH, URL: api.url });
    expect(
      await lokiProbe(probeConfig('loki', { url_ref: 'VIGIL_SECRET_URL', query, auth_ref: 'VIGIL_SECRET_AUTH' }), ctx),
    ).toMatchObject({ value: 7, reason: null });
  });

  it('elasticsearch auth_ref: es_auth_ref_missing for a refused name, searched under VIGIL_SECRET_*', async () => {
    const run = (name: string, ctx: ProbeContext) =>
      elasticsearchProbe(
        probeConfig('elasticsearch', {
          url: api.url,
          index: 'logs',
          query: { aggs: { n: { value_count: { field: 'id' } } } },
          aggregation: 'n',
          auth_ref: name,
        }),
        ctx,
      );
    await expectRefused('AUTH', AUTH, run, 'es_auth_ref_missing');
    expect(await run('VIGIL_SECRET_AUTH', agentHost({ AUTH }).ctx)).toMatchObject({ value: 7, reason: null });
  });

  it('database connection_string_ref: db_dsn_missing for a refused name, queried under VIGIL_SECRET_*', async () => {
    if (!(await canConnect(LOCAL_SERVER_URL, 3000)))
      throw new Error(`PostgreSQL must be running at ${LOCAL_SERVER_URL} for this test`);
    const run = (name: string, ctx: ProbeContext) =>
      databaseProbe(
        probeConfig('database', { engine: 'postgresql', connection_string_ref: name, query: 'SELECT 1' }),
        ctx,
      );
    await expectRefused('DSN', LOCAL_SERVER_URL, run, 'db_dsn_missing');
    expect(await run('VIGIL_SECRET_DSN', agentHost({ DSN: LOCAL_SERVER_URL }).ctx)).toMatchObject({
      value: 1,
      reason: null,
    });
  });
});

/** `ctx`, whose host also holds `more` (allowed under VIGIL_SECRET_*): for a case where one ref is refused and the others are not. */
function agentWith(ctx: ProbeContext, more: Record<string, string>): ProbeContext {
  const { ctx: other } = agentHost(more);
  return { ...ctx, env: (name) => ctx.env(name) ?? other.env(name) };
}
