import { type ApiHarness, startApi } from '../support/api-harness';
import { orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('/v1/customers', () => {
  it('answers 403 quota_exceeded past the plan cap (business: 500), with the upgrade', async () => {
    const org = await orgWithKeys(api);
    await api.orm.em
      .getConnection()
      .execute(
        `insert into customers (id, organization_id, name, created_at, updated_at) select gen_random_uuid(), ?, 'c' || g, now(), now() from generate_series(1, 500) g`,
        [org.id],
      );
    const over = await org.call('POST', '/v1/customers', { name: 'One too many' });
    expect([over.status, over.body.title, over.body.quota]).toEqual([
      403,
      'quota_exceeded',
      { capability: 'customers', used: 500, cap: 500, plan: 'business' },
    ]);
    expect(over.body.upgrade).toMatchObject({ plan: 'enterprise' });
  });

  it('creates, reads, lists, patches and soft-deletes a customer', async () => {
    const org = await orgWithKeys(api);
    const created = await org.call('POST', '/v1/customers', {
      name: 'Globex',
      external_id: 'crm-42',
      contact_email: 'ops@globex.example',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Globex', external_id: 'crm-42', contact_email: 'ops@globex.example' });
    const id = created.body.id;
    expect((await org.call('GET', `/v1/customers/${id}`)).body).toEqual(created.body);
    const patched = await org.call('PATCH', `/v1/customers/${id}`, { contact_email: null, name: 'Globex Corp' });
    expect(patched.body).toMatchObject({ name: 'Globex Corp', contact_email: null, external_id: 'crm-42' });
    expect((await org.call('GET', '/v1/customers')).body.items).toHaveLength(1);
    expect((await org.call('DELETE', `/v1/customers/${id}`)).status).toBe(200);
    expect((await org.call('DELETE', `/v1/customers/${id}`)).status).toBe(200);
    expect((await org.call('GET', `/v1/customers/${id}`)).status).toBe(404);
  });

  it('rejects an invalid email with its path', async () => {
    const org = await orgWithKeys(api);
    const res = await org.call('POST', '/v1/customers', { name: 'X', contact_email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'contact_email', message: expect.any(String) }]);
  });

  it('answers 403 feature_locked with an upgrade on a plan without customers', async () => {
    const org = await orgWithKeys(api, { plan: 'team' });
    const res = await org.call('POST', '/v1/customers', { name: 'Globex' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      title: 'feature_locked',
      quota: { capability: 'customers', plan: 'team' },
      upgrade: { plan: 'business' },
    });
    expect((await org.call('GET', '/v1/customers')).body.title).toBe('feature_locked');
  });

  it("never shows another organization's customers", async () => {
    const a = await orgWithKeys(api);
    const b = await orgWithKeys(api);
    const c = await a.call('POST', '/v1/customers', { name: 'Initech' });
    expect((await b.call('GET', `/v1/customers/${c.body.id}`)).status).toBe(404);
    expect((await b.call('PATCH', `/v1/customers/${c.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await b.call('DELETE', `/v1/customers/${c.body.id}`)).status).toBe(404);
    expect((await b.call('GET', '/v1/customers')).body.items).toEqual([]);
  });
});
