import net from 'node:net';
import tls from 'node:tls';
import { parseCertDate } from '../../src/probes/cert-expiry';
import { tlsCertProbe } from '../../src/probes/tls-cert';
import { agentContext, close, closedPort, cloudContext, listen, probeConfig } from '../support/probe-net-kit';
import { type ProbeTlsCerts, type TlsCertPair, makeProbeTlsCerts } from '../support/probe-tls-certs';

/**
 * Real TLS servers on 127.0.0.1 with certificates from the openssl CLI. Not covered: no_cert
 * (a server can only omit its certificate with anonymous cipher suites, which Node's client never
 * offers) and bad_cert_date from a live server (openssl cannot write an unparseable notAfter; the
 * parser is tested on its own instead).
 */
const config = (raw: Record<string, unknown>) => probeConfig('tls_cert', raw);

let certs: ProbeTlsCerts;
const servers: net.Server[] = [];
const port: Record<'valid' | 'expired' | 'selfSigned' | 'sni' | 'plain' | 'silent', number> = {
  valid: 0,
  expired: 0,
  selfSigned: 0,
  sni: 0,
  plain: 0,
  silent: 0,
};

const sockets = new Set<net.Socket>();

async function serve(server: net.Server): Promise<number> {
  servers.push(server);
  server.on(server instanceof tls.Server ? 'secureConnection' : 'connection', (s: net.Socket) => sockets.add(s));
  return listen(server);
}
const tlsServer = (pair: TlsCertPair, extra: tls.TlsOptions = {}) =>
  tls.createServer({ ...pair, ...extra }, (socket) => socket.end());

beforeAll(async () => {
  certs = makeProbeTlsCerts();
  port.valid = await serve(tlsServer(certs.valid));
  port.expired = await serve(tlsServer(certs.expired));
  port.selfSigned = await serve(tlsServer(certs.selfSigned));
  // Default certificate: the 30-day one; SNI selfsigned.test gets the self-signed 90-day one.
  const selfSignedContext = tls.createSecureContext(certs.selfSigned);
  port.sni = await serve(
    tlsServer(certs.valid, {
      SNICallback: (name, cb) => cb(null, name === 'selfsigned.test' ? selfSignedContext : undefined),
    }),
  );
  // A plain TCP service (HTTP-like): answers the ClientHello with text and closes.
  port.plain = await serve(
    net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'))),
  );
  // Accepts and never says anything: the handshake waits for the timeout.
  port.silent = await serve(net.createServer(() => undefined));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => close(s)));
  certs?.cleanup();
});

describe('tls_cert probe', () => {
  it('measures about 30 days for a 30-day certificate', async () => {
    const outcome = await tlsCertProbe(config({ host: '127.0.0.1', port: port.valid }), agentContext());
    expect(outcome).toMatchObject({
      unit: 'days',
      reason: null,
      value_description: 'Days until the TLS certificate expires',
    });
    expect(outcome.value).toBeGreaterThan(29.9);
    expect(outcome.value).toBeLessThanOrEqual(30);
  });

  it('measures a negative number of days for an expired certificate', async () => {
    const outcome = await tlsCertProbe(config({ host: '127.0.0.1', port: port.expired }), agentContext());
    expect(outcome).toMatchObject({ unit: 'days', reason: null });
    expect(outcome.value).toBeGreaterThan(-10.1);
    expect(outcome.value).toBeLessThan(-9.9);
  });

  it('still measures a self-signed certificate', async () => {
    const outcome = await tlsCertProbe(config({ host: 'localhost', port: port.selfSigned }), agentContext());
    expect(outcome).toMatchObject({ unit: 'days', reason: null });
    expect(outcome.value).toBeGreaterThan(89.9);
    expect(outcome.value).toBeLessThanOrEqual(90);
  });

  it('sends servername as SNI, and the host name when none is set', async () => {
    const bySni = await tlsCertProbe(
      config({ host: '127.0.0.1', port: port.sni, servername: 'selfsigned.test' }),
      agentContext(),
    );
    expect(bySni.value).toBeGreaterThan(89.9);
    const byDefault = await tlsCertProbe(config({ host: 'localhost', port: port.sni }), agentContext());
    expect(byDefault.value).toBeGreaterThan(29.9);
    expect(byDefault.value).toBeLessThanOrEqual(30);
  });

  it('answers tls_handshake_failed when the port does not speak TLS', async () => {
    const outcome = await tlsCertProbe(config({ host: '127.0.0.1', port: port.plain }), agentContext());
    // OpenSSL reads the text as a TLS record of an unknown version.
    expect(outcome).toMatchObject({
      value: null,
      reason: 'tls_handshake_failed',
      metadata: { code: 'ERR_SSL_WRONG_VERSION_NUMBER' },
    });
  });

  it('answers ETIMEDOUT when the server never answers the handshake', async () => {
    const outcome = await tlsCertProbe(
      config({ host: '127.0.0.1', port: port.silent, timeout_ms: 300 }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
  });

  it('answers ETIMEDOUT when the runner aborts ctx.signal', async () => {
    const outcome = await tlsCertProbe(
      config({ host: '127.0.0.1', port: port.silent }),
      agentContext({ signal: AbortSignal.timeout(200) }),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
  });

  it('answers ECONNREFUSED when nothing listens', async () => {
    const outcome = await tlsCertProbe(config({ host: '127.0.0.1', port: await closedPort() }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'ECONNREFUSED' });
  });

  it('answers ENOTFOUND for a name that does not resolve', async () => {
    const outcome = await tlsCertProbe(config({ host: 'no-such-host.invalid', port: 443 }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'ENOTFOUND' });
  });

  describe('in cloud mode', () => {
    it('refuses a loopback target through checkAddress', async () => {
      const outcome = await tlsCertProbe(config({ host: 'localhost', port: port.valid }), cloudContext());
      expect(outcome).toMatchObject({ value: null, reason: 'target_not_public:loopback' });
    });

    it('connects to the checked address and keeps servername for SNI', async () => {
      const ctx = cloudContext({ allowLoopback: true });
      const outcome = await tlsCertProbe(
        config({ host: '127.0.0.1', port: port.sni, servername: 'selfsigned.test' }),
        ctx,
      );
      expect(outcome.value).toBeGreaterThan(89.9);
      expect(ctx.checked).toEqual([['127.0.0.1', '127.0.0.1']]);
    });
  });

  describe('certificate dates', () => {
    it('parses the notAfter form Node prints, in GMT', () => {
      expect(parseCertDate('Mar  3 12:00:00 2031 GMT')).toBe(Date.UTC(2031, 2, 3, 12, 0, 0));
      expect(parseCertDate('Dec 31 23:59:59.5 2049 GMT')).toBe(Date.UTC(2049, 11, 31, 23, 59, 59));
    });

    it('gives null (bad_cert_date) for anything else', () => {
      for (const text of [
        '',
        'not a date',
        '2031-03-03T12:00:00Z',
        'Foo  3 12:00:00 2031 GMT',
        'Mar 3 25:00:00 2031 GMT',
      ])
        expect(parseCertDate(text)).toBeNull();
    });
  });
});
