import { type ApiHarness, startApi } from '../support/api-harness';
import { orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('/v1/services', () => {
  it('creates, reads, lists, patches and soft-deletes a service', async () => {
    const org = await orgWithKeys(api);
    const created = await org.call('POST', '/v1/services', {
      name: 'Checkout API',
      description: 'Payments',
      config_key: 'checkout',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Checkout API',
      description: 'Payments',
      config_key: 'checkout',
      deleted_at: null,
    });
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const id = created.body.id as string;

    const read = await org.call('GET', `/v1/services/${id}`);
    expect(read.status).toBe(200);
    const { status, maintenance, metrics, uptime, ...plain } = read.body;
    expect(plain).toEqual(created.body);
    // A service without metrics has no data yet: never shown as healthy.
    expect({ status, maintenance, metrics, days: uptime.length }).toEqual({
      status: 'no_data',
      maintenance: null,
      metrics: [],
      days: 90,
    });

    const patched = await org.call('PATCH', `/v1/services/${id}`, { description: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Checkout API', description: null, config_key: 'checkout' });

    const list = await org.call('GET', '/v1/services');
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([id]);

    const deleted = await org.call('DELETE', `/v1/services/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted_at).not.toBeNull();
    const again = await org.call('DELETE', `/v1/services/${id}`);
    expect(again.status).toBe(200);
    expect(again.body.deleted_at).toBe(deleted.body.deleted_at);
    expect((await org.call('GET', `/v1/services/${id}`)).status).toBe(404);
    expect((await org.call('PATCH', `/v1/services/${id}`, { name: 'x' })).status).toBe(404);
    expect((await org.call('GET', '/v1/services')).body.items).toEqual([]);
  });

  it("ends the service's metrics with it, so nothing keeps probing a deleted service", async () => {
    const { call, services } = await orgWithKeys(api, { services: ['Going away', 'Staying'] });
    const { 'Going away': svc, Staying: keep } = services;
    const metrics = [];
    for (const [service, name] of [
      [svc, 'a'],
      [svc, 'b'],
      [keep, 'c'],
    ])
      metrics.push(
        (await call('POST', '/v1/metrics', { service_id: service, name, source_type: 'manual', source_config: {} }))
          .body.id,
      );
    expect((await call('DELETE', `/v1/services/${svc}`)).status).toBe(200);
    expect(await Promise.all(metrics.map(async (id) => (await call('GET', `/v1/metrics/${id}`)).status))).toEqual([
      404, 404, 200,
    ]);
  });

  it('answers 400 validation_failed with a path for each problem', async () => {
    const org = await orgWithKeys(api);
    const res = await org.call('POST', '/v1/services', { name: '', config_key: 'Not Valid', colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.title).toBe('validation_failed');
    expect(res.body.type).toBe('https://docs.vigil.test/api/getting-started/errors#validation_failed');
    const paths = (res.body.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(['colour', 'config_key', 'name']);
  });

  it('answers 409 config_key_taken when a live service already has the config_key', async () => {
    const org = await orgWithKeys(api);
    expect((await org.call('POST', '/v1/services', { name: 'A', config_key: 'web' })).status).toBe(201);
    const dup = await org.call('POST', '/v1/services', { name: 'B', config_key: 'web' });
    expect(dup.status).toBe(409);
    expect(dup.body.title).toBe('config_key_taken');
    const other = await orgWithKeys(api);
    expect((await other.call('POST', '/v1/services', { name: 'A', config_key: 'web' })).status).toBe(201);
  });

  it('replays a create sent twice with the same Idempotency-Key and refuses the key with another body', async () => {
    const org = await orgWithKeys(api);
    const headers = { 'idempotency-key': 'deploy-4711' };
    const first = await org.call('POST', '/v1/services', { name: 'Search' }, headers);
    const second = await org.call('POST', '/v1/services', { name: 'Search' }, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await org.call('GET', '/v1/services')).body.items).toHaveLength(1);

    const reused = await org.call('POST', '/v1/services', { name: 'Other' }, headers);
    expect(reused.status).toBe(409);
    expect(reused.body.title).toBe('idempotency_key_reused');

    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () =>
        org.call('POST', '/v1/services', { name: 'Race' }, { 'idempotency-key': 'race' }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.body.id)).size).toBe(1);
    expect(concurrent.every((r) => r.status === 201)).toBe(true);
  });

  it('pages with a stable cursor while rows are inserted concurrently', async () => {
    const org = await orgWithKeys(api);
    for (let i = 0; i < 7; i++) await org.call('POST', '/v1/services', { name: `svc-${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await org.call('GET', `/v1/services${q}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((s: { name: string }) => s.name));
      cursor = page.body.next_cursor;
      // New rows are newer than every cursor position: they never appear in later pages.
      await org.call('POST', '/v1/services', { name: `late-${pages}` });
      pages++;
    } while (cursor);
    expect(seen).toEqual(['svc-6', 'svc-5', 'svc-4', 'svc-3', 'svc-2', 'svc-1', 'svc-0']);
    expect(pages).toBe(3);
  });

  it('clamps limit to 1..200 and rejects a cursor it did not issue', async () => {
    const org = await orgWithKeys(api);
    for (let i = 0; i < 2; i++) await org.call('POST', '/v1/services', { name: `s${i}` });
    expect((await org.call('GET', '/v1/services?limit=0')).body.items).toHaveLength(1);
    expect((await org.call('GET', '/v1/services?limit=5000')).body.items).toHaveLength(2);
    const bad = await org.call('GET', '/v1/services?cursor=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('query.cursor');
  });

  it("answers 404 for another organization's service, a malformed id and an unknown id", async () => {
    const owner = await orgWithKeys(api);
    const intruder = await orgWithKeys(api);
    const svc = await owner.call('POST', '/v1/services', { name: 'Private' });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'pwned' }], ['DELETE']] as const) {
      const res = await intruder.call(method, `/v1/services/${svc.body.id}`, body);
      expect(res.status).toBe(404);
      expect(res.body.title).toBe('not_found');
    }
    expect((await owner.call('GET', '/v1/services/not-a-uuid')).status).toBe(404);
    expect((await owner.call('GET', '/v1/services/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await intruder.call('GET', '/v1/services')).body.items).toEqual([]);
    expect((await owner.call('GET', `/v1/services/${svc.body.id}`)).body.name).toBe('Private');
  });
});

describe('plan quotas on services', () => {
  it('answers 403 quota_exceeded with quota and upgrade once the cap is reached', async () => {
    const org = await orgWithKeys(api, { plan: 'team' });
    for (let i = 0; i < 25; i++) {
      expect((await org.call('POST', '/v1/services', { name: `s${i}` })).status).toBe(201);
    }
    const over = await org.call('POST', '/v1/services', { name: 'one too many' });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      title: 'quota_exceeded',
      quota: { capability: 'services', used: 25, cap: 25, plan: 'team' },
      upgrade: { plan: 'business', label: 'Upgrade to Business' },
    });
    expect(over.body.upgrade.url).toBe('https://docs.vigil.test/pricing#business');
  });

  it('suspends items beyond the quota after a downgrade: writes answer item_suspended_plan, reads and deletes still work', async () => {
    const org = await orgWithKeys(api);
    const ids: string[] = [];
    for (let i = 0; i < 26; i++) ids.push((await org.call('POST', '/v1/services', { name: `s${i}` })).body.id);
    await api.updateOrg(org.id, { plan: 'team' });

    const newest = ids[25]!;
    const blocked = await org.call('PATCH', `/v1/services/${newest}`, { name: 'renamed' });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({
      title: 'item_suspended_plan',
      quota: { capability: 'services', used: 26, cap: 25, plan: 'team' },
      upgrade: { plan: 'business' },
    });
    expect((await org.call('GET', `/v1/services/${newest}`)).body.name).toBe('s25');
    expect((await org.call('PATCH', `/v1/services/${ids[0]}`, { name: 'oldest' })).status).toBe(200);
    expect((await org.call('POST', '/v1/services', { name: 'new' })).body.title).toBe('quota_exceeded');

    expect((await org.call('DELETE', `/v1/services/${ids[1]}`)).status).toBe(200);
    expect((await org.call('PATCH', `/v1/services/${newest}`, { name: 'back in quota' })).status).toBe(200);
  });
});
