import { grpcProbe } from '../../src/probes/grpc';
import type { ProbeContext } from '../../src/probes/types';
import { makeGrpcTestCerts, type GrpcTestCerts } from '../support/probe-grpc-certs';
import { HEALTH_TOKEN, startGrpcServer, type TestGrpcServer } from '../support/probe-grpc-server';
import { agentContext, probeConfig, closedPort } from '../support/probe-net-kit';

const config = (raw: Record<string, unknown>) => probeConfig('grpc', raw);

const context = (env: Record<string, string> = {}, over: Partial<ProbeContext> = {}) =>
  agentContext({ env: (name) => env[name], ...over });

let health: TestGrpcServer;
let bare: TestGrpcServer;
let secure: TestGrpcServer;
let certs: GrpcTestCerts;

beforeAll(async () => {
  certs = makeGrpcTestCerts();
  [health, bare, secure] = await Promise.all([
    startGrpcServer(),
    startGrpcServer({ health: false }),
    startGrpcServer({ tls: { cert: certs.certPem, key: certs.keyPem } }),
  ]);
});

afterAll(async () => {
  await Promise.all([health?.close(), bare?.close(), secure?.close()]);
  certs?.remove();
});

describe('grpc probe, health_state', () => {
  it('reads 1 for a SERVING server (empty service name: the whole server)', async () => {
    const out = await grpcProbe(config({ target: health.target }), context());
    expect(out).toEqual({ value: 1, unit: null, value_description: expect.any(String), reason: null });
  });

  it('reads 1 for a SERVING named service', async () => {
    expect((await grpcProbe(config({ target: health.target, service: 'vigil.Up' }), context())).value).toBe(1);
  });

  it('reads a measured 0 for NOT_SERVING, not an error', async () => {
    const out = await grpcProbe(config({ target: health.target, service: 'vigil.Down' }), context());
    expect(out).toMatchObject({ value: 0, reason: null });
  });

  it('answers grpc_service_unknown when the health service does not know the service (NOT_FOUND)', async () => {
    const out = await grpcProbe(config({ target: health.target, service: 'vigil.Nope' }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_service_unknown', metadata: { grpc_status: 'NOT_FOUND' } });
  });

  it('answers grpc_service_unknown for a SERVICE_UNKNOWN status in the response', async () => {
    const out = await grpcProbe(config({ target: health.target, service: 'vigil.WatchOnly' }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_service_unknown' });
  });

  it('answers grpc_health_unknown for an UNKNOWN status', async () => {
    const out = await grpcProbe(config({ target: health.target, service: 'vigil.Unset' }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_health_unknown' });
  });

  it('answers grpc_unimplemented for a server without the health service', async () => {
    const out = await grpcProbe(config({ target: bare.target }), context());
    expect(out).toMatchObject({
      value: null,
      reason: 'grpc_unimplemented',
      metadata: { grpc_status: 'UNIMPLEMENTED' },
    });
  });

  it('answers grpc_error with the status and message for another error status', async () => {
    const out = await grpcProbe(config({ target: health.target, service: 'vigil.Broken' }), context());
    expect(out).toMatchObject({
      value: null,
      reason: 'grpc_error',
      metadata: { grpc_status: 'INTERNAL', message: 'health backend crashed' },
    });
  });

  it('answers grpc_unavailable for a closed port', async () => {
    const out = await grpcProbe(config({ target: `127.0.0.1:${await closedPort()}` }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_unavailable', metadata: { grpc_status: 'UNAVAILABLE' } });
  });

  it('answers grpc_timeout when the handler never answers within timeout_ms', async () => {
    // vigil.Hang never answers: only the timeout can end the call, so the reason is the proof (no wall-clock bound).
    const out = await grpcProbe(config({ target: health.target, service: 'vigil.Hang', timeout_ms: 300 }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_timeout' });
  });

  it('answers grpc_timeout when the probe deadline (ctx.signal) passes first', async () => {
    // No timeout_ms and a handler that never answers: only the deadline can end it.
    const out = await grpcProbe(
      config({ target: health.target, service: 'vigil.Hang' }),
      context({}, { signal: AbortSignal.timeout(300) }),
    );
    expect(out).toMatchObject({ value: null, reason: 'grpc_timeout' });
  });

  it('uses ctx.defaultTimeoutMs when the config names no timeout', async () => {
    const out = await grpcProbe(
      config({ target: health.target, service: 'vigil.Hang' }),
      context({}, { defaultTimeoutMs: 250 }),
    );
    expect(out).toMatchObject({ value: null, reason: 'grpc_timeout' });
  });

  it('does not run in cloud mode', async () => {
    const out = await grpcProbe(config({ target: health.target }), context({}, { mode: 'cloud' }));
    expect(out).toMatchObject({ value: null, reason: 'source_not_allowed_in_prober' });
  });
});

describe('grpc probe, latency', () => {
  it('measures the Check round trip in ms', async () => {
    const out = await grpcProbe(config({ target: health.target, interpretation: 'latency' }), context());
    expect(out).toMatchObject({ unit: 'ms', reason: null });
    expect(out.value).toBeGreaterThan(0);
    expect(out.value).toBeLessThan(5_000);
  });

  it('measures the round trip of a NOT_SERVING answer too', async () => {
    const out = await grpcProbe(
      config({ target: health.target, service: 'vigil.Down', interpretation: 'latency' }),
      context(),
    );
    expect(out).toMatchObject({ unit: 'ms', reason: null });
    expect(out.value).toBeGreaterThan(0);
  });

  it('still reports failures as reasons', async () => {
    const out = await grpcProbe(config({ target: bare.target, interpretation: 'latency' }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_unimplemented' });
  });
});

describe('grpc probe, metadata_refs', () => {
  const secured = (refs?: Record<string, string>) =>
    config({ target: health.target, service: 'vigil.Secured', ...(refs ? { metadata_refs: refs } : {}) });

  it('sends the variable value under the lowercased key', async () => {
    const out = await grpcProbe(secured({ 'X-Token': 'HEALTH_TOKEN' }), context({ HEALTH_TOKEN }));
    expect(out).toMatchObject({ value: 1, reason: null });
    expect(JSON.stringify(out)).not.toContain(HEALTH_TOKEN);
  });

  it('answers grpc_unauthenticated when the server wants a token and none is sent', async () => {
    expect(await grpcProbe(secured(), context())).toMatchObject({
      value: null,
      reason: 'grpc_unauthenticated',
      metadata: { grpc_status: 'UNAUTHENTICATED' },
    });
  });

  it('answers grpc_permission_denied for a token the server refuses', async () => {
    const out = await grpcProbe(secured({ 'x-token': 'HEALTH_TOKEN' }), context({ HEALTH_TOKEN: 'wrong' }));
    expect(out).toMatchObject({ value: null, reason: 'grpc_permission_denied' });
  });

  it('answers metadata_ref_missing, naming key and variable, when the variable is unset or blank', async () => {
    for (const env of [{}, { HEALTH_TOKEN: '  ' }] as Record<string, string>[]) {
      const out = await grpcProbe(secured({ 'X-Token': 'HEALTH_TOKEN' }), context(env));
      expect(out).toEqual({
        value: null,
        unit: null,
        value_description: null,
        reason: 'metadata_ref_missing',
        metadata: { metadata_key: 'x-token', metadata_ref: 'HEALTH_TOKEN' },
      });
    }
  });

  it('answers metadata_ref_invalid for a line break, control or non-ASCII character, without the value', async () => {
    for (const value of [`${HEALTH_TOKEN}\n`, `a\tb`, 'tökén']) {
      const out = await grpcProbe(secured({ 'x-token': 'HEALTH_TOKEN' }), context({ HEALTH_TOKEN: value }));
      expect(out).toMatchObject({
        value: null,
        reason: 'metadata_ref_invalid',
        metadata: { metadata_key: 'x-token', metadata_ref: 'HEALTH_TOKEN' },
      });
      expect(JSON.stringify(out)).not.toContain(value.trim());
    }
  });
});

describe('grpc probe, TLS', () => {
  it('verifies the server against a CA given as PEM text in the variable', async () => {
    const out = await grpcProbe(
      config({ target: secure.target, tls: true, ca_cert_ref: 'GRPC_CA' }),
      context({ GRPC_CA: certs.caPem.toString() }),
    );
    expect(out).toMatchObject({ value: 1, reason: null });
  });

  it('verifies the server against a CA given as a file path, by hostname too', async () => {
    const out = await grpcProbe(
      config({ target: `localhost:${secure.port}`, ca_cert_ref: 'GRPC_CA' }),
      context({ GRPC_CA: certs.caPath }),
    );
    expect(out).toMatchObject({ value: 1, reason: null });
  });

  it('answers grpc_tls_failed when the certificate does not validate against the system store', async () => {
    const out = await grpcProbe(config({ target: secure.target, tls: true }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_tls_failed', metadata: { grpc_status: 'UNAVAILABLE' } });
  });

  it('answers grpc_tls_failed when the certificate does not validate against the configured CA', async () => {
    const out = await grpcProbe(
      config({ target: secure.target, tls: true, ca_cert_ref: 'GRPC_CA' }),
      context({ GRPC_CA: certs.otherCaPem.toString() }),
    );
    expect(out).toMatchObject({ value: null, reason: 'grpc_tls_failed' });
  });

  it('answers grpc_tls_failed when a plaintext server is probed with TLS', async () => {
    const out = await grpcProbe(
      config({ target: health.target, tls: true, ca_cert_ref: 'GRPC_CA' }),
      context({ GRPC_CA: certs.caPem.toString() }),
    );
    expect(out).toMatchObject({ value: null, reason: 'grpc_tls_failed' });
  });

  it('answers grpc_unavailable when a TLS server is probed in plaintext', async () => {
    const out = await grpcProbe(config({ target: secure.target }), context());
    expect(out).toMatchObject({ value: null, reason: 'grpc_unavailable' });
  });

  it('answers grpc_ca_unreadable for an unset variable, a missing file, or text that is no certificate', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'unset'],
      [{ GRPC_CA: `${certs.dir}/missing.pem` }, 'ENOENT'],
      [{ GRPC_CA: certs.dir }, 'not_a_small_file'],
      [{ GRPC_CA: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' }, 'not_a_pem_certificate'],
    ];
    for (const [env, cause] of cases) {
      const out = await grpcProbe(config({ target: secure.target, tls: true, ca_cert_ref: 'GRPC_CA' }), context(env));
      expect(out).toEqual({
        value: null,
        unit: null,
        value_description: null,
        reason: 'grpc_ca_unreadable',
        metadata: { ca_cert_ref: 'GRPC_CA', cause },
      });
    }
  });
});
