import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import type { ApiKeyView } from '../../domain/api-key-view';
import { type ApiKey, ApiKeySchema, OrganizationSchema } from '../../db/entities';
import { PLANS, isPlanId } from '../../domain/plans';
import { SCOPES, type Scope, unknownScopesMessage } from '../../domain/scopes';
import { API_KEY_PREFIX } from '../../domain/api-key-format';
import { pageOf } from '../../domain/cursor';
import { type FieldError, ProblemError, notFound } from '../../domain/error-catalog';
import { assertCanCreate } from '../../domain/quota';
import { toIso, toIsoOrNull } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';

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
  input: { organizationId: string; name?: string; scopes?: readonly Scope[]; expiresAt?: Date | null },
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
    expiresAt: input.expiresAt ?? null,
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

export type { ApiKeyView };

export function apiKeyView(k: ApiKey, now: Date): ApiKeyView {
  const state = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: [...k.scopes],
    created_at: toIso(k.createdAt),
    expires_at: toIsoOrNull(k.expiresAt ?? null),
    last_used_at: toIsoOrNull(k.lastUsedAt),
    revoked_at: toIsoOrNull(k.revokedAt),
    state,
  };
}

/** One newest-first page of the organization's keys (the console's API keys page). */
export async function listOrgApiKeys(ctx: OrgContext, q: { limit: number; cursor?: string }) {
  const rows = await ctx.em.find(
    ApiKeySchema,
    { organization: ctx.org.id, ...afterCursor(q.cursor) },
    { orderBy: NEWEST_FIRST, limit: q.limit + 1 },
  );
  const page = pageOf(rows, q.limit);
  return { items: page.items.map((k) => apiKeyView(k, ctx.now)), nextCursor: page.nextCursor };
}

/**
 * A key made from the console: a name, at least one scope, an optional expiry in the future. Field
 * problems come back together as validation_failed (paths `name`, `scopes`, `expires_at`); the
 * plan's cap on active keys as quota_exceeded. The plaintext is answered once and never stored.
 */
export async function createOrgApiKey(
  ctx: OrgContext,
  input: { name: string; scopes: readonly string[]; expiresAt: Date | null; expiryError?: string },
): Promise<{ key: ApiKeyView; plaintext: string }> {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (!name || name.length > 200)
    errors.push({
      path: 'name',
      message: name ? 'At most 200 characters' : 'Give the key a name that says who or what uses it',
    });
  const unknown = unknownScopesMessage(input.scopes);
  if (!input.scopes.length) errors.push({ path: 'scopes', message: 'Pick at least one scope' });
  else if (unknown) errors.push({ path: 'scopes', message: unknown });
  if (input.expiryError) errors.push({ path: 'expires_at', message: input.expiryError });
  else if (input.expiresAt && input.expiresAt.getTime() <= ctx.now.getTime())
    errors.push({
      path: 'expires_at',
      message: 'The expiry must be in the future (leave it empty for a key that does not expire)',
    });
  if (errors.length) throw new ProblemError('validation_failed', errors[0]!.message, { errors });
  const live = await ctx.em.count(ApiKeySchema, { organization: ctx.org.id, revokedAt: null });
  assertCanCreate(ctx.org.plan, 'api_keys', live, ctx.pricingUrl);
  const minted = await mintApiKey(
    ctx.em,
    { organizationId: ctx.org.id, name, scopes: input.scopes as Scope[], expiresAt: input.expiresAt },
    ctx.now,
  );
  return { key: apiKeyView(minted.record, ctx.now), plaintext: minted.plaintext };
}

/** Revokes a key of the caller's organization (404 for another's); revoking twice keeps the first time. */
export async function revokeOrgApiKey(ctx: OrgContext, id: string): Promise<ApiKeyView> {
  const record = isUuid(id) ? await ctx.em.findOne(ApiKeySchema, { id, organization: ctx.org.id }) : null;
  if (!record) throw notFound('API key');
  return apiKeyView(await revokeApiKey(ctx.em, record.id, ctx.now), ctx.now);
}

/** A key of the caller's organization, or 404. */
export async function getOrgApiKey(ctx: OrgContext, id: string): Promise<ApiKeyView> {
  const record = isUuid(id) ? await ctx.em.findOne(ApiKeySchema, { id, organization: ctx.org.id }) : null;
  if (!record) throw notFound('API key');
  return apiKeyView(record, ctx.now);
}
