import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey } from 'jose';
import type { SecretBox } from './secret-box';

/**
 * Ed25519 signing keys for SLA statements ("Signature").
 *
 * The private key is kept only as `sealedPrivateKey`: its JWK ({kty, crv, x, d}) sealed with the
 * master-key SecretBox. The public JWK carries `kid` = RFC 7638 thumbprint (SHA-256, base64url) of
 * {crv, kty, x}, which is also the statement's `signing_key_id`. Every public key, retired ones
 * too, goes into the JWKS so old statements stay verifiable after a rotation.
 */

export type StatementPublicJwk = {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
};

export type StatementSigningKey = {
  kid: string;
  publicJwk: StatementPublicJwk;
  /** `v1.<iv>.<tag>.<ciphertext>` (SecretBox) of the private JWK; never published, never logged. */
  sealedPrivateKey: string;
  createdAt: Date;
};

export type StatementJwks = { keys: StatementPublicJwk[] };

/** Raised when a sealed key cannot be used; the message names the kid only, never key material. */
export class StatementKeyError extends Error {
  constructor(
    readonly code: 'key_unreadable' | 'key_kid_mismatch',
    readonly kid: string,
  ) {
    super(
      code === 'key_kid_mismatch' ? `Signing key ${kid} does not match its kid` : `Signing key ${kid} cannot be opened`,
    );
    this.name = 'StatementKeyError';
  }
}

/** The RFC 7638 thumbprint of an Ed25519 JWK (only crv, kty and x take part). */
export function ed25519Thumbprint(jwk: { x: string }): Promise<string> {
  return calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }, 'sha256');
}

/** A new Ed25519 key pair: the public JWK (with kid, alg, use) and the private JWK sealed under `box`. */
export async function generateSigningKey(box: SecretBox, now: Date): Promise<StatementSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const pub = await exportJWK(publicKey);
  const priv = await exportJWK(privateKey);
  if (pub.kty !== 'OKP' || pub.crv !== 'Ed25519' || !pub.x || !priv.d || priv.x !== pub.x)
    throw new Error('Ed25519 key generation returned an unexpected JWK');
  const kid = await ed25519Thumbprint({ x: pub.x });
  return {
    kid,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: pub.x, kid, alg: 'EdDSA', use: 'sig' },
    sealedPrivateKey: box.seal(JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: pub.x, d: priv.d })),
    createdAt: new Date(now.getTime()),
  };
}

/**
 * The JSON Web Key Set of every key given (active and retired alike). Each entry is rebuilt from
 * the public members only, so nothing private can slip into the published set.
 */
export function jwks(keys: ReadonlyArray<{ publicJwk: StatementPublicJwk }>): StatementJwks {
  return {
    keys: keys.map(({ publicJwk: k }) => ({
      kty: 'OKP',
      crv: 'Ed25519',
      x: k.x,
      kid: k.kid,
      alg: 'EdDSA',
      use: 'sig',
    })),
  };
}

/**
 * Opens a sealed private key into a non-extractable CryptoKey, checking it belongs to `kid`.
 * Any failure (wrong master key, corrupt ciphertext, unexpected JWK) becomes a StatementKeyError
 * without a cause, so neither the sealed nor the opened material reaches an error or a log.
 */
export async function openSigningKey(
  key: { kid: string; sealedPrivateKey: string },
  box: SecretBox,
): Promise<CryptoKey> {
  let x: string;
  let d: string;
  try {
    const jwk: unknown = JSON.parse(box.open(key.sealedPrivateKey));
    if (typeof jwk !== 'object' || jwk === null) throw new Error();
    const { kty, crv, x: px, d: pd } = jwk as Record<string, unknown>;
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof px !== 'string' || typeof pd !== 'string') throw new Error();
    x = px;
    d = pd;
  } catch {
    throw new StatementKeyError('key_unreadable', key.kid);
  }
  if ((await ed25519Thumbprint({ x })) !== key.kid) throw new StatementKeyError('key_kid_mismatch', key.kid);
  try {
    const imported = await importJWK({ kty: 'OKP', crv: 'Ed25519', x, d }, 'EdDSA');
    if (imported instanceof Uint8Array) throw new Error();
    return imported;
  } catch {
    throw new StatementKeyError('key_unreadable', key.kid);
  }
}
