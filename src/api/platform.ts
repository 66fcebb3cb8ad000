import type { ChangeFeed } from '../db/change-feed';
import type { Orm } from '../db/orm';
import type { KeyRecord } from '../db/repositories/auth-repository';
import type { StatusPage } from '../db/entities';
import { SampleBatcher } from '../usecases/metrics/sample-batcher';
import { ScopedCache } from './cache/scoped-cache';
import { RateLimiter } from './rate-limiter';

/**
 * The per-process state the API keeps to stay off PostgreSQL on hot paths: API keys by hash,
 * organization-scoped reads, leased rate-limit budgets, and the group commit of agent samples. The caches follow the change feed
 * (table triggers → LISTEN/NOTIFY) and are bypassed whenever it is down or absent.
 */
export interface Platform {
  keys: ScopedCache<KeyRecord | null>;
  reads: ScopedCache<unknown>;
  /**
   * Status pages (or null: no such page) by subdomain, one scope each so that requests for
   * made-up subdomains cannot grow it past `maxScopes`; all dropped when any page changes.
   */
  pages: ScopedCache<StatusPage | null>;
  /**
   * Rendered public pages, summaries and feeds per organization. Metric statuses are not on the
   * change feed, so past 10 s an entry is refreshed in the background while still answered.
   */
  publicViews: ScopedCache<unknown>;
  rateLimiter: RateLimiter;
  /** Group commit of agent sample batches, per organization. */
  samples: SampleBatcher;
}

export function createPlatform(orm: Orm, feed: ChangeFeed | null): Platform {
  const live = () => feed?.live === true;
  const keys = new ScopedCache<KeyRecord | null>({ live, ttlMs: 60_000, maxScopes: 50_000 });
  const reads = new ScopedCache<unknown>({ live, ttlMs: 60_000, maxScopes: 10_000 });
  const pages = new ScopedCache<StatusPage | null>({
    live,
    ttlMs: 60_000,
    maxScopes: 10_000,
    staleWhileRevalidate: true,
  });
  const publicViews = new ScopedCache<unknown>({ live, ttlMs: 10_000, maxScopes: 10_000, staleWhileRevalidate: true });
  feed?.on('change', (c) => {
    if (c.t === 'organizations') keys.clear();
    if (c.t === 'api_keys' && c.k) keys.invalidate(c.k);
    if (c.t === 'status_pages') pages.clear();
    if (c.o) {
      reads.invalidate(c.o);
      publicViews.invalidate(c.o);
    }
  });
  feed?.on('reset', () => {
    for (const cache of [keys, reads, pages, publicViews]) cache.clear();
  });
  const em = () => orm.em.fork();
  return { keys, reads, pages, publicViews, rateLimiter: new RateLimiter(em), samples: new SampleBatcher(em) };
}
