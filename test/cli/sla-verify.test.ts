import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SecretBox } from '../../src/crypto/secret-box';
import { type StatementSigningKey, generateSigningKey, jwks } from '../../src/crypto/statement-keys';
import { canonicalStatement, signStatement } from '../../src/crypto/statement-signing';
import { runSlaVerify } from '../../src/cli/sla-verify';

/**
 * `vigil sla verify` (src/cli/sla-verify.ts) on real files, and the by-hand check of
 * docs/sla-verification.md run as written (OpenSSL and shell tools only) on the same signature.
 * No database, no Temporal.
 */

const ROOT = path.join(__dirname, '..', '..');
const box = new SecretBox(Buffer.alloc(32, 9));

// Non-ASCII text and a decimal on purpose: the checks must use the file's bytes, not a re-encoding.
const DOCUMENT = {
  statement_id: '5f0c7c1e-2b7a-4f7e-9c1d-2a3b4c5d6e7f',
  customer: { name: 'Müller & Söhne GmbH', reference: 'PO-2026/0042' },
  period: { start: '2026-02-01T00:00:00+01:00', end: '2026-03-01T00:00:00+01:00', zone: 'Europe/Berlin' },
  target: '99.9',
  attainment: '99.87',
  downtime_minutes: 58,
  credit: { amount: '120.00', currency: 'EUR', note: '10 % of 1 200,00 €' },
  services: ['api', 'checkout'],
};

let dir: string;
let active: StatementSigningKey;
let retired: StatementSigningKey;
let other: StatementSigningKey;
let statement: { bytes: Buffer; sha256: string };
let jws: string;

const file = (name: string) => path.join(dir, name);
const write = (name: string, content: string | Buffer) => {
  writeFileSync(file(name), content);
  return file(name);
};

async function verify(argv: string[], deps?: { fetch?: typeof fetch }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSlaVerify(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, deps);
  return { code, out: out.join('\n'), err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-sla-verify-'));
  retired = await generateSigningKey(box, new Date('2025-01-01T00:00:00Z'));
  active = await generateSigningKey(box, new Date('2026-01-01T00:00:00Z'));
  other = await generateSigningKey(box, new Date('2026-01-01T00:00:00Z'));
  statement = canonicalStatement({ ...DOCUMENT, signing_key_id: active.kid });
  jws = await signStatement(statement.bytes, active, box);
  write('statement.json', statement.bytes);
  write('statement.jws', `${jws}\n`);
  write('jwks.json', JSON.stringify(jwks([active, retired])));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vigil sla verify', () => {
  it('accepts the statement as issued, with the JWKS found next to it', async () => {
    const human = await verify([file('statement.json'), file('statement.jws')]);
    expect([human.code, human.err]).toEqual([0, '']);
    expect(human.out).toBe(`OK: signature valid (kid ${active.kid}), sha256 ${statement.sha256}`);

    const json = await verify([
      file('statement.json'),
      file('statement.jws'),
      '--json',
      '--sha256',
      statement.sha256.toUpperCase(),
    ]);
    expect(json.code).toBe(0);
    expect(json.out.split('\n')).toHaveLength(1);
    expect(json.json()).toEqual({
      valid: true,
      kid: active.kid,
      sha256: statement.sha256,
      canonical: true,
      reason: null,
    });
  });

  it('refuses a statement with one byte changed', async () => {
    const text = statement.bytes.toString('utf8');
    expect(text).toContain('"attainment":"99.87"');
    const tampered = write('tampered.json', text.replace('"attainment":"99.87"', '"attainment":"99.97"'));
    const res = await verify([tampered, file('statement.jws'), '--jwks', file('jwks.json'), '--json']);
    expect(res.code).toBe(1);
    // Still canonical JSON: only the signature check can catch it.
    expect(res.json()).toMatchObject({ valid: false, kid: active.kid, canonical: true, reason: 'bad_signature' });
    const human = await verify([tampered, file('statement.jws'), '--jwks', file('jwks.json')]);
    expect(human.out).toMatch(/^FAILED: bad_signature: the signature \(kid .+\) does not match the bytes of /);
  });

  it('refuses the same content written in another form (not RFC 8785 canonical)', async () => {
    const doc = JSON.parse(statement.bytes.toString('utf8'));
    for (const [name, text] of [
      ['pretty.json', JSON.stringify(doc, null, 2)],
      ['newline.json', `${statement.bytes.toString('utf8')}\n`],
      ['bom.json', `\ufeff${statement.bytes.toString('utf8')}`],
      ['escaped.json', statement.bytes.toString('utf8').replace('ü', '\\u00fc')],
    ] as const) {
      expect([name, JSON.parse(text.replace(/^\ufeff/, ''))]).toEqual([name, doc]);
      const res = await verify([write(name, text), file('statement.jws'), '--jwks', file('jwks.json'), '--json']);
      expect([name, res.code, res.json()]).toEqual([
        name,
        1,
        expect.objectContaining({ valid: false, kid: active.kid, canonical: false, reason: 'not_canonical' }),
      ]);
    }
    const human = await verify([file('pretty.json'), file('statement.jws'), '--jwks', file('jwks.json')]);
    expect(human.out).toMatch(/^FAILED: not_canonical: .*pretty\.json is not in RFC 8785 canonical form/);

    const notJson = await verify([
      write('not-json.json', 'Statement, see PDF'),
      file('statement.jws'),
      '--jwks',
      file('jwks.json'),
      '--json',
    ]);
    expect([notJson.code, notJson.json()]).toEqual([
      1,
      expect.objectContaining({ valid: false, canonical: null, reason: 'not_json' }),
    ]);
  });

  it('refuses a signature whose key is missing from the JWKS, or whose kid names another key', async () => {
    const withoutSigner = write('jwks-without-signer.json', JSON.stringify(jwks([retired, other])));
    const missing = await verify([file('statement.json'), file('statement.jws'), '--jwks', withoutSigner, '--json']);
    expect([missing.code, missing.json()]).toEqual([
      1,
      expect.objectContaining({ valid: false, kid: active.kid, reason: 'unknown_kid' }),
    ]);
    const human = await verify([file('statement.json'), file('statement.jws'), '--jwks', withoutSigner]);
    expect(human.out).toMatch(
      new RegExp(`^FAILED: unknown_kid: the JWKS \\(.*\\) has no key with kid ${active.kid}\\.`),
    );

    // The header names `other` (present in the JWKS), the signature is `active`'s.
    const [, , signature] = jws.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', b64: false, crit: ['b64'], kid: other.kid })).toString(
      'base64url',
    );
    const wrongKid = write('wrong-kid.jws', `${header}..${signature}`);
    const all = write('jwks-all.json', JSON.stringify(jwks([active, retired, other])));
    const res = await verify([file('statement.json'), wrongKid, '--jwks', all, '--json']);
    expect([res.code, res.json()]).toEqual([
      1,
      expect.objectContaining({ valid: false, kid: other.kid, reason: 'bad_signature' }),
    ]);

    const garbage = await verify([
      file('statement.json'),
      write('garbage.jws', 'not a signature'),
      '--jwks',
      all,
      '--json',
    ]);
    expect([garbage.code, garbage.json()]).toEqual([
      1,
      expect.objectContaining({ valid: false, kid: null, reason: 'malformed' }),
    ]);
  });

  it('accepts a statement signed with a retired key that the JWKS still lists', async () => {
    const old = canonicalStatement({
      ...DOCUMENT,
      statement_id: 'c0ffee00-0000-4000-8000-000000000001',
      signing_key_id: retired.kid,
    });
    const oldJson = write('old-statement.json', old.bytes);
    const oldJws = write('old-statement.jws', await signStatement(old.bytes, retired, box));
    const res = await verify([oldJson, oldJws, '--jwks', file('jwks.json'), '--json']);
    expect([res.code, res.json()]).toEqual([
      0,
      { valid: true, kid: retired.kid, sha256: old.sha256, canonical: true, reason: null },
    ]);
  });

  it('refuses a statement whose SHA-256 is not the one expected', async () => {
    const expected = 'ab'.repeat(32);
    const res = await verify([file('statement.json'), file('statement.jws'), '--sha256', expected, '--json']);
    expect([res.code, res.json()]).toEqual([
      1,
      { valid: false, kid: active.kid, sha256: statement.sha256, canonical: true, reason: 'hash_mismatch' },
    ]);
    const human = await verify([file('statement.json'), file('statement.jws'), '--sha256', expected]);
    expect(human.out).toBe(
      `FAILED: hash_mismatch: the SHA-256 of ${file('statement.json')} is ${statement.sha256}, not the expected ${expected}: this is not the statement you expected (or the file was changed).`,
    );
  });

  describe('with --jwks URL', () => {
    let server: Server;
    let base: string;
    const requests: string[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        requests.push(`${req.method} ${req.url} ${req.headers.accept}`);
        if (req.url === '/.well-known/jwks.json') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks([active, retired])));
        } else if (req.url === '/html') {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
        } else if (req.url === '/not-a-jwks') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":"none"}');
        } else {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"not_found"}');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('fetches the JWKS over HTTP', async () => {
      const res = await verify([
        file('statement.json'),
        file('statement.jws'),
        '--jwks',
        `${base}/.well-known/jwks.json`,
        '--json',
      ]);
      expect([res.code, res.err, res.json()]).toEqual([
        0,
        '',
        { valid: true, kid: active.kid, sha256: statement.sha256, canonical: true, reason: null },
      ]);
      expect(requests).toContain('GET /.well-known/jwks.json application/json');
    });

    it('reports an answer that is not a JWKS as an error, not as a verdict', async () => {
      for (const [route, message] of [
        ['/missing', /HTTP 404/],
        ['/html', /is not JSON \(content-type text\/html\)/],
        ['/not-a-jwks', /is not a JWKS/],
      ] as const) {
        const res = await verify([
          file('statement.json'),
          file('statement.jws'),
          '--jwks',
          `${base}${route}`,
          '--json',
        ]);
        expect([route, res.code, res.out]).toEqual([route, 2, '']);
        expect(res.err).toMatch(message);
      }
      // A port nothing listens on any more.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const url = `http://127.0.0.1:${port}/.well-known/jwks.json`;
      const refused = await verify([file('statement.json'), file('statement.jws'), '--jwks', url]);
      expect([refused.code, refused.err]).toEqual([
        2,
        `Fetching the JWKS from ${url} failed: connect ECONNREFUSED 127.0.0.1:${port}.`,
      ]);
    });

    it('gives up after 10 s with a clear message', async () => {
      let signal: AbortSignal | null | undefined;
      const slowFetch = (async (_url: unknown, init?: RequestInit) => {
        signal = init?.signal;
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      }) as typeof fetch;
      const res = await verify(
        [file('statement.json'), file('statement.jws'), '--jwks', 'https://vigil.example/.well-known/jwks.json'],
        { fetch: slowFetch },
      );
      expect(signal).toBeInstanceOf(AbortSignal);
      expect(signal?.aborted).toBe(false);
      expect([res.code, res.err]).toEqual([
        2,
        'Fetching the JWKS from https://vigil.example/.well-known/jwks.json failed: no answer within 10 s.',
      ]);
    });
  });

  it('exits 2 for missing files, a missing JWKS and bad arguments', async () => {
    const missing = await verify([file('nope.json'), file('statement.jws')]);
    expect([missing.code, missing.out, missing.err]).toEqual([
      2,
      '',
      `Statement file ${file('nope.json')} does not exist.`,
    ]);
    expect((await verify([file('statement.json'), file('nope.jws')])).code).toBe(2);
    expect((await verify([file('statement.json'), file('statement.jws'), '--jwks', file('nope-jwks.json')])).code).toBe(
      2,
    );

    const lonely = mkdtempSync(path.join(os.tmpdir(), 'vigil-sla-verify-lonely-'));
    try {
      writeFileSync(path.join(lonely, 'statement.json'), statement.bytes);
      const noJwks = await verify([path.join(lonely, 'statement.json'), file('statement.jws')]);
      expect(noJwks.code).toBe(2);
      expect(noJwks.err).toContain('--jwks https://<vigil host>/.well-known/jwks.json');
    } finally {
      rmSync(lonely, { recursive: true, force: true });
    }

    for (const argv of [
      [],
      [file('statement.json')],
      [file('statement.json'), file('statement.jws'), 'extra'],
      [file('statement.json'), file('statement.jws'), '--sha256', 'abc'],
      [file('statement.json'), file('statement.jws'), '--jwks', 'ftp://vigil.example/jwks.json'],
      [file('statement.json'), file('statement.jws'), '--frobnicate'],
    ]) {
      const res = await verify(argv);
      expect([argv, res.code, res.out]).toEqual([argv, 2, '']);
      expect(res.err).toContain('Usage: vigil sla verify STATEMENT_JSON STATEMENT_JWS');
    }
  });

  it('runs from the vigil bin without a database', () => {
    // A database URL nothing listens on: opening it would fail the command.
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bin', 'vigil.js'), 'sla', 'verify', file('statement.json'), file('statement.jws'), '--json'],
      {
        env: { ...process.env, DATABASE_URL: 'postgres://vigil:none@127.0.0.1:1/none' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, kid: active.kid });
    const bad = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bin', 'vigil.js'), 'sla', 'verify', file('tampered.json'), file('statement.jws')],
      {
        env: { ...process.env, DATABASE_URL: 'postgres://vigil:none@127.0.0.1:1/none' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect([bad.status, bad.stdout]).toEqual([1, expect.stringMatching(/^FAILED: bad_signature: /)]);
  });
});

/** The shell blocks of the "By hand" section of docs/sla-verification.md, in order: the documented procedure. */
function documentedShellSteps(): string {
  const doc = readFileSync(path.join(ROOT, 'docs', 'sla-verification.md'), 'utf8');
  const start = doc.indexOf('\n## By hand');
  if (start < 0) throw new Error('docs/sla-verification.md has no "By hand" section');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  if (blocks.length < 5) throw new Error('the "By hand" section should hold the shell steps');
  return blocks.join('\n');
}

function opensslAvailable(): boolean {
  try {
    return /^OpenSSL 3\./.test(execFileSync('openssl', ['version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

const HAVE_OPENSSL = opensslAvailable();

describe('the by-hand check of docs/sla-verification.md (OpenSSL and shell tools only)', () => {
  /** Runs the documented steps with `sh -eu` in a directory holding statement.json, statement.jws and jwks.json. */
  function runSteps(files: { statement: Buffer; jws: string; jwks: object }) {
    if (!HAVE_OPENSSL)
      throw new Error('OpenSSL 3 (`openssl`) is missing (or older than 3): run scripts/install-test-peers.sh openssl');
    const work = mkdtempSync(path.join(os.tmpdir(), 'vigil-sla-openssl-'));
    writeFileSync(path.join(work, 'statement.json'), files.statement);
    writeFileSync(path.join(work, 'statement.jws'), `${files.jws}\n`);
    writeFileSync(path.join(work, 'jwks.json'), JSON.stringify(files.jwks, null, 2));
    const read = (name: string) => readFileSync(path.join(work, name));
    try {
      const out = execFileSync('sh', ['-eu', '-c', documentedShellSteps()], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      });
      return { status: 0, out, read, cleanup: () => rmSync(work, { recursive: true, force: true }) };
    } catch (err) {
      const e = err as { status?: number | null; stdout?: string; stderr?: string };
      if (typeof e.status !== 'number') throw err;
      return {
        status: e.status,
        out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
        read,
        cleanup: () => rmSync(work, { recursive: true, force: true }),
      };
    }
  }

  it('uses the DER prefix of an Ed25519 SubjectPublicKeyInfo', () => {
    expect(Buffer.from('MCowBQYDK2VwAyEA', 'base64').toString('hex')).toBe('302a300506032b6570032100');
  });

  it('verifies the signature vigil made, building exactly the key, signing input and signature described', () => {
    const run = runSteps({ statement: statement.bytes, jws, jwks: jwks([retired, active, other]) });
    try {
      expect([run.status, run.out]).toEqual([0, expect.stringContaining('Signature Verified Successfully')]);
      const lines = run.out.split('\n');
      expect(lines[0]).toBe(statement.sha256);
      expect(lines).toEqual(
        expect.arrayContaining([
          `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"${active.kid}"}`,
          `kid: ${active.kid}`,
          `x: ${active.publicJwk.x}`,
          `thumbprint: ${active.kid}`,
        ]),
      );

      const [header, payload, signature] = jws.split('.') as [string, string, string];
      expect(payload).toBe('');
      expect(
        run.read('signing-input.bin').equals(Buffer.concat([Buffer.from(`${header}.`, 'ascii'), statement.bytes])),
      ).toBe(true);
      expect(run.read('signature.bin').equals(Buffer.from(signature, 'base64url'))).toBe(true);
      expect(run.read('signature.bin')).toHaveLength(64);
      const pem = run.read('pub.pem').toString('ascii');
      const der = Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
      expect(der.toString('hex')).toBe(
        `302a300506032b6570032100${Buffer.from(active.publicJwk.x, 'base64url').toString('hex')}`,
      );
    } finally {
      run.cleanup();
    }
  });

  it('verifies a statement signed with a retired key', async () => {
    const old = canonicalStatement({ ...DOCUMENT, signing_key_id: retired.kid });
    const run = runSteps({
      statement: old.bytes,
      jws: await signStatement(old.bytes, retired, box),
      jwks: jwks([active, retired]),
    });
    run.cleanup();
    expect([run.status, run.out]).toEqual([0, expect.stringContaining('Signature Verified Successfully')]);
  });

  it('makes openssl report a failure for a tampered statement, and stops on a key missing from the JWKS', () => {
    const tampered = Buffer.from(
      statement.bytes.toString('utf8').replace('"amount":"120.00"', '"amount":"720.00"'),
      'utf8',
    );
    expect(tampered.equals(statement.bytes)).toBe(false);
    const run = runSteps({ statement: tampered, jws, jwks: jwks([active]) });
    run.cleanup();
    expect(run.status).not.toBe(0);
    expect(run.out).toContain('Signature Verification Failure');
    expect(run.out).not.toContain('Signature Verified Successfully');

    const reformatted = runSteps({
      statement: Buffer.from(JSON.stringify(JSON.parse(statement.bytes.toString('utf8')), null, 2)),
      jws,
      jwks: jwks([active]),
    });
    reformatted.cleanup();
    expect([reformatted.status, reformatted.out]).toEqual([
      1,
      expect.stringContaining('Signature Verification Failure'),
    ]);

    const unknownKey = runSteps({ statement: statement.bytes, jws, jwks: jwks([retired, other]) });
    unknownKey.cleanup();
    expect(unknownKey.status).not.toBe(0);
    expect(unknownKey.out).toContain('x: \n');
    expect(unknownKey.out).not.toContain('Signature Verified Successfully');
  });
});
