import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { CompactSign, importJWK } from 'jose';
import { SecretBox } from '../../src/crypto/secret-box';
import {
  StatementKeyError,
  generateSigningKey,
  jwks,
  type StatementPublicJwk,
  type StatementSigningKey,
} from '../../src/crypto/statement-keys';
import {
  CanonicalJsonError,
  canonicalStatement,
  signStatement,
  verifyStatement,
} from '../../src/crypto/statement-signing';

const box = new SecretBox(Buffer.alloc(32, 7));
const NOW = new Date('2026-03-01T00:00:00Z');

const b64url = (v: string | Buffer): string => Buffer.from(v).toString('base64url');
const parts = (jws: string): [string, string, string] => jws.split('.') as [string, string, string];
const headerOf = (jws: string): unknown => JSON.parse(Buffer.from(parts(jws)[0], 'base64url').toString('utf8'));

let key1: StatementSigningKey;
let key2: StatementSigningKey;

beforeAll(async () => {
  key1 = await generateSigningKey(box, NOW);
  key2 = await generateSigningKey(box, new Date('2026-06-01T00:00:00Z'));
});

describe('canonicalStatement (RFC 8785)', () => {
  it('matches the RFC 8785 §3.2.2 sample, checked by hand against the RFC text and its UTF-8 bytes (§3.2.4)', () => {
    // Input exactly as printed in RFC 8785 §3.2.2 (JSON text, so number spellings survive to the parser).
    const input = `{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`;
    const { bytes } = canonicalStatement(JSON.parse(input));
    // Expected output, RFC 8785 §3.2.2 (the € is the raw character; \u000f stays escaped, lowercase).
    expect(bytes.toString('utf8')).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
    // The same output as the RFC's hex dump (§3.2.4).
    const hex = `
      7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72
      75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a
      5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31
      65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37
      5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30
      30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d`;
    expect(bytes.toString('hex')).toBe(hex.replace(/\s+/g, ''));
  });

  it('sorts property names by UTF-16 code units (RFC 8785 §3.2.3 sample)', () => {
    const input = `{
      "\\u20ac": "Euro Sign",
      "\\r": "Carriage Return",
      "\\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\\ud83d\\ude00": "Emoji: Grinning Face",
      "\\u0080": "Control",
      "\\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    const out = canonicalStatement(JSON.parse(input)).bytes.toString('utf8');
    // RFC 8785 §3.2.3: \r, 1, \u0080, ö, €, 😀 (surrogates D83D DE00), דּ (FB33) — code-unit order, not code-point order.
    expect(out).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('does not depend on key order, number spelling or unicode escapes', () => {
    const a = canonicalStatement(
      JSON.parse('{"b": 1.0, "a": {"y": [1E2, -0, 0.50], "x": "caf\\u00e9 \\ud83d\\ude00"}, "c": "\\/"}'),
    );
    const b = canonicalStatement({ c: '/', a: { x: 'café 😀', y: [100, 0, 0.5] }, b: 1 });
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.sha256).toBe(b.sha256);
    expect(a.bytes.toString('utf8')).toBe('{"a":{"x":"café 😀","y":[100,0,0.5]},"b":1,"c":"/"}');
  });

  it('hashes exactly the canonical bytes (lowercase hex), as computed by hand', () => {
    // printf '%s' '{"amount":1,"currency":"EUR","note":"€"}' | sha256sum
    //   → 2de1adae71d3fa9356568b2aac72b1da67414e539811f2b8396c9062bc508659
    const { bytes, sha256 } = canonicalStatement({ note: '€', currency: 'EUR', amount: 1.0 });
    expect(bytes.toString('utf8')).toBe('{"amount":1,"currency":"EUR","note":"€"}');
    expect(bytes).toHaveLength(42); // € is 3 UTF-8 bytes
    expect(sha256).toBe('2de1adae71d3fa9356568b2aac72b1da67414e539811f2b8396c9062bc508659');
    // printf '%s' '{"a":1,"b":[true,null,"x"]}' | sha256sum
    //   → eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1
    expect(canonicalStatement({ b: [true, null, 'x'], a: 1 }).sha256).toBe(
      'eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1',
    );
  });

  it('refuses what is not I-JSON data', () => {
    for (const bad of [
      undefined,
      { a: undefined },
      [1, undefined],
      { n: NaN },
      { n: Infinity },
      { d: new Date(0) },
      { n: 1n },
      { f: () => 1 },
      { s: '\ud800' },
      { ['\udc00']: 1 },
      new Map(),
    ]) {
      expect(() => canonicalStatement(bad)).toThrow(CanonicalJsonError);
    }
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalStatement(loop)).toThrow(CanonicalJsonError);
    // The same object twice (not a cycle) is fine.
    const shared = { v: 1 };
    expect(canonicalStatement({ a: shared, b: shared }).bytes.toString()).toBe('{"a":{"v":1},"b":{"v":1}}');
  });
});

describe('signing keys', () => {
  it('is an Ed25519 key whose kid is the RFC 7638 thumbprint of the public JWK', () => {
    expect(key1.publicJwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      kid: key1.kid,
      alg: 'EdDSA',
      use: 'sig',
    });
    // RFC 7638 by hand: SHA-256 of the required members in lexicographic order, no whitespace.
    const members = `{"crv":"Ed25519","kty":"OKP","x":"${key1.publicJwk.x}"}`;
    expect(key1.kid).toBe(createHash('sha256').update(members).digest('base64url'));
    expect(key1.kid).not.toBe(key2.kid);
    expect(key1.createdAt).toEqual(NOW);
    expect(key1.sealedPrivateKey).toMatch(/^v1\./);
  });

  it('publishes every public key, retired ones included, and nothing private', () => {
    const set = jwks([key1, key2]);
    expect(set.keys.map((k) => k.kid)).toEqual([key1.kid, key2.kid]);
    const d = (JSON.parse(box.open(key1.sealedPrivateKey)) as { d: string }).d;
    const text = JSON.stringify(set);
    for (const secret of [key1.sealedPrivateKey, key2.sealedPrivateKey, d]) expect(text).not.toContain(secret);
    expect(text).not.toContain('"d"');
    // Even a public JWK that wrongly carries `d` is published without it.
    const leaky = { publicJwk: { ...key1.publicJwk, d } as StatementPublicJwk };
    expect(JSON.stringify(jwks([leaky]))).not.toContain(d);
  });
});

describe('signStatement / verifyStatement', () => {
  const doc = {
    statement_id: 'st_1',
    period: '2026-02',
    credit: { amount: '12.50', currency: 'EUR' },
    services: [{ id: 'api', uptime: 99.95 }],
  };

  it('round-trips a detached JWS with unencoded payload (RFC 7797)', async () => {
    const { bytes, sha256 } = canonicalStatement(doc);
    const jws = await signStatement(bytes, key1, box);
    const [h, p, s] = parts(jws);
    expect(p).toBe('');
    expect(h).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(s, 'base64url')).toHaveLength(64);
    expect(headerOf(jws)).toEqual({ alg: 'EdDSA', b64: false, crit: ['b64'], kid: key1.kid });
    expect(await verifyStatement(bytes, jws, jwks([key1]))).toEqual({ valid: true, kid: key1.kid });
    expect(await verifyStatement(bytes, jws, jwks([key1]), { expectedSha256: sha256 })).toEqual({
      valid: true,
      kid: key1.kid,
    });
  });

  it('is checked by an implementation other than jose (node:crypto over the rebuilt signing input)', async () => {
    const { bytes } = canonicalStatement(doc);
    const jws = await signStatement(bytes, key1, box);
    const [h, , s] = parts(jws);
    // RFC 7797 §3: ASCII(BASE64URL(UTF8(JWS Protected Header))) || '.' || JWS Payload (raw bytes).
    const input = Buffer.concat([Buffer.from(h, 'ascii'), Buffer.from('.', 'ascii'), bytes]);
    const jwk = jwks([key1]).keys[0]!;
    const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
    expect(publicKey.asymmetricKeyType).toBe('ed25519');
    expect(cryptoVerify(null, input, publicKey, Buffer.from(s, 'base64url'))).toBe(true);
    // The b64:true reading (payload base64url-encoded) must not verify: the payload really is unencoded.
    const encodedInput = Buffer.from(`${h}.${b64url(bytes)}`, 'ascii');
    expect(cryptoVerify(null, encodedInput, publicKey, Buffer.from(s, 'base64url'))).toBe(false);
    const tampered = Buffer.from(input);
    tampered[tampered.length - 2] = tampered[tampered.length - 2]! ^ 0x01;
    expect(cryptoVerify(null, tampered, publicKey, Buffer.from(s, 'base64url'))).toBe(false);
  });

  it('fails when one byte of the statement or of the signature changes', async () => {
    const { bytes, sha256 } = canonicalStatement(doc);
    const jws = await signStatement(bytes, key1, box);
    const set = jwks([key1]);
    for (const i of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[i] = tampered[i]! ^ 0x01;
      expect(await verifyStatement(tampered, jws, set)).toEqual({
        valid: false,
        kid: key1.kid,
        reason: 'bad_signature',
      });
      expect(await verifyStatement(tampered, jws, set, { expectedSha256: sha256 })).toEqual({
        valid: false,
        kid: key1.kid,
        reason: 'hash_mismatch',
      });
    }
    const [h, , s] = parts(jws);
    const sig = Buffer.from(s, 'base64url');
    sig[10] = sig[10]! ^ 0x80;
    expect(await verifyStatement(bytes, `${h}..${sig.toString('base64url')}`, set)).toMatchObject({
      valid: false,
      reason: 'bad_signature',
    });
    // A statement signed for another document does not verify this one.
    const other = canonicalStatement({ ...doc, period: '2026-03' });
    expect(await verifyStatement(other.bytes, jws, set)).toMatchObject({ valid: false, reason: 'bad_signature' });
  });

  it('keeps old statements verifiable across a key rotation', async () => {
    const first = canonicalStatement({ ...doc, statement_id: 'st_old' });
    const second = canonicalStatement({ ...doc, statement_id: 'st_new' });
    const oldJws = await signStatement(first.bytes, key1, box); // signed before the rotation
    const newJws = await signStatement(second.bytes, key2, box); // key1 retired, key2 active
    const published = jwks([key1, key2]);
    expect(await verifyStatement(first.bytes, oldJws, published)).toEqual({ valid: true, kid: key1.kid });
    expect(await verifyStatement(second.bytes, newJws, published)).toEqual({ valid: true, kid: key2.kid });
    // Dropping the retired key would break the old statement: it must stay published.
    expect(await verifyStatement(first.bytes, oldJws, jwks([key2]))).toEqual({
      valid: false,
      kid: key1.kid,
      reason: 'unknown_kid',
    });
    // A signature is bound to its kid: swapping the kid in the header fails.
    const swapped = `${b64url(JSON.stringify({ alg: 'EdDSA', b64: false, crit: ['b64'], kid: key2.kid }))}..${parts(oldJws)[2]}`;
    expect(await verifyStatement(first.bytes, swapped, published)).toMatchObject({
      valid: false,
      reason: 'bad_signature',
    });
  });

  it('refuses an unknown kid, a JWKS entry that is not the kid’s key, and a non-detached JWS', async () => {
    const { bytes } = canonicalStatement(doc);
    const jws = await signStatement(bytes, key1, box);
    expect(await verifyStatement(bytes, jws, { keys: [] })).toEqual({
      valid: false,
      kid: key1.kid,
      reason: 'unknown_kid',
    });
    const wrongX = { ...key1.publicJwk, x: key2.publicJwk.x };
    expect(await verifyStatement(bytes, jws, { keys: [wrongX] })).toEqual({
      valid: false,
      kid: key1.kid,
      reason: 'bad_key',
    });
    expect(await verifyStatement(bytes, jws, { keys: [{ ...key1.publicJwk, alg: 'ES256' }] })).toMatchObject({
      reason: 'bad_key',
    });
    const [h, , s] = parts(jws);
    expect(await verifyStatement(bytes, `${h}.${b64url(bytes)}.${s}`, jwks([key1]))).toMatchObject({
      valid: false,
      reason: 'not_detached',
    });
    for (const garbage of [
      '',
      'a.b',
      'not-a-jws',
      `${h}..`,
      `..${s}`,
      `${b64url('[1]')}..${s}`,
      `${b64url('{"alg":"EdDSA"')}..${s}`,
      `${h}..${s}.x`,
    ]) {
      expect(await verifyStatement(bytes, garbage, jwks([key1]))).toMatchObject({ valid: false, reason: 'malformed' });
    }
  });

  it('refuses a header without b64:false and an algorithm other than EdDSA', async () => {
    const { bytes } = canonicalStatement(doc);
    const set = jwks([key1]);
    const privateKey = await importJWK({ ...(JSON.parse(box.open(key1.sealedPrivateKey)) as object) }, 'EdDSA');
    // A genuine, correctly signed, ordinary (b64) JWS over the same bytes, then detached.
    const attached = await new CompactSign(new Uint8Array(bytes))
      .setProtectedHeader({ alg: 'EdDSA', kid: key1.kid })
      .sign(privateKey);
    const [ah, , as] = parts(attached);
    expect(await verifyStatement(bytes, `${ah}..${as}`, set)).toEqual({
      valid: false,
      kid: key1.kid,
      reason: 'not_unencoded',
    });
    // b64 true under crit, and b64:false without crit (RFC 7797 requires crit), are refused too.
    for (const header of [
      { alg: 'EdDSA', b64: true, crit: ['b64'], kid: key1.kid },
      { alg: 'EdDSA', b64: false, kid: key1.kid },
    ]) {
      expect(await verifyStatement(bytes, `${b64url(JSON.stringify(header))}..${as}`, set)).toMatchObject({
        valid: false,
        reason: 'not_unencoded',
      });
    }
    const sig = parts(await signStatement(bytes, key1, box))[2];
    for (const alg of ['Ed25519', 'ES256', 'HS256', 'none']) {
      const h = b64url(JSON.stringify({ alg, b64: false, crit: ['b64'], kid: key1.kid }));
      expect(await verifyStatement(bytes, `${h}..${sig}`, set)).toEqual({
        valid: false,
        kid: key1.kid,
        reason: 'unsupported_alg',
      });
    }
    // An extra critical parameter jose does not know is refused, not ignored.
    const extraCrit = b64url(JSON.stringify({ alg: 'EdDSA', b64: false, crit: ['b64', 'exp'], exp: 1, kid: key1.kid }));
    expect(await verifyStatement(bytes, `${extraCrit}..${sig}`, set)).toEqual({
      valid: false,
      kid: key1.kid,
      reason: 'malformed',
    });
  });

  it('never puts the sealed or opened private key into an error', async () => {
    const { bytes } = canonicalStatement(doc);
    const d = (JSON.parse(box.open(key1.sealedPrivateKey)) as { d: string }).d;
    const otherBox = new SecretBox(Buffer.alloc(32, 9));
    const notJson = box.seal(`not json ${d}`);
    const [v, iv, tag, ct = ''] = key1.sealedPrivateKey.split('.');
    const ctBytes = Buffer.from(ct, 'base64url');
    ctBytes[0] = ctBytes[0]! ^ 0x01;
    const corrupt = [v, iv, tag, ctBytes.toString('base64url')].join('.');
    const cases: Array<[{ kid: string; sealedPrivateKey: string }, SecretBox, string]> = [
      [key1, otherBox, 'key_unreadable'], // wrong master key
      [{ kid: key1.kid, sealedPrivateKey: corrupt }, box, 'key_unreadable'], // one ciphertext byte changed
      [{ kid: key1.kid, sealedPrivateKey: notJson }, box, 'key_unreadable'], // JSON.parse would quote its input
      [{ kid: key2.kid, sealedPrivateKey: key1.sealedPrivateKey }, box, 'key_kid_mismatch'],
    ];
    for (const [key, b, code] of cases) {
      const err: unknown = await signStatement(bytes, key, b).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StatementKeyError);
      expect((err as StatementKeyError).code).toBe(code);
      expect((err as Error).cause).toBeUndefined();
      const seen = `${String(err)}\n${(err as Error).stack}\n${JSON.stringify(err)}`;
      for (const secret of [key1.sealedPrivateKey, corrupt, notJson, d]) expect(seen).not.toContain(secret);
    }
  });
});
