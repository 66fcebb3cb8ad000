import type { ProbeContext } from '../../src/probes/types';
import { websocketProbe } from '../../src/probes/websocket';
import { startWebsocketServer, WS_BEARER, type TestWebsocketServer } from '../support/probe-websocket-server';
import { agentContext, probeConfig, closedPort } from '../support/probe-net-kit';

const config = (raw: Record<string, unknown>) => probeConfig('websocket', raw);

const context = (env: Record<string, string> = {}, over: Partial<ProbeContext> = {}) =>
  agentContext({ env: (name) => env[name], ...over });

let target: TestWebsocketServer;
beforeAll(async () => {
  target = await startWebsocketServer();
});
afterAll(async () => {
  await target?.close();
});

describe('websocket probe, handshake_latency (default)', () => {
  it('measures the ms until the socket is open', async () => {
    const out = await websocketProbe(config({ url: target.url('/echo') }), context());
    expect(out).toEqual({ value: expect.any(Number), unit: 'ms', value_description: expect.any(String), reason: null });
    expect(out.value).toBeGreaterThan(0);
    expect(out.value).toBeLessThan(5_000);
  });

  it('measures the handshake of a server that closes right after opening', async () => {
    const out = await websocketProbe(config({ url: target.url('/close') }), context());
    expect(out).toMatchObject({ unit: 'ms', reason: null });
  });

  it('answers ws_open_failed with the status for a 403 answer to the upgrade', async () => {
    const out = await websocketProbe(config({ url: target.url('/forbidden') }), context());
    expect(out).toEqual({
      value: null,
      unit: null,
      value_description: null,
      reason: 'ws_open_failed',
      metadata: { status: 403 },
    });
  });

  it('answers ws_open_failed with the error code for a refused connection', async () => {
    const out = await websocketProbe(config({ url: `ws://127.0.0.1:${await closedPort()}/` }), context());
    expect(out).toMatchObject({ value: null, reason: 'ws_open_failed', metadata: { error: 'ECONNREFUSED' } });
  });

  it('answers ws_handshake_timeout when the server never answers the upgrade', async () => {
    // /hang never answers the upgrade: only the timeout can end it, so the reason is the proof.
    const out = await websocketProbe(config({ url: target.url('/hang'), timeout_ms: 300 }), context());
    expect(out).toMatchObject({ value: null, reason: 'ws_handshake_timeout' });
  });

  it('answers ws_handshake_timeout when the probe deadline (ctx.signal) passes, with the default timeout', async () => {
    const out = await websocketProbe(
      config({ url: target.url('/hang') }),
      context({}, { signal: AbortSignal.timeout(300) }),
    );
    expect(out).toMatchObject({ value: null, reason: 'ws_handshake_timeout' });
    const short = await websocketProbe(config({ url: target.url('/hang') }), context({}, { defaultTimeoutMs: 250 }));
    expect(short).toMatchObject({ value: null, reason: 'ws_handshake_timeout' });
  });

  it('does not run in cloud mode', async () => {
    const out = await websocketProbe(config({ url: target.url('/echo') }), context({}, { mode: 'cloud' }));
    expect(out).toMatchObject({ value: null, reason: 'source_not_allowed_in_prober' });
  });
});

describe('websocket probe, round_trip_latency', () => {
  const roundTrip = (path: string, extra: Record<string, unknown> = {}) =>
    config({ url: target.url(path), interpretation: 'round_trip_latency', send: 'ping', ...extra });

  it('measures the ms from the message sent to the first reply', async () => {
    const out = await websocketProbe(roundTrip('/echo', { expect: 'ping' }), context());
    expect(out).toMatchObject({ unit: 'ms', reason: null });
    expect(out.value).toBeGreaterThan(0);
  });

  it('reads a binary reply as UTF-8 for expect', async () => {
    expect(await websocketProbe(roundTrip('/binary', { expect: 'pong:ping' }), context())).toMatchObject({
      unit: 'ms',
      reason: null,
    });
  });

  it('answers ws_reply_mismatch when the reply lacks expect', async () => {
    const out = await websocketProbe(roundTrip('/echo', { expect: 'pong' }), context());
    expect(out).toEqual({ value: null, unit: null, value_description: null, reason: 'ws_reply_mismatch' });
  });

  it('answers ws_closed_early with the close code when the server closes before replying', async () => {
    const out = await websocketProbe(roundTrip('/close'), context());
    expect(out).toEqual({
      value: null,
      unit: null,
      value_description: null,
      reason: 'ws_closed_early',
      metadata: { close_code: 4001 },
    });
  });

  it('answers ws_reply_timeout when the server never replies', async () => {
    // /silent never replies: only the timeout can end the wait, so the reason is the proof.
    const out = await websocketProbe(roundTrip('/silent', { timeout_ms: 400 }), context());
    expect(out).toMatchObject({ value: null, reason: 'ws_reply_timeout' });
  });

  it('answers the open failure when the socket does not open', async () => {
    expect(await websocketProbe(roundTrip('/forbidden'), context())).toMatchObject({
      value: null,
      reason: 'ws_open_failed',
    });
  });
});

describe('websocket probe, connection_success', () => {
  const success = (path: string, extra: Record<string, unknown> = {}) =>
    config({ url: target.url(path), interpretation: 'connection_success', ...extra });

  it('reads 1 when the socket opens', async () => {
    expect(await websocketProbe(success('/echo'), context())).toEqual({
      value: 1,
      unit: null,
      value_description: expect.any(String),
      reason: null,
    });
  });

  it('reads a measured 0 for a 403, a refused connection or a handshake timeout', async () => {
    const refused = config({ url: `ws://127.0.0.1:${await closedPort()}/`, interpretation: 'connection_success' });
    for (const cfg of [success('/forbidden'), refused, success('/hang', { timeout_ms: 300 })]) {
      expect(await websocketProbe(cfg, context())).toMatchObject({ value: 0, reason: null });
    }
  });
});

describe('websocket probe, header_refs', () => {
  const authed = (extra: Record<string, unknown> = {}) =>
    config({ url: target.url('/auth'), header_refs: { Authorization: 'WS_AUTH' }, ...extra });

  it('sends the header resolved from the variable, and never puts it in the outcome', async () => {
    const out = await websocketProbe(
      authed({ interpretation: 'round_trip_latency', send: 'hi', expect: 'hi' }),
      context({ WS_AUTH: WS_BEARER }),
    );
    expect(out).toMatchObject({ unit: 'ms', reason: null });
    expect(JSON.stringify(out)).not.toContain(WS_BEARER);
  });

  it('is refused (401 → ws_open_failed) without the header', async () => {
    const out = await websocketProbe(config({ url: target.url('/auth') }), context());
    expect(out).toMatchObject({ value: null, reason: 'ws_open_failed', metadata: { status: 401 } });
  });

  it('answers header_ref_missing, naming header and variable, when the variable is unset or blank', async () => {
    for (const env of [{}, { WS_AUTH: ' ' }] as Record<string, string>[]) {
      const out = await websocketProbe(authed(), context(env));
      expect(out).toEqual({
        value: null,
        unit: null,
        value_description: null,
        reason: 'header_ref_missing',
        metadata: { header: 'Authorization', header_ref: 'WS_AUTH' },
      });
    }
  });

  it('answers header_ref_invalid for a line break or control character, even for connection_success', async () => {
    for (const value of [`${WS_BEARER}\n`, `${WS_BEARER}\r\nX-Evil: 1`, 'Bearer \x01', 'Bearer 令牌']) {
      const out = await websocketProbe(authed({ interpretation: 'connection_success' }), context({ WS_AUTH: value }));
      expect(out).toEqual({
        value: null,
        unit: null,
        value_description: null,
        reason: 'header_ref_invalid',
        metadata: { header: 'Authorization', header_ref: 'WS_AUTH' },
      });
    }
  });
});
