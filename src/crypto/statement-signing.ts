import { createHash } from 'node:crypto';
import { FlattenedSign, errors, flattenedVerify, importJWK } from 'jose';
import { canonicalizeEx } from 'json-canonicalize';
import type { SecretBox } from './secret-box';
import { ed25519Thumbprint, openSigningKey } from './statement-keys';

/**
 * Canonical form and signature of SLA statements ("Signature").
 *
 * - The document is serialized with RFC 8785 (JSON Canonicalization Scheme) and stored byte for
 *   byte; `sha256` is the lowercase hex digest of exactly those UTF-8 bytes.
 * - The signature is a compact detached JWS with unencoded payload (RFC 7797): protected header
 *   `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"<RFC 7638 thumbprint>"}`, empty payload part
 *   (`<header>..<signature>`), Ed25519 over `ASCII(BASE64URL(header)) || '.' || statement bytes`.
 */

export type CanonicalStatement = { bytes: Buffer; sha256: string };

/** Thrown for a document that is not plain I-JSON data (RFC 8785 §3.1 / RFC 7493). */
export class CanonicalJsonError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path}`);
    this.name = 'CanonicalJsonError';
  }
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Only null, booleans, finite numbers, well-formed strings, arrays and plain objects: no undefined,
 * NaN/Infinity, bigint, functions, symbols, Dates or other toJSON objects (json-canonicalize
 * would pass those through JSON.stringify un-canonicalized), no lone surrogates.
 */
function assertIJson(value: unknown, path: string, seen: Set<object>): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CanonicalJsonError('Non-finite number', path);
    return;
  }
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw new CanonicalJsonError('Lone surrogate in string', path);
    return;
  }
  if (typeof value !== 'object') throw new CanonicalJsonError(`Unsupported ${typeof value} value`, path);
  if (seen.has(value)) throw new CanonicalJsonError('Circular reference', path);
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) assertIJson(value[i], `${path}[${i}]`, seen);
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new CanonicalJsonError('Not a plain object', path);
    for (const [k, v] of Object.entries(value)) {
      if (LONE_SURROGATE.test(k)) throw new CanonicalJsonError('Lone surrogate in property name', path);
      assertIJson(v, `${path}.${k}`, seen);
    }
  }
  seen.delete(value);
}

/** RFC 8785 canonical JSON of `doc` as UTF-8 bytes, and the lowercase hex SHA-256 of those bytes. */
export function canonicalStatement(doc: unknown): CanonicalStatement {
  assertIJson(doc, '$', new Set());
  const bytes = Buffer.from(canonicalizeEx(doc, { strictUndefined: true }), 'utf8');
  return { bytes, sha256: sha256Hex(bytes) };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export type StatementJwsHeader = { alg: 'EdDSA'; b64: false; crit: ['b64']; kid: string };

/**
 * Signs the statement bytes with the sealed key: compact detached JWS, unencoded payload
 * (RFC 7797). jose's CompactSign refuses `b64: false`, so FlattenedSign makes it and the compact
 * form is assembled with the payload part left empty.
 */
export async function signStatement(
  bytes: Uint8Array,
  key: { kid: string; sealedPrivateKey: string },
  box: SecretBox,
): Promise<string> {
  const privateKey = await openSigningKey(key, box);
  const header: StatementJwsHeader = { alg: 'EdDSA', b64: false, crit: ['b64'], kid: key.kid };
  const jws = await new FlattenedSign(new Uint8Array(bytes)).setProtectedHeader(header).sign(privateKey);
  if (!jws.protected || jws.payload !== '') throw new Error('Unexpected JWS from the signer');
  return `${jws.protected}..${jws.signature}`;
}

export type StatementVerifyFailure =
  /** Not `<header>..<signature>` with base64url parts and a JSON object header carrying a kid. */
  | 'malformed'
  /** The compact JWS carries a payload (not detached). */
  | 'not_detached'
  /** `alg` is not EdDSA. */
  | 'unsupported_alg'
  /** The header lacks `b64: false` with `crit: ["b64"]`. */
  | 'not_unencoded'
  /** The SHA-256 of the bytes differs from the expected one. */
  | 'hash_mismatch'
  /** No key with this kid in the JWKS. */
  | 'unknown_kid'
  /** The JWKS entry is not an Ed25519 public key whose RFC 7638 thumbprint is its kid. */
  | 'bad_key'
  /** The signature does not verify over these bytes. */
  | 'bad_signature';

export type StatementVerifyResult = { valid: boolean; kid: string | null; reason?: StatementVerifyFailure };

const B64URL = /^[A-Za-z0-9_-]+$/;

function fail(kid: string | null, reason: StatementVerifyFailure): StatementVerifyResult {
  return { valid: false, kid, reason };
}

/**
 * Checks a detached JWS over the statement bytes against a JWKS (jose verifies, with `b64` as a
 * recognized critical parameter and EdDSA as the only allowed algorithm). Never throws for bad
 * input: the result says why it is not valid. With `expectedSha256`, the bytes' digest is checked
 * first (the statement's stored `sha256`).
 */
export async function verifyStatement(
  bytes: Uint8Array,
  jws: string,
  jwkSet: { keys: readonly unknown[] },
  options: { expectedSha256?: string } = {},
): Promise<StatementVerifyResult> {
  if (typeof jws !== 'string') return fail(null, 'malformed');
  const parts = jws.split('.');
  if (parts.length !== 3) return fail(null, 'malformed');
  const [encodedHeader = '', payloadPart = '', signature = ''] = parts;
  if (!B64URL.test(encodedHeader) || !B64URL.test(signature)) return fail(null, 'malformed');

  let header: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail(null, 'malformed');
    header = parsed as Record<string, unknown>;
  } catch {
    return fail(null, 'malformed');
  }
  const kid = typeof header.kid === 'string' && header.kid !== '' ? header.kid : null;
  if (kid === null) return fail(null, 'malformed');
  if (payloadPart !== '') return fail(kid, 'not_detached');
  if (header.alg !== 'EdDSA') return fail(kid, 'unsupported_alg');
  if (header.b64 !== false || !Array.isArray(header.crit) || !header.crit.includes('b64'))
    return fail(kid, 'not_unencoded');

  if (options.expectedSha256 !== undefined && sha256Hex(bytes) !== options.expectedSha256.toLowerCase())
    return fail(kid, 'hash_mismatch');

  const keys = Array.isArray(jwkSet?.keys) ? jwkSet.keys : [];
  const jwk = keys.find(
    (k): k is Record<string, unknown> =>
      typeof k === 'object' && k !== null && (k as Record<string, unknown>).kid === kid,
  );
  if (!jwk) return fail(kid, 'unknown_kid');
  if (
    jwk.kty !== 'OKP' ||
    jwk.crv !== 'Ed25519' ||
    typeof jwk.x !== 'string' ||
    (jwk.alg !== undefined && jwk.alg !== 'EdDSA') ||
    (jwk.use !== undefined && jwk.use !== 'sig')
  ) {
    return fail(kid, 'bad_key');
  }
  const x = jwk.x;
  let publicKey;
  try {
    if ((await ed25519Thumbprint({ x })) !== kid) return fail(kid, 'bad_key');
    // Only the public members: a JWKS entry that (wrongly) holds `d` must not become a private key.
    publicKey = await importJWK({ kty: 'OKP', crv: 'Ed25519', x }, 'EdDSA');
  } catch {
    return fail(kid, 'bad_key');
  }

  try {
    await flattenedVerify({ protected: encodedHeader, payload: new Uint8Array(bytes), signature }, publicKey, {
      algorithms: ['EdDSA'],
    });
    return { valid: true, kid };
  } catch (err) {
    return fail(kid, err instanceof errors.JWSSignatureVerificationFailed ? 'bad_signature' : 'malformed');
  }
}
