import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { httpProbe, mtlsHttpProbe } from '../../src/probes/http';
import { type ProbeContext, type ProbeOutcome, ProbeFailure } from '../../src/probes/types';
import { eventually } from '../support/eventually';
import { type ProbeCerts, makeProbeCerts } from '../support/probe-certs';
import {
  type Server,
  close,
  closedPort,
  garbageServer,
  httpConfig,
  listen,
  probeContext,
  resettingServer,
} from '../support/probe-http-targets';

const SECRET_BODY = 'TOP-SECRET-BODY-CONTENT';
const TOKEN = 'tok-3f9a1c-secret';
const JSON_BODY =
  '{"queue":{"depth":42,"ratio":0.5,"ok":true,"down":false,"name":"q1","count":"7","nil":null,"list":[1,2],"obj":{}},"items":[{"v":1},{"v":2}],"huge":1e400}';
const MB = 1024 * 1024;

let base: string;
let plainPort: number;
const servers: Server[] = [];
const seen: { headers?: http.IncomingHttpHeaders; method?: string; body?: string; connections: number } = {
  connections: 0,
};
let openSockets = 0;

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const p = url.pathname;
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    Object.assign(seen, { headers: req.headers, method: req.method, body });
    if (p === '/ok') return void res.end(`hello ${SECRET_BODY}`);
    if (p.startsWith('/status/')) return void res.writeHead(Number(p.slice(8))).end(SECRET_BODY);
    if (p === '/headers')
      return void res
        .writeHead(req.headers['x-api-key'] === TOKEN && req.headers['x-plain'] === 'plain' ? 200 : 401)
        .end();
    if (p === '/post') return void res.writeHead(req.method === 'POST' && body === '{"ping":1}' ? 201 : 400).end();
    if (p.startsWith('/chain/')) {
      const n = Number(p.slice(7));
      return void res.writeHead(302, { location: n > 0 ? `/chain/${n - 1}` : '/ok' }).end(SECRET_BODY);
    }
    if (p === '/to')
      return void res
        .writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('location') ?? '' })
        .end();
    if (p === '/no-location') return void res.writeHead(301).end();
    if (p === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (p === '/see-other') return void res.writeHead(303, { location: '/method' }).end();
    if (p === '/temporary') return void res.writeHead(307, { location: '/post' }).end();
    if (p === '/method') return void res.writeHead(req.method === 'GET' && body === '' ? 200 : 405).end();
    if (p === '/needle-early') return void res.end(`x NEEDLE ${'a'.repeat(10_000)}`);
    if (p === '/needle-late') return void res.end(`${'a'.repeat(4100)} NEEDLE`);
    if (p === '/json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_BODY);
    if (p === '/json-bom') return void res.end(`\uFEFF{"n":3}`);
    if (p === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
    if (p === '/big-chunked') return void streamBig(res, 11 * MB, false);
    if (p === '/big-announced') return void streamBig(res, 11 * MB, true);
    if (p === '/late-body') {
      res.writeHead(200).flushHeaders();
      return void setTimeout(() => res.end('x NEEDLE'), 250).unref();
    }
    if (p === '/slow-headers') return void setTimeout(() => res.end('late'), 3000).unref();
    if (p === '/slow-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"n":');
      return void setTimeout(() => res.end('1}'), 3000).unref();
    }
    res.writeHead(404).end();
  });
}

/** A JSON array of `bytes` bytes, written in 1 MB chunks as the client reads. */
function streamBig(res: http.ServerResponse, bytes: number, announce: boolean): void {
  res.writeHead(200, { 'content-type': 'application/json', ...(announce ? { 'content-length': String(bytes) } : {}) });
  const chunk = '0,'.repeat(MB / 2);
  let sent = 1;
  res.write('[');
  const pump = (): void => {
    while (sent + chunk.length < bytes - 2) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('0]'.padStart(bytes - sent, ' '));
  };
  res.on('error', () => undefined);
  pump();
}

async function start<T extends Server>(server: T): Promise<number> {
  servers.push(server);
  return listen(server);
}

let certs: ProbeCerts;
const tlsPorts: Record<string, number> = {};

beforeAll(async () => {
  const server = http.createServer(route);
  server.on('connection', (s: net.Socket) => {
    seen.connections++;
    openSockets++;
    s.on('close', () => openSockets--);
  });
  plainPort = await start(server);
  base = `http://127.0.0.1:${plainPort}`;
  certs = makeProbeCerts();
  const s = certs.server;
  const variants: Record<string, https.ServerOptions> = {
    chain: { cert: s.valid.cert + certs.ca.cert, key: s.valid.key },
    leafOnly: { cert: s.valid.cert, key: s.valid.key },
    expired: { cert: s.expired.cert, key: s.expired.key },
    notYetValid: { cert: s.notYetValid.cert, key: s.notYetValid.key },
    wrongHost: { cert: s.wrongHost.cert, key: s.wrongHost.key },
    selfSigned: { cert: s.selfSigned.cert, key: s.selfSigned.key },
    clientOnly: { cert: certs.client.valid.cert, key: certs.client.valid.key },
  };
  for (const [name, options] of Object.entries(variants))
    tlsPorts[name] = await start(https.createServer(options, route));
});

afterAll(async () => {
  await Promise.all(servers.map(close));
  certs?.cleanup();
});

const probe = (
  raw: Record<string, unknown>,
  ctx: Partial<ProbeContext> & { vars?: Record<string, string> } = {},
): Promise<ProbeOutcome> => httpProbe(httpConfig(raw), probeContext(ctx));
const tlsUrl = (variant: string, path = '/ok', host = '127.0.0.1') => `https://${host}:${tlsPorts[variant]}${path}`;
const reasonOf = async (raw: Record<string, unknown>, ctx?: Parameters<typeof probe>[1]) =>
  (await probe(raw, ctx)).reason;

describe('http probe: response time', () => {
  it('measures the time to the response headers in ms and keeps the body out of the outcome', async () => {
    const out = await probe({ url: `${base}/ok` });
    expect(out).toMatchObject({ unit: 'ms', reason: null, value_description: 'HTTP response time' });
    expect(out.value).toBeGreaterThan(0);
    expect(out.value).toBeLessThan(2000);
    expect(JSON.stringify(out)).not.toContain(SECRET_BODY);
  });

  it('stops the clock at the headers, or with body_match once the part of the body it reads has arrived', async () => {
    const headersOnly = await probe({ url: `${base}/late-body` });
    expect(headersOnly.value).toBeLessThan(200);
    const withBody = await probe({ url: `${base}/late-body`, body_match: 'NEEDLE' });
    expect(withBody).toMatchObject({ unit: 'ms', reason: null });
    expect(withBody.value).toBeGreaterThanOrEqual(240);
  });

  it('is also the deprecated mtls_http alias', async () => {
    expect(mtlsHttpProbe).toBe(httpProbe);
    expect((await mtlsHttpProbe(httpConfig({ url: `${base}/ok` }), probeContext())).unit).toBe('ms');
  });

  it('sends HEAD and POST with the configured body', async () => {
    expect((await probe({ url: `${base}/ok`, method: 'HEAD' })).reason).toBeNull();
    expect(seen.method).toBe('HEAD');
    expect((await probe({ url: `${base}/post`, method: 'POST', body: '{"ping":1}' })).reason).toBeNull();
  });

  it('opens a connection of its own for every run and closes it afterwards', async () => {
    const before = seen.connections;
    await probe({ url: `${base}/ok` });
    await probe({ url: `${base}/ok` });
    expect(seen.connections - before).toBe(2);
    await eventually(async () => expect(openSockets).toBe(0));
  });
});

describe('http probe: expected_status', () => {
  it('accepts any 2xx by default and answers unexpected_status:<status> otherwise', async () => {
    expect(await reasonOf({ url: `${base}/status/204` })).toBeNull();
    const out = await probe({ url: `${base}/status/503` });
    expect(out).toMatchObject({ value: null, reason: 'unexpected_status:503', metadata: { status: 503 } });
    expect(JSON.stringify(out)).not.toContain(SECRET_BODY);
    expect(await reasonOf({ url: `${base}/status/404` })).toBe('unexpected_status:404');
  });

  it('accepts exactly the configured status or list', async () => {
    expect(await reasonOf({ url: `${base}/status/404`, expected_status: 404 })).toBeNull();
    expect(await reasonOf({ url: `${base}/status/200`, expected_status: 404 })).toBe('unexpected_status:200');
    expect(await reasonOf({ url: `${base}/status/503`, expected_status: [200, 503] })).toBeNull();
  });
});

describe('http probe: headers and header_refs', () => {
  it('sends plain headers and the secret header resolved from the named variable, without reporting either', async () => {
    const out = await probe(
      { url: `${base}/headers`, headers: { 'X-Plain': 'plain' }, header_refs: { 'X-Api-Key': 'API_TOKEN' } },
      { vars: { API_TOKEN: TOKEN } },
    );
    expect(out.reason).toBeNull();
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(seen.headers?.['user-agent']).toBe('Vigil-Probe/1');
  });

  it.each([
    ['unset', {}],
    ['blank', { API_TOKEN: '  ' }],
  ])('answers header_ref_missing when the variable is %s, naming header and variable', async (_, vars) => {
    const out = await probe({ url: `${base}/headers`, header_refs: { 'X-Api-Key': 'API_TOKEN' } }, { vars });
    expect(out).toMatchObject({
      value: null,
      reason: 'header_ref_missing',
      metadata: { header: 'X-Api-Key', header_ref: 'API_TOKEN' },
    });
  });

  it.each([
    ['a line break', `${TOKEN}\n`],
    ['a control character', `${TOKEN}\x07`],
  ])('answers header_ref_invalid for %s', async (_, value) => {
    const out = await probe(
      { url: `${base}/headers`, header_refs: { 'X-Api-Key': 'API_TOKEN' } },
      { vars: { API_TOKEN: value } },
    );
    expect(out).toMatchObject({
      reason: 'header_ref_invalid',
      metadata: { header: 'X-Api-Key', header_ref: 'API_TOKEN' },
    });
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it('does not send secret headers to another origin after a redirect', async () => {
    const other = `http://localhost:${plainPort}/ok`;
    const out = await probe(
      { url: `${base}/to?location=${encodeURIComponent(other)}`, header_refs: { 'X-Api-Key': 'API_TOKEN' } },
      { vars: { API_TOKEN: TOKEN } },
    );
    expect(out.reason).toBeNull();
    expect(seen.headers?.['x-api-key']).toBeUndefined();
  });
});

describe('http probe: redirects', () => {
  it('follows redirects by default and times the whole chain', async () => {
    expect(await probe({ url: `${base}/chain/3` })).toMatchObject({ unit: 'ms', reason: null });
  });

  it('judges the redirect itself when follow_redirects is false', async () => {
    expect(await reasonOf({ url: `${base}/chain/1`, follow_redirects: false })).toBe('unexpected_status:302');
    expect(await reasonOf({ url: `${base}/chain/1`, follow_redirects: false, expected_status: 302 })).toBeNull();
  });

  it('continues a 303 with GET and repeats a 307 as it was', async () => {
    expect(await reasonOf({ url: `${base}/see-other`, method: 'POST', body: 'x' })).toBeNull();
    expect(
      await reasonOf({ url: `${base}/temporary`, method: 'POST', body: '{"ping":1}', expected_status: 201 }),
    ).toBeNull();
  });

  it.each([
    ['redirect_scheme_not_allowed', 'ftp://127.0.0.1/file'],
    ['redirect_scheme_not_allowed', 'file:///etc/passwd'],
    ['url_credentials_not_allowed', 'http://user:pw@127.0.0.1/ok'],
    ['redirect_invalid', 'http://[::1'],
    ['redirect_invalid', 'http://exa mple.com/'],
  ])('answers %s for Location %s', async (reason, location) => {
    expect(await reasonOf({ url: `${base}/to?location=${encodeURIComponent(location)}` })).toBe(reason);
  });

  it('answers redirect_invalid for an empty Location and judges a redirect without one by its status', async () => {
    expect(await reasonOf({ url: `${base}/to?location=` })).toBe('redirect_invalid');
    expect(await reasonOf({ url: `${base}/no-location` })).toBe('unexpected_status:301');
  });

  it('gives up with http_error after 10 redirects', async () => {
    expect(await probe({ url: `${base}/loop` })).toMatchObject({
      reason: 'http_error',
      metadata: { cause: 'too_many_redirects', redirects: 10 },
    });
    expect(await reasonOf({ url: `${base}/chain/9` })).toBeNull();
  });
});

describe('http probe: body_match', () => {
  it('finds the text in the first 4 KB and times the read', async () => {
    expect(await probe({ url: `${base}/needle-early`, body_match: 'NEEDLE' })).toMatchObject({
      unit: 'ms',
      reason: null,
    });
  });

  it('answers body_mismatch when the text is absent or after the first 4 KB', async () => {
    expect(await reasonOf({ url: `${base}/ok`, body_match: 'absent' })).toBe('body_mismatch');
    const out = await probe({ url: `${base}/needle-late`, body_match: 'NEEDLE' });
    expect(out).toMatchObject({ reason: 'body_mismatch', metadata: { bytes_read: 4096 } });
    expect(JSON.stringify(out)).not.toContain('aaaa');
  });
});

describe('http probe: json_path', () => {
  it.each([
    ['$.queue.depth', 42],
    ['$.queue.ratio', 0.5],
    ['$.queue.ok', 1],
    ['$.queue.down', 0],
    ['$.items[1].v', 2],
    ['$.items[?(@.v > 1)].v', 2],
  ])('reads %s as %p with unit null', async (json_path, value) => {
    expect(await probe({ url: `${base}/json`, json_path })).toEqual({
      value,
      unit: null,
      value_description: `Number at ${json_path}`,
      reason: null,
    });
  });

  it('reports the unit the config names for the number (the response carries none), and no unit without a value', async () => {
    expect(await probe({ url: `${base}/json`, json_path: '$.queue.depth', unit: 'jobs' })).toEqual({
      value: 42,
      unit: 'jobs',
      value_description: 'Number at $.queue.depth',
      reason: null,
    });
    expect(await probe({ url: `${base}/json`, json_path: '$.queue.ratio', unit: '%' })).toMatchObject({
      value: 0.5,
      unit: '%',
    });
    expect(
      await mtlsHttpProbe(httpConfig({ url: `${base}/json`, json_path: '$.queue.ok', unit: 'B/s' }), probeContext()),
    ).toMatchObject({ value: 1, unit: 'B/s' });
    expect(await probe({ url: `${base}/json`, json_path: '$.queue.name', unit: 'jobs' })).toMatchObject({
      value: null,
      unit: null,
      reason: 'json_path_non_numeric',
    });
  });

  it.each([
    ['$.queue.name', 'json_path_non_numeric'],
    ['$.queue.count', 'json_path_non_numeric'],
    ['$.queue.nil', 'json_path_unsupported_type'],
    ['$.queue.list', 'json_path_unsupported_type'],
    ['$.queue.obj', 'json_path_unsupported_type'],
    ['$.queue.absent', 'json_path_no_match'],
    ['$.items[*].v', 'json_path_multi_match'],
    ['$.items[', 'json_path_invalid'],
    ['$.items[?(@.v >', 'json_path_invalid'],
    ['$.huge', 'non_finite_value'],
  ])('answers for %s: %s', async (json_path, reason) => {
    const out = await probe({ url: `${base}/json`, json_path });
    expect(out).toMatchObject({ value: null, reason });
    expect(JSON.stringify(out)).not.toContain('q1');
  });

  it('skips a byte order mark and answers json_parse_failed for a body that is not JSON', async () => {
    expect((await probe({ url: `${base}/json-bom`, json_path: '$.n' })).value).toBe(3);
    expect(await reasonOf({ url: `${base}/html`, json_path: '$.n' })).toBe('json_parse_failed');
  });

  it('checks the status before the body', async () => {
    expect(await reasonOf({ url: `${base}/status/500`, json_path: '$.n' })).toBe('unexpected_status:500');
  });

  it('answers json_body_too_large for a streamed body over 10 MB, and at once when Content-Length says so', async () => {
    expect(await probe({ url: `${base}/big-chunked`, json_path: '$[0]' })).toMatchObject({
      reason: 'json_body_too_large',
      metadata: { max_bytes: 10 * MB },
    });
    expect(await reasonOf({ url: `${base}/big-announced`, json_path: '$[0]' })).toBe('json_body_too_large');
  });
});

describe('http probe: network failures', () => {
  it('answers ECONNREFUSED for a closed port', async () => {
    expect(await reasonOf({ url: `http://127.0.0.1:${await closedPort()}/` })).toBe('ECONNREFUSED');
  });

  it('answers ENOTFOUND for a name that does not resolve', async () => {
    expect(await reasonOf({ url: 'http://vigil-probe-test.invalid/' })).toBe('ENOTFOUND');
  });

  it('answers ECONNRESET when the server resets the connection', async () => {
    const port = await start(resettingServer());
    expect(await reasonOf({ url: `http://127.0.0.1:${port}/` })).toBe('ECONNRESET');
  });

  it('answers http_error when the answer is not HTTP', async () => {
    const port = await start(garbageServer());
    expect(await probe({ url: `http://127.0.0.1:${port}/` })).toMatchObject({
      reason: 'http_error',
      metadata: { code: expect.any(String) },
    });
  });

  it('answers ETIMEDOUT when headers or the body come after timeout_ms', async () => {
    // Both answer in full, late: ETIMEDOUT shows the probe gave up at timeout_ms first (no wall-clock bound needed).
    expect(await reasonOf({ url: `${base}/slow-headers`, timeout_ms: 300 })).toBe('ETIMEDOUT');
    expect(await reasonOf({ url: `${base}/slow-body`, timeout_ms: 300, json_path: '$.n' })).toBe('ETIMEDOUT');
  });

  it('uses the context default timeout and answers ETIMEDOUT when the context aborts', async () => {
    expect(await reasonOf({ url: `${base}/slow-headers` }, { defaultTimeoutMs: 200 })).toBe('ETIMEDOUT');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect(await reasonOf({ url: `${base}/slow-headers` }, { signal: ac.signal })).toBe('ETIMEDOUT');
  });
});

describe('http probe: server certificate', () => {
  const ca = () => ({ vars: { PROBE_CA: certs.ca.cert } });

  it('trusts the CA named by ca_cert_ref, as PEM content or as a file path', async () => {
    expect(await probe({ url: tlsUrl('chain'), ca_cert_ref: 'PROBE_CA' }, ca())).toMatchObject({
      unit: 'ms',
      reason: null,
    });
    expect(
      await reasonOf(
        { url: tlsUrl('leafOnly', '/ok', 'localhost'), ca_cert_ref: 'PROBE_CA' },
        { vars: { PROBE_CA: certs.ca.certPath } },
      ),
    ).toBeNull();
    const escaped = certs.ca.cert.trim().replace(/\n/g, '\\n');
    expect(
      await reasonOf({ url: tlsUrl('chain'), ca_cert_ref: 'PROBE_CA' }, { vars: { PROBE_CA: escaped } }),
    ).toBeNull();
  });

  it.each([
    ['chain', 'SELF_SIGNED_CERT_IN_CHAIN', false],
    ['leafOnly', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', false],
    ['selfSigned', 'DEPTH_ZERO_SELF_SIGNED_CERT', false],
    ['expired', 'CERT_HAS_EXPIRED', true],
    ['notYetValid', 'CERT_NOT_YET_VALID', true],
    ['wrongHost', 'ERR_TLS_CERT_ALTNAME_INVALID', true],
  ])('server %s: %s', async (variant, reason, withCa) => {
    expect(await reasonOf({ url: tlsUrl(variant), ...(withCa ? { ca_cert_ref: 'PROBE_CA' } : {}) }, ca())).toBe(reason);
  });

  it('answers tls_error, naming the check, for a verification result without a code of its own', async () => {
    expect(await probe({ url: tlsUrl('clientOnly'), ca_cert_ref: 'PROBE_CA' }, ca())).toMatchObject({
      reason: 'tls_error',
      metadata: { tls_code: 'INVALID_PURPOSE' },
    });
  });

  it('skips verification with tls_verify false', async () => {
    expect(await reasonOf({ url: tlsUrl('selfSigned'), tls_verify: false })).toBeNull();
    expect(await reasonOf({ url: tlsUrl('expired'), tls_verify: false })).toBeNull();
  });

  it('answers tls_handshake_failed when the port does not speak TLS', async () => {
    expect(await reasonOf({ url: `https://127.0.0.1:${plainPort}/ok` })).toBe('tls_handshake_failed');
  });

  it('answers mtls_ref_missing, mtls_file_unreadable and mtls_cert_parse_failed for a bad ca_cert_ref', async () => {
    const url = tlsUrl('chain');
    expect(await probe({ url, ca_cert_ref: 'PROBE_CA' })).toMatchObject({
      reason: 'mtls_ref_missing',
      metadata: { field: 'ca_cert_ref', variable: 'PROBE_CA' },
    });
    expect(await reasonOf({ url, ca_cert_ref: 'PROBE_CA' }, { vars: { PROBE_CA: `${certs.dir}/missing.pem` } })).toBe(
      'mtls_file_unreadable',
    );
    expect(
      await reasonOf(
        { url, ca_cert_ref: 'PROBE_CA' },
        { vars: { PROBE_CA: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----' } },
      ),
    ).toBe('mtls_cert_parse_failed');
  });
});

describe('http probe: cloud mode', () => {
  const recorder = () => {
    const calls: [string, string][] = [];
    return { calls, checkAddress: (host: string, address: string) => void calls.push([host, address]) };
  };
  const cloud = (checkAddress: ProbeContext['checkAddress']) => ({ mode: 'cloud' as const, checkAddress });

  it('resolves the name itself, checks every address and keeps the name for Host', async () => {
    const { calls, checkAddress } = recorder();
    expect(await reasonOf({ url: `http://localhost:${plainPort}/ok` }, cloud(checkAddress))).toBeNull();
    expect(seen.headers?.host).toBe(`localhost:${plainPort}`);
    const local = await lookup('localhost', { all: true });
    expect(calls).toEqual(local.map((a) => ['localhost', a.address]));
  });

  it('checks the address of every redirect hop, IP literals included', async () => {
    const { calls, checkAddress } = recorder();
    const to = `http://127.0.0.1:${plainPort}/ok`;
    expect(
      await reasonOf(
        { url: `http://localhost:${plainPort}/to?location=${encodeURIComponent(to)}` },
        cloud(checkAddress),
      ),
    ).toBeNull();
    expect(calls).toContainEqual(['127.0.0.1', '127.0.0.1']);
  });

  it("answers the checker's target_not_public reason, on the first hop or a later one", async () => {
    const blockAll = () => {
      throw new ProbeFailure('target_not_public:loopback');
    };
    expect(await reasonOf({ url: `${base}/ok` }, cloud(blockAll))).toBe('target_not_public:loopback');
    const blockLiterals = (host: string, address: string) => {
      if (host === address) throw new ProbeFailure('target_not_public:loopback');
    };
    const before = seen.connections;
    const to = `http://127.0.0.1:${plainPort}/ok`;
    expect(
      await reasonOf(
        { url: `http://localhost:${plainPort}/to?location=${encodeURIComponent(to)}` },
        cloud(blockLiterals),
      ),
    ).toBe('target_not_public:loopback');
    expect(seen.connections - before).toBe(1);
  });

  it('refuses a redirect to an internal name before resolving it', async () => {
    const { calls, checkAddress } = recorder();
    const to = `http://localhost:${plainPort}/ok`;
    expect(await reasonOf({ url: `${base}/to?location=${encodeURIComponent(to)}` }, cloud(checkAddress))).toBe(
      'host_internal',
    );
    expect(calls).toEqual([['127.0.0.1', '127.0.0.1']]);
  });

  it('neither resolves nor sends header_refs', async () => {
    const { checkAddress } = recorder();
    const out = await probe(
      { url: `${base}/ok`, header_refs: { 'X-Api-Key': 'API_TOKEN' } },
      { ...cloud(checkAddress), vars: { API_TOKEN: TOKEN } },
    );
    expect(out.reason).toBeNull();
    expect(seen.headers?.['x-api-key']).toBeUndefined();
  });

  it('answers dns_failed for a name that does not resolve', async () => {
    const { checkAddress } = recorder();
    expect(await probe({ url: 'http://vigil-probe-test.invalid/' }, cloud(checkAddress))).toMatchObject({
      reason: 'dns_failed',
      metadata: { host: 'vigil-probe-test.invalid', code: 'ENOTFOUND' },
    });
  });

  it('throws, as a programming error, when run in cloud mode without an address check', async () => {
    await expect(probe({ url: `${base}/ok` }, { mode: 'cloud' })).rejects.toThrow('Cloud probes need ctx.checkAddress');
  });
});
