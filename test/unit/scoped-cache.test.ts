import { ScopedCache } from '../../src/api/cache/scoped-cache';

function cache(opts: { live?: () => boolean; now?: () => number; staleWhileRevalidate?: boolean } = {}) {
  return new ScopedCache<string>({
    live: opts.live ?? (() => true),
    ttlMs: 1000,
    maxScopes: 2,
    now: opts.now,
    staleWhileRevalidate: opts.staleWhileRevalidate,
  });
}

describe('ScopedCache', () => {
  it('serves a cached value until its scope is invalidated', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await c.getOrLoad('org-a', 'list', load)).toBe('v1');
    expect(await c.getOrLoad('org-a', 'list', load)).toBe('v1');
    c.invalidate('org-a');
    expect(await c.getOrLoad('org-a', 'list', load)).toBe('v2');
  });

  it('does not store a value whose load began before an invalidation of its scope', async () => {
    const c = cache();
    let release!: () => void;
    const slow = c.getOrLoad('org-a', 'list', () => new Promise<string>((r) => (release = () => r('stale'))));
    c.invalidate('org-a');
    release();
    expect(await slow).toBe('stale');
    expect(await c.getOrLoad('org-a', 'list', async () => 'fresh')).toBe('fresh');
  });

  it('caches nothing while the change feed is down', async () => {
    let live = false;
    const c = cache({ live: () => live });
    let loads = 0;
    await c.getOrLoad('s', 'k', async () => `v${++loads}`);
    await c.getOrLoad('s', 'k', async () => `v${++loads}`);
    expect(loads).toBe(2);
    live = true;
    await c.getOrLoad('s', 'k', async () => `v${++loads}`);
    await c.getOrLoad('s', 'k', async () => `v${++loads}`);
    expect(loads).toBe(3);
  });

  it('expires entries after the TTL and bounds the number of scopes', async () => {
    let t = 0;
    const c = cache({ now: () => t });
    await c.getOrLoad('a', 'k', async () => 'a1');
    t = 1001;
    expect(await c.getOrLoad('a', 'k', async () => 'a2')).toBe('a2');
    await c.getOrLoad('b', 'k', async () => 'b');
    await c.getOrLoad('c', 'k', async () => 'c');
    expect(c.size).toBe(2);
  });

  it('clear() also stops loads in flight from being stored', async () => {
    const c = cache();
    let release!: () => void;
    const slow = c.getOrLoad('s', 'k', () => new Promise<string>((r) => (release = () => r('old'))));
    c.clear();
    release();
    await slow;
    expect(await c.getOrLoad('s', 'k', async () => 'new')).toBe('new');
  });

  it('shares one load among concurrent misses, but not across a change', async () => {
    const c = cache();
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      const mine = ++loads;
      await gate;
      return `v${mine}`;
    };
    const burst = [c.getOrLoad('s', 'k', load), c.getOrLoad('s', 'k', load), c.getOrLoad('s', 'k', load)];
    expect(loads).toBe(1);
    c.invalidate('s');
    const afterChange = c.getOrLoad('s', 'k', load);
    expect(loads).toBe(2);
    release();
    expect(await Promise.all(burst)).toEqual(['v1', 'v1', 'v1']);
    expect(await afterChange).toBe('v2');
  });

  it('with staleWhileRevalidate answers an expired entry at once and reloads it once in the background', async () => {
    let t = 0;
    const c = cache({ now: () => t, staleWhileRevalidate: true });
    await c.getOrLoad('s', 'k', async () => 'v1');
    t = 1001;
    let loads = 0;
    let release!: () => void;
    const reload = () => new Promise<string>((r) => (loads++, (release = () => r('v2'))));
    expect(await c.getOrLoad('s', 'k', reload)).toBe('v1');
    expect(await c.getOrLoad('s', 'k', reload)).toBe('v1');
    expect(loads).toBe(1);
    release();
    await new Promise((r) => setImmediate(r));
    expect(await c.getOrLoad('s', 'k', reload)).toBe('v2');
    c.invalidate('s');
    expect(await c.getOrLoad('s', 'k', async () => 'v3')).toBe('v3');
  });
});
