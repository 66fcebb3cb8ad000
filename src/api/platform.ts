import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeFeed } from '../db/change-feed';
import type { Orm } from '../db/orm';
import type { KeyRecord } from '../db/repositories/auth-repository';
import { ScopedCache } from './cache/scoped-cache';
import { RateLimiter } from './rate-limiter';

/**
 * The per-process state the API keeps to stay off PostgreSQL on hot paths: API keys by hash,
 * organization-scoped reads, and leased rate-limit budgets. The caches follow the change feed
 * (table triggers → LISTEN/NOTIFY) and are bypassed whenever it is down or absent.
 */
export interface Platform {
  keys: ScopedCache<KeyRecord | null>;
  reads: ScopedCache<unknown>;
  rateLimiter: RateLimiter;
}

export function createPlatform(orm: Orm, feed: ChangeFeed | null): Platform {
  const live = () => feed?.live === true;
  const keys = new ScopedCache<KeyRecord | null>({ live, ttlMs: 60_000, maxScopes: 50_000 });
  const reads = new ScopedCache<unknown>({ live, ttlMs: 60_000, maxScopes: 10_000 });
  feed?.on('change', (c) => {
    if (c.t === 'organizations') keys.clear();
    if (c.t === 'api_keys' && c.k) keys.invalidate(c.k);
    if (c.o) reads.invalidate(c.o);
  });
  feed?.on('reset', () => {
    keys.clear();
    reads.clear();
  });
  return { keys, reads, rateLimiter: new RateLimiter(() => orm.em.fork() as EntityManager) };
}
