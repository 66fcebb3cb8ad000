/**
 * An in-process read cache whose entries are grouped by scope (an organization, an API key) and
 * dropped when PostgreSQL announces a change to that scope. A load that started before an
 * invalidation is not stored (generation check), and nothing is cached while the change feed is
 * down, so a cached value is never older than the last change notification.
 *
 * Concurrent misses of one key share one load (a burst of requests costs one query), unless a
 * change arrived in between. With `staleWhileRevalidate`, an entry past its TTL (but not
 * invalidated) is still answered while one reload runs in the background.
 */
export class ScopedCache<V> {
  private readonly entries = new Map<string, Map<string, { value: V; expires: number }>>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private readonly inflight = new Map<string, Promise<V>>();

  constructor(
    private readonly opts: {
      live: () => boolean;
      ttlMs: number;
      maxScopes: number;
      now?: () => number;
      staleWhileRevalidate?: boolean;
    },
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  async getOrLoad(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    if (!this.opts.live()) return load();
    const hit = this.entries.get(scope)?.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    if (hit && this.opts.staleWhileRevalidate) {
      this.reload(scope, key, load).catch(() => {
        // The next request past the TTL tries again; this one was answered.
      });
      return hit.value;
    }
    return this.reload(scope, key, load);
  }

  private reload(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    const generation = this.generations.get(scope) ?? 0;
    const epoch = this.epoch;
    // A load started before a change is never shared with requests that arrive after it.
    const id = `${epoch}\u0000${scope}\u0000${generation}\u0000${key}`;
    const running = this.inflight.get(id);
    if (running) return running;
    const loading = load()
      .then((value) => {
        if (epoch === this.epoch && (this.generations.get(scope) ?? 0) === generation && this.opts.live())
          this.store(scope, key, value);
        return value;
      })
      .finally(() => this.inflight.delete(id));
    this.inflight.set(id, loading);
    return loading;
  }

  private store(scope: string, key: string, value: V): void {
    let group = this.entries.get(scope);
    if (!group) {
      if (this.entries.size >= this.opts.maxScopes) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      group = new Map();
      this.entries.set(scope, group);
    }
    group.set(key, { value, expires: this.now() + this.opts.ttlMs });
  }

  invalidate(scope: string): void {
    this.generations.set(scope, (this.generations.get(scope) ?? 0) + 1);
    this.entries.delete(scope);
  }

  clear(): void {
    this.epoch++;
    this.generations.clear();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
