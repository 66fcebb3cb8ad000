import type { EntityManager } from '@mikro-orm/postgresql';

export interface KeyRecord {
  keyId: string;
  organizationId: string;
  scopes: string[];
  revoked: boolean;
  /** When the key stops working (checked on every request, so a cached key expires on time). */
  expiresAt: Date | null;
  plan: string;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
}

/**
 * Finds a key and its organization, touching `last_used_at` when it is more than a minute old,
 * in one round trip.
 */
const FIND_KEY = `
with k as (
  select k.id, k.organization_id, k.scopes, k.revoked_at, k.last_used_at, k.expires_at,
         o.plan, o.rate_limit_per_minute, o.rate_limit_per_day
  from api_keys k join organizations o on o.id = k.organization_id
  where k.key_hash = ?
), touched as (
  update api_keys set last_used_at = ?::timestamptz
  where id = (select id from k where revoked_at is null and (expires_at is null or expires_at > ?::timestamptz) and (last_used_at is null or last_used_at < ?::timestamptz - interval '1 minute'))
  returning id
)
select k.id, k.organization_id, k.scopes, k.revoked_at is not null as revoked, k.expires_at, k.plan,
       k.rate_limit_per_minute, k.rate_limit_per_day, (select count(*) from touched) as touched
from k`;

interface KeyRow {
  id: string;
  organization_id: string;
  scopes: string[];
  revoked: boolean;
  expires_at: Date | string | null;
  plan: string;
  rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null;
}

export async function findApiKey(em: EntityManager, keyHash: string, now: Date): Promise<KeyRecord | null> {
  const rows: KeyRow[] = await em.getConnection().execute(FIND_KEY, [keyHash, now, now, now], 'all');
  const row = rows[0];
  if (!row) return null;
  return {
    keyId: row.id,
    organizationId: row.organization_id,
    scopes: row.scopes,
    revoked: row.revoked,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    plan: row.plan,
    rateLimitPerMinute: row.rate_limit_per_minute,
    rateLimitPerDay: row.rate_limit_per_day,
  };
}
