/**
 * An in-process read cache whose entries are grouped by scope (an organization, an API key) and
 * dropped when PostgreSQL announces a change to that scope. A load that started before an
 * invalidation is not stored (generation check), and nothing is cached while the change feed is
 * down, so a cached value is never older than the last change notification.
 */
export class ScopedCache<V> {
  private readonly entries = new Map<string, Map<string, { value: V; expires: number }>>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly opts: { live: () => boolean; ttlMs: number; maxScopes: number; now?: () => number },
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  async getOrLoad(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    if (!this.opts.live()) return load();
    const hit = this.entries.get(scope)?.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    const generation = this.generations.get(scope) ?? 0;
    const epoch = this.epoch;
    const value = await load();
    if (epoch === this.epoch && (this.generations.get(scope) ?? 0) === generation && this.opts.live()) {
      this.store(scope, key, value);
    }
    return value;
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
