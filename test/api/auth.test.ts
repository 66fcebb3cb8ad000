import { type ApiHarness, startApi } from '../support/api-harness';
import { revokeApiKey } from '../../src/usecases/organizations/api-keys';
import { ApiKeySchema } from '../../src/db/entities';
import { eventually } from '../support/eventually';
import { orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('authentication (spec §5)', () => {
  it('answers 401 unauthenticated when no bearer token is sent', async () => {
    const res = await api.request('GET', '/v1/services');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ title: 'unauthenticated', status: 401 });
    expect(res.body.detail).toMatch(/No bearer token/);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 401 for a malformed header, a non-Vigil token and an unknown key, saying which', async () => {
    const basic = await api.request('GET', '/v1/services', { headers: { authorization: 'Basic abc' } });
    expect(basic.body.detail).toMatch(/not of the form/);
    const garbage = await api.request('GET', '/v1/services', { key: 'hunter2' });
    expect(garbage.body.detail).toMatch(/not a Vigil key/);
    const unknown = await api.request('GET', '/v1/services', { key: `vgl_pub_${'A'.repeat(40)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toMatch(/no such key/);
  });

  it('answers 401 saying the key was revoked once it is revoked', async () => {
    const org = await api.createOrg();
    expect((await api.request('GET', '/v1/services', { key: org.key })).status).toBe(200);
    const record = await api.orm.em.fork().findOneOrFail(ApiKeySchema, { organization: org.id });
    await revokeApiKey(api.orm.em.fork(), record.id, new Date());
    // The key was cached by the first call; the revocation reaches the cache through the change feed.
    const res = await eventually(async () => {
      const r = await api.request('GET', '/v1/services', { key: org.key });
      expect(r.status).toBe(401);
      return r;
    }, 1000);
    expect(res.body.detail).toMatch(/revoked/);
  });

  it('answers 403 plan_does_not_permit_api for an organization on the free plan', async () => {
    const org = await api.createOrg('free');
    const res = await api.request('GET', '/v1/services', { key: org.key });
    expect(res.status).toBe(403);
    expect(res.body.title).toBe('plan_does_not_permit_api');
  });

  it('follows a plan change made elsewhere within a second (cached keys are invalidated by the change feed)', async () => {
    const org = await api.createOrg('team');
    expect((await api.request('GET', '/v1/services', { key: org.key })).status).toBe(200);
    await api.updateOrg(org.id, { plan: 'free' });
    await eventually(
      async () =>
        expect((await api.request('GET', '/v1/services', { key: org.key })).body.title).toBe(
          'plan_does_not_permit_api',
        ),
      1000,
    );
    await api.updateOrg(org.id, { plan: 'team' });
    await eventually(
      async () => expect((await api.request('GET', '/v1/services', { key: org.key })).status).toBe(200),
      1000,
    );
  });

  it('answers 403 forbidden naming the missing scope', async () => {
    const { readOnly } = (await orgWithKeys(api, { keys: { readOnly: ['read:metrics'] } })).keys;
    expect((await readOnly.call('GET', '/v1/services')).status).toBe(200);
    const res = await readOnly.call('POST', '/v1/services', { name: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.title).toBe('forbidden');
    expect(res.body.detail).toContain('write:config');
  });

  it('records when a key was last used', async () => {
    const org = await api.createOrg();
    await api.request('GET', '/v1/services', { key: org.key });
    const record = await api.orm.em.fork().findOneOrFail(ApiKeySchema, { organization: org.id });
    expect(record.lastUsedAt).toBeInstanceOf(Date);
  });
});
