import { type ApiHarness, startApi } from '../support/api-harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('/v1/customers', () => {
  it('answers 403 quota_exceeded past the plan cap (business: 500), with the upgrade', async () => {
    const org = await api.createOrg('business');
    await api.orm.em.getConnection().execute(
      `insert into customers (id, organization_id, name, created_at, updated_at) select gen_random_uuid(), ?, 'c' || g, now(), now() from generate_series(1, 500) g`,
      [org.id],
    );
    const over = await api.request('POST', '/v1/customers', { key: org.key, body: { name: 'One too many' } });
    expect([over.status, over.body.title, over.body.quota]).toEqual([403, 'quota_exceeded', { capability: 'customers', used: 500, cap: 500, plan: 'business' }]);
    expect(over.body.upgrade).toMatchObject({ plan: 'enterprise' });
  });

  it('creates, reads, lists, patches and soft-deletes a customer', async () => {
    const org = await api.createOrg('business');
    const created = await api.request('POST', '/v1/customers', { key: org.key, body: { name: 'Globex', external_id: 'crm-42', contact_email: 'ops@globex.example' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Globex', external_id: 'crm-42', contact_email: 'ops@globex.example' });
    const id = created.body.id;
    expect((await api.request('GET', `/v1/customers/${id}`, { key: org.key })).body).toEqual(created.body);
    const patched = await api.request('PATCH', `/v1/customers/${id}`, { key: org.key, body: { contact_email: null, name: 'Globex Corp' } });
    expect(patched.body).toMatchObject({ name: 'Globex Corp', contact_email: null, external_id: 'crm-42' });
    expect((await api.request('GET', '/v1/customers', { key: org.key })).body.items).toHaveLength(1);
    expect((await api.request('DELETE', `/v1/customers/${id}`, { key: org.key })).status).toBe(200);
    expect((await api.request('DELETE', `/v1/customers/${id}`, { key: org.key })).status).toBe(200);
    expect((await api.request('GET', `/v1/customers/${id}`, { key: org.key })).status).toBe(404);
  });

  it('rejects an invalid email with its path', async () => {
    const org = await api.createOrg('business');
    const res = await api.request('POST', '/v1/customers', { key: org.key, body: { name: 'X', contact_email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'contact_email', message: expect.any(String) }]);
  });

  it('answers 403 feature_locked with an upgrade on a plan without customers', async () => {
    const org = await api.createOrg('team');
    const res = await api.request('POST', '/v1/customers', { key: org.key, body: { name: 'Globex' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ title: 'feature_locked', quota: { capability: 'customers', plan: 'team' }, upgrade: { plan: 'business' } });
    expect((await api.request('GET', '/v1/customers', { key: org.key })).body.title).toBe('feature_locked');
  });

  it("never shows another organization's customers", async () => {
    const a = await api.createOrg('business');
    const b = await api.createOrg('business');
    const c = await api.request('POST', '/v1/customers', { key: a.key, body: { name: 'Initech' } });
    expect((await api.request('GET', `/v1/customers/${c.body.id}`, { key: b.key })).status).toBe(404);
    expect((await api.request('PATCH', `/v1/customers/${c.body.id}`, { key: b.key, body: { name: 'x' } })).status).toBe(404);
    expect((await api.request('DELETE', `/v1/customers/${c.body.id}`, { key: b.key })).status).toBe(404);
    expect((await api.request('GET', '/v1/customers', { key: b.key })).body.items).toEqual([]);
  });
});
