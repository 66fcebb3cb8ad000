import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../domain/ids';
import { type ApiKey, ApiKeySchema, OrganizationSchema } from '../db/entities';
import { PLANS, isPlanId } from '../domain/plans';
import { SCOPES, type Scope, unknownScopesMessage } from '../domain/scopes';
import { API_KEY_PREFIX } from '../domain/api-key-format';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `<prefix>` + 40 base62 characters (≈238 bits), drawn without modulo bias. */
export function generateToken(prefix: string): string {
  let out = '';
  while (out.length < 40) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < 40) out += BASE62[byte % 62];
    }
  }
  return `${prefix}${out}`;
}

export function generateApiKey(): string {
  return generateToken(API_KEY_PREFIX);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class UsageError extends Error {}

export interface MintedKey {
  record: ApiKey;
  /** Shown once; only its hash is stored. */
  plaintext: string;
}

export async function mintApiKey(
  em: EntityManager,
  input: { organizationId: string; name?: string; scopes?: readonly Scope[] },
  now: Date,
): Promise<MintedKey> {
  // Callers outside TypeScript (or with stale scope lists) get a clear refusal, never a key that carries a name no route knows.
  const unknown = input.scopes ? unknownScopesMessage(input.scopes) : null;
  if (unknown) throw new UsageError(unknown);
  const org = isUuid(input.organizationId) ? await em.findOne(OrganizationSchema, input.organizationId) : null;
  if (!org) throw new UsageError(`No organization ${input.organizationId}.`);
  const cap = isPlanId(org.plan) ? PLANS[org.plan].quotas.api_keys : null;
  if (cap !== null) {
    const live = await em.count(ApiKeySchema, { organization: org.id, revokedAt: null });
    if (live >= cap) throw new UsageError(`The ${org.plan} plan allows ${cap} active API keys; revoke one first.`);
  }
  const plaintext = generateApiKey();
  const record = em.create(ApiKeySchema, {
    id: randomUUID(),
    organization: org.id,
    name: input.name ?? 'API key',
    prefix: plaintext.slice(0, 12),
    keyHash: hashApiKey(plaintext),
    scopes: [...(input.scopes ?? SCOPES)],
    createdAt: now,
    revokedAt: null,
    lastUsedAt: null,
  });
  await em.flush();
  return { record, plaintext };
}

/** Idempotent: revoking a revoked key keeps its first revocation time. */
export async function revokeApiKey(em: EntityManager, keyId: string, now: Date): Promise<ApiKey> {
  const record = isUuid(keyId) ? await em.findOne(ApiKeySchema, keyId) : null;
  if (!record) throw new UsageError(`No API key ${keyId}.`);
  if (!record.revokedAt) {
    record.revokedAt = now;
    await em.flush();
  }
  return record;
}

/** The organization's keys, oldest first (hashes only; the keys themselves are never stored). */
export async function listApiKeys(em: EntityManager, organizationId: string): Promise<ApiKey[]> {
  if (!isUuid(organizationId)) throw new UsageError(`No organization ${organizationId}.`);
  return em.find(ApiKeySchema, { organization: organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
