import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { httpProbe, mtlsHttpProbe } from '../../src/probes/http';
import type { ProbeOutcome } from '../../src/probes/types';
import { type ProbeCerts, makeProbeCerts } from '../support/probe-certs';
import {
  type Server,
  close,
  httpConfig,
  listen,
  probeContext,
  startOpensslServer,
} from '../support/probe-http-targets';

let certs: ProbeCerts;
const servers: Server[] = [];
const ports: Record<string, number> = {};
let lastClientCert: string | undefined;

beforeAll(async () => {
  certs = makeProbeCerts();
  const s = certs.server;
  const mtls = { ca: [certs.ca.cert], requestCert: true, rejectUnauthorized: true };
  const variants: Record<string, https.ServerOptions> = {
    mtls: { ...mtls, cert: s.valid.cert + certs.ca.cert, key: s.valid.key },
    expiredServer: { ...mtls, cert: s.expired.cert, key: s.expired.key },
    selfSignedServer: { ...mtls, cert: s.selfSigned.cert, key: s.selfSigned.key },
    plain: { cert: s.valid.cert, key: s.valid.key },
  };
  for (const [name, options] of Object.entries(variants)) {
    const server = https.createServer(options, (req, res) => {
      const cn = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
      lastClientCert = Array.isArray(cn) ? cn.join() : cn;
      res.end('mtls ok');
    });
    servers.push(server);
    ports[name] = await listen(server);
  }
});

afterAll(async () => {
  await Promise.all(servers.map(close));
  certs?.cleanup();
});

const REFS = { client_cert_ref: 'CLIENT_CERT', client_key_ref: 'CLIENT_KEY' };
const url = (variant = 'mtls') => `https://localhost:${ports[variant]}/`;

function run(
  vars: Record<string, string>,
  extra: Record<string, unknown> = {},
  variant = 'mtls',
): Promise<ProbeOutcome> {
  const config = httpConfig({ url: url(variant), ca_cert_ref: 'PROBE_CA', ...REFS, ...extra });
  return httpProbe(config, probeContext({ vars: { PROBE_CA: certs.ca.certPath, ...vars } }));
}
const pairVars = (p: { certPath: string; keyPath: string }) => ({ CLIENT_CERT: p.certPath, CLIENT_KEY: p.keyPath });

describe('mTLS: presenting a client certificate', () => {
  it('measures the response time with the certificate and key read from file paths', async () => {
    const out = await run(pairVars(certs.client.valid));
    expect(out).toMatchObject({ unit: 'ms', reason: null, value_description: 'HTTP response time' });
    expect(out.value).toBeGreaterThan(0);
    expect(lastClientCert).toBe('client');
  });

  it('takes PEM content from the variables, literal \\n escapes included, also through mtls_http', async () => {
    const { cert, key } = certs.client.valid;
    expect((await run({ CLIENT_CERT: cert, CLIENT_KEY: key })).reason).toBeNull();
    const escaped = { CLIENT_CERT: cert.trim().replace(/\n/g, '\\n'), CLIENT_KEY: key.trim().replace(/\n/g, '\\n') };
    const config = httpConfig({ url: url(), ca_cert_ref: 'PROBE_CA', ...REFS });
    const out = await mtlsHttpProbe(config, probeContext({ vars: { PROBE_CA: certs.ca.cert, ...escaped } }));
    expect(out.reason).toBeNull();
    expect(JSON.stringify(out)).not.toContain('PRIVATE KEY');
  });

  it('still presents the certificate with tls_verify false', async () => {
    expect((await run(pairVars(certs.client.valid), { tls_verify: false }, 'selfSignedServer')).reason).toBeNull();
  });
});

describe('mTLS: client material', () => {
  it('answers mtls_ref_missing when neither variable is set', async () => {
    expect(await run({})).toMatchObject({
      value: null,
      reason: 'mtls_ref_missing',
      metadata: { variable: 'CLIENT_CERT', key_variable: 'CLIENT_KEY' },
    });
    expect((await run({ CLIENT_CERT: ' ', CLIENT_KEY: '' })).reason).toBe('mtls_ref_missing');
  });

  it('answers mtls_incomplete when only one of them is set', async () => {
    const { certPath, keyPath } = certs.client.valid;
    expect(await run({ CLIENT_CERT: certPath })).toMatchObject({
      reason: 'mtls_incomplete',
      metadata: { field: 'client_key_ref', variable: 'CLIENT_KEY' },
    });
    expect(await run({ CLIENT_KEY: keyPath })).toMatchObject({
      reason: 'mtls_incomplete',
      metadata: { field: 'client_cert_ref', variable: 'CLIENT_CERT' },
    });
  });

  it('answers mtls_file_unreadable for a path that cannot be read', async () => {
    const { keyPath } = certs.client.valid;
    expect(await run({ CLIENT_CERT: `${certs.dir}/absent.crt`, CLIENT_KEY: keyPath })).toMatchObject({
      reason: 'mtls_file_unreadable',
      metadata: { field: 'client_cert_ref', variable: 'CLIENT_CERT', code: 'ENOENT' },
    });
    expect(await run({ CLIENT_CERT: certs.client.valid.certPath, CLIENT_KEY: certs.dir })).toMatchObject({
      reason: 'mtls_file_unreadable',
      metadata: { code: 'EISDIR' },
    });
  });

  it('answers mtls_cert_parse_failed and mtls_key_parse_failed for PEM that is not a certificate or key', async () => {
    const { cert, key, certPath, keyPath } = certs.client.valid;
    const junk = `${certs.dir}/junk.pem`;
    writeFileSync(junk, 'not a pem at all');
    expect((await run({ CLIENT_CERT: key, CLIENT_KEY: keyPath })).reason).toBe('mtls_cert_parse_failed');
    expect((await run({ CLIENT_CERT: junk, CLIENT_KEY: keyPath })).reason).toBe('mtls_cert_parse_failed');
    expect((await run({ CLIENT_CERT: certPath, CLIENT_KEY: cert })).reason).toBe('mtls_key_parse_failed');
    expect((await run({ CLIENT_CERT: certPath, CLIENT_KEY: junk })).reason).toBe('mtls_key_parse_failed');
  });

  it('answers mtls_weak_key for an RSA key under 2048 bits', async () => {
    expect(await run(pairVars(certs.client.weak))).toMatchObject({
      reason: 'mtls_weak_key',
      metadata: { bits: 1024, min_bits: 2048 },
    });
  });

  it('answers mtls_cert_expired for an expired client certificate', async () => {
    expect(await run(pairVars(certs.client.expired))).toMatchObject({
      reason: 'mtls_cert_expired',
      metadata: { not_after: expect.any(String) },
    });
  });

  it('answers mtls_handshake_failed when the key does not belong to the certificate', async () => {
    const out = await run({ CLIENT_CERT: certs.client.valid.certPath, CLIENT_KEY: certs.client.selfSigned.keyPath });
    expect(out).toMatchObject({
      reason: 'mtls_handshake_failed',
      metadata: { cause: 'key_does_not_match_certificate' },
    });
  });
});

describe('mTLS: handshake', () => {
  it('answers mtls_client_cert_rejected when the server closes the connection after the handshake (Node https)', async () => {
    expect(await run(pairVars(certs.client.selfSigned))).toMatchObject({
      reason: 'mtls_client_cert_rejected',
      metadata: { cause: 'closed_after_handshake' },
    });
  });

  it.each([['-tls1_2'], ['-tls1_3']])(
    'answers mtls_client_cert_rejected with the alert openssl s_server %s sends',
    async (version) => {
      const s = certs.server.valid;
      const server = await startOpensslServer([
        version,
        '-cert',
        s.certPath,
        '-key',
        s.keyPath,
        '-CAfile',
        certs.ca.certPath,
        '-Verify',
        '1',
        '-verify_return_error',
      ]);
      try {
        const at = (extra: Record<string, unknown>, vars: Record<string, string>) =>
          httpProbe(
            httpConfig({ url: `https://localhost:${server.port}/`, ca_cert_ref: 'PROBE_CA', ...extra }),
            probeContext({ vars: { PROBE_CA: certs.ca.cert, ...vars } }),
          );
        expect(await at(REFS, pairVars(certs.client.valid))).toMatchObject({ unit: 'ms', reason: null });
        expect(await at(REFS, pairVars(certs.client.selfSigned))).toMatchObject({
          reason: 'mtls_client_cert_rejected',
          metadata: { tls_code: 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA' },
        });
        expect((await at({}, {})).reason).toBe('tls_handshake_failed');
      } finally {
        server.stop();
      }
    },
  );

  it('answers mtls_server_cert_expired for an expired server certificate', async () => {
    expect((await run(pairVars(certs.client.valid), {}, 'expiredServer')).reason).toBe('mtls_server_cert_expired');
  });

  it('answers mtls_server_verify_failed when the server certificate does not validate', async () => {
    const out = await run(pairVars(certs.client.valid), {}, 'selfSignedServer');
    expect(out).toMatchObject({
      reason: 'mtls_server_verify_failed',
      metadata: { tls_code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    });
    const noCa = httpConfig({ url: url(), ...REFS });
    const untrusted = await httpProbe(noCa, probeContext({ vars: pairVars(certs.client.valid) }));
    expect(untrusted).toMatchObject({
      reason: 'mtls_server_verify_failed',
      metadata: { tls_code: 'SELF_SIGNED_CERT_IN_CHAIN' },
    });
  });

  it('answers mtls_handshake_failed when the port does not complete a TLS handshake', async () => {
    const plainHttp = https.createServer({}, () => undefined);
    servers.push(plainHttp);
    const port = await listen(plainHttp);
    const config = httpConfig({ url: `https://localhost:${port}/`, ...REFS });
    expect((await httpProbe(config, probeContext({ vars: pairVars(certs.client.valid) }))).reason).toBe(
      'mtls_handshake_failed',
    );
  });

  it('answers tls_handshake_failed without a client certificate when the server requires one', async () => {
    const config = httpConfig({ url: url(), ca_cert_ref: 'PROBE_CA' });
    const out = await httpProbe(config, probeContext({ vars: { PROBE_CA: certs.ca.certPath } }));
    expect(out).toMatchObject({
      reason: 'tls_handshake_failed',
      metadata: { tls_code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' },
    });
  });
});
