import { WebhookSubscriptionSchema } from '../../src/db/entities';
import { IdempotencyRecordSchema } from '../../src/db/entities';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api);
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);
const valid = { url: 'https://hooks.example.com/vigil', event_types: ['incident.created', 'maintenance.started'] };

describe('/v1/webhooks', () => {
  it('creates a webhook and shows its secret once; reads never show it, and it is stored sealed', async () => {
    const res = await call('POST', '/v1/webhooks', { ...valid, description: 'Pager bridge' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ...valid,
      description: 'Pager bridge',
      enabled: true,
      disabled_at: null,
      previous_secret_expires_at: null,
      deleted_at: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call('GET', `/v1/webhooks/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.text).not.toContain(res.body.secret.slice(6));
    const listed = await call('GET', '/v1/webhooks');
    expect(listed.text).not.toContain(res.body.secret.slice(6));
    const row = await api.orm.em.fork().findOneOrFail(WebhookSubscriptionSchema, res.body.id);
    expect(row.sealedSecret).toMatch(/^v1\./);
    expect(row.sealedSecret).not.toContain(res.body.secret.slice(6));
  });

  it('accepts a secret of its own, and replays an Idempotency-Key without storing the secret in the record', async () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const headers = { 'idempotency-key': 'hook-1' };
    const first = await call('POST', '/v1/webhooks', { ...valid, secret }, headers);
    const again = await call('POST', '/v1/webhooks', { ...valid, secret }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect([first.body.secret, again.body.secret]).toEqual([secret, secret]);
    const record = await api.orm.em
      .fork()
      .findOneOrFail(IdempotencyRecordSchema, { organization: org.id, key: 'hook-1' });
    expect(JSON.stringify(record.responseBody)).not.toContain(secret.slice(6));
  });

  it('answers 400 validation_failed with paths for a non-http URL, unknown event types, a malformed secret and unknown fields', async () => {
    const res = await call('POST', '/v1/webhooks', {
      url: 'ftp://files.example.com/in',
      event_types: ['incident.exploded'],
      secret: 'hunter2',
      colour: 'red',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.title).toBe('validation_failed');
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['url', 'event_types.0', 'secret', 'colour']));
    expect(
      (await call('POST', '/v1/webhooks', { url: 'https://x.example.com', event_types: [] })).body.errors[0].path,
    ).toBe('event_types');
    expect(
      (await call('POST', '/v1/webhooks', { url: 'javascript:alert(1)', event_types: ['incident.created'] })).body
        .errors[0].path,
    ).toBe('url');
    expect(
      (await call('GET', '/v1/webhooks')).body.items.every((w: { url: string }) => w.url.startsWith('https://')),
    ).toBe(true);
  });

  it('patches only the fields sent, disables and enables, and soft-deletes idempotently', async () => {
    const { body } = await call('POST', '/v1/webhooks', valid);
    const patched = await call('PATCH', `/v1/webhooks/${body.id}`, {
      event_types: ['incident.resolved'],
      enabled: false,
    });
    expect(patched.body).toMatchObject({ url: valid.url, event_types: ['incident.resolved'], enabled: false });
    expect(patched.body.disabled_at).toEqual(expect.any(String));
    const enabled = await call('PATCH', `/v1/webhooks/${body.id}`, { enabled: true, description: null });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_at: null, description: null });
    const deleted = await call('DELETE', `/v1/webhooks/${body.id}`);
    const again = await call('DELETE', `/v1/webhooks/${body.id}`);
    expect([deleted.status, again.status]).toEqual([200, 200]);
    expect(again.body.deleted_at).toBe(deleted.body.deleted_at);
    expect((await call('GET', `/v1/webhooks/${body.id}`)).status).toBe(404);
    expect((await call('GET', `/v1/webhooks/${body.id}/deliveries`)).status).toBe(404);
  });

  it('rotates the secret: a new one, answered once, with the old one signing for 24 hours', async () => {
    const { body } = await call('POST', '/v1/webhooks', valid);
    const rotated = await call('POST', `/v1/webhooks/${body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(body.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 23.9 * 3600_000);
    expect((await call('GET', `/v1/webhooks/${body.id}`)).body.secret).toBeUndefined();
  });

  it('pages deliveries and webhooks with cursors, and answers 404 for unknown deliveries', async () => {
    const { body } = await call('POST', '/v1/webhooks', valid);
    const page = await call('GET', `/v1/webhooks/${body.id}/deliveries?limit=500`);
    expect(page.body).toEqual({ items: [], next_cursor: null });
    expect((await call('GET', `/v1/webhooks/${body.id}/deliveries?state=exploded`)).body.errors[0].path).toBe(
      'query.state',
    );
    expect((await call('GET', `/v1/webhooks/${body.id}/deliveries/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
    expect((await call('GET', `/v1/webhooks/${body.id}/deliveries/not-a-uuid`)).status).toBe(404);
    const first = await call('GET', '/v1/webhooks?limit=2');
    expect(first.body.items).toHaveLength(2);
    const second = await call('GET', `/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((w: { id: string }) => w.id)).not.toContain(first.body.items[0].id);
  });
});

describe('webhook quotas', () => {
  it('answers 403 quota_exceeded past the plan cap, with an upgrade to the plan that lifts it', async () => {
    const team = await orgWithKeys(api, { plan: 'team' });
    for (let i = 0; i < 5; i++) expect((await team.call('POST', '/v1/webhooks', valid)).status).toBe(201);
    const over = await team.call('POST', '/v1/webhooks', valid);
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      title: 'quota_exceeded',
      quota: { capability: 'webhooks', used: 5, cap: 5, plan: 'team' },
      upgrade: { plan: 'business' },
    });
  });

  it('suspends webhooks beyond the quota after a downgrade: changes answer item_suspended_plan, disabling still works', async () => {
    const o = await orgWithKeys(api);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await o.call('POST', '/v1/webhooks', valid)).body.id);
    await api.updateOrg(o.id, { plan: 'team' });
    const blocked = await o.call('PATCH', `/v1/webhooks/${ids[5]}`, { url: 'https://elsewhere.example.com' });
    expect([blocked.status, blocked.body.title]).toEqual([403, 'item_suspended_plan']);
    expect((await o.call('POST', `/v1/webhooks/${ids[5]}/rotate-secret`)).body.title).toBe('item_suspended_plan');
    // Switching a suspended webhook off is always allowed.
    expect((await o.call('PATCH', `/v1/webhooks/${ids[5]}`, { enabled: false })).body.enabled).toBe(false);
    expect((await o.call('PATCH', `/v1/webhooks/${ids[0]}`, { enabled: false })).status).toBe(200);
    expect((await o.call('DELETE', `/v1/webhooks/${ids[5]}`)).status).toBe(200);
  });
});
