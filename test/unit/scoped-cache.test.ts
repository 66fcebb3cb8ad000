import { ScopedCache } from '../../src/api/cache/scoped-cache';

function cache(opts: { live?: () => boolean; now?: () => number } = {}) {
  return new ScopedCache<string>({ live: opts.live ?? (() => true), ttlMs: 1000, maxScopes: 2, now: opts.now });
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
});
