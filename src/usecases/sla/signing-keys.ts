import type { EntityManager } from '@mikro-orm/postgresql';
import { StatementSigningKeySchema } from '../../db/entities';
import { lockSigningKeys } from '../../db/repositories/signing-key-repository';
import type { SecretBox } from '../../crypto/secret-box';
import {
  type StatementJwks,
  type StatementPublicJwk,
  type StatementSigningKey,
  generateSigningKey,
  jwks,
} from '../../crypto/statement-keys';

/**
 * The service's statement-signing keys: the newest unretired key signs; every key, retired ones
 * too, stays published so statements signed before a rotation remain verifiable.
 */

function toKey(row: {
  kid: string;
  publicJwk: Record<string, string>;
  sealedPrivateKey: string;
  createdAt: Date;
}): StatementSigningKey {
  return {
    kid: row.kid,
    publicJwk: row.publicJwk as unknown as StatementPublicJwk,
    sealedPrivateKey: row.sealedPrivateKey,
    createdAt: row.createdAt,
  };
}

/** The key that signs now; the first call on a new installation creates it (concurrent first calls agree on one). */
export async function activeSigningKey(em: EntityManager, box: SecretBox, now: Date): Promise<StatementSigningKey> {
  const current = await em.findOne(
    StatementSigningKeySchema,
    { retiredAt: null },
    { orderBy: { createdAt: 'desc', kid: 'desc' } },
  );
  if (current) return toKey(current);
  const key = await generateSigningKey(box, now);
  // An advisory lock makes concurrent first signers create one key, not one each (inside a
  // caller's transaction this is a savepoint, and the lock lasts until the caller commits).
  return em.transactional(async (tx) => {
    await lockSigningKeys(tx);
    const again = await tx.findOne(
      StatementSigningKeySchema,
      { retiredAt: null },
      { orderBy: { createdAt: 'desc', kid: 'desc' } },
    );
    if (again) return toKey(again);
    tx.create(StatementSigningKeySchema, {
      kid: key.kid,
      publicJwk: key.publicJwk,
      sealedPrivateKey: key.sealedPrivateKey,
      createdAt: now,
      retiredAt: null,
    });
    await tx.flush();
    return key;
  });
}

/** A new signing key; the previous ones are retired (they sign nothing more but stay in the JWKS). */
export async function rotateSigningKey(
  em: EntityManager,
  box: SecretBox,
  now: Date,
): Promise<{ kid: string; retired: string[] }> {
  const key = await generateSigningKey(box, now);
  return em.transactional(async (tx) => {
    await lockSigningKeys(tx);
    const active = await tx.find(StatementSigningKeySchema, { retiredAt: null });
    for (const k of active) k.retiredAt = now;
    tx.create(StatementSigningKeySchema, {
      kid: key.kid,
      publicJwk: key.publicJwk,
      sealedPrivateKey: key.sealedPrivateKey,
      createdAt: now,
      retiredAt: null,
    });
    await tx.flush();
    return { kid: key.kid, retired: active.map((k) => k.kid) };
  });
}

/** Every public key ever used, newest first. */
export async function publishedKeys(em: EntityManager): Promise<StatementJwks> {
  const rows = await em.find(StatementSigningKeySchema, {}, { orderBy: { createdAt: 'desc', kid: 'desc' } });
  return jwks(rows.map(toKey));
}

/** Every key with its dates, newest first. */
export async function signingKeys(em: EntityManager) {
  return em.find(
    StatementSigningKeySchema,
    {},
    { orderBy: { createdAt: 'desc', kid: 'desc' }, fields: ['kid', 'createdAt', 'retiredAt'] as never },
  );
}
