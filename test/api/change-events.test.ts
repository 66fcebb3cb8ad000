import type { EntityManager } from '@mikro-orm/postgresql';
import { Migration20261124000000ChangeEventScopes } from '../../src/db/migrations/Migration20261124000000ChangeEventScopes';
import type { Scope } from '../../src/domain/scopes';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture<'reader' | 'writer' | 'reserved', 'Checkout' | 'Search'>;
let checkout: string;
let search: string;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, {
    keys: { reader: ['read:incidents'], writer: ['write:incidents'], reserved: ['read:change_events'] },
    services: ['Checkout', 'Search'],
  });
  ({ Checkout: checkout, Search: search } = org.services);
});
afterAll(async () => api.close());

const post = (body: unknown, headers?: Record<string, string>) => org.call('POST', '/v1/change-events', body, headers);

describe('/v1/change-events', () => {
  it('records a deploy from a CI pipeline and returns it whole', async () => {
    const res = await post({
      kind: 'deploy',
      title: 'Deploy checkout-api v1.42.0',
      service_ids: [checkout],
      actor: 'github-actions[bot]',
      source: 'github-actions',
      links: [{ label: 'Run', url: 'https://ci.example.com/runs/4711' }],
      metadata: { version: '1.42.0', commit: 'abc123' },
      occurred_at: '2026-11-20T10:00:00.000Z',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'deploy',
      title: 'Deploy checkout-api v1.42.0',
      description: null,
      service_ids: [checkout],
      actor: 'github-actions[bot]',
      links: [{ label: 'Run', url: 'https://ci.example.com/runs/4711' }],
      metadata: { version: '1.42.0', commit: 'abc123' },
      occurred_at: '2026-11-20T10:00:00.000Z',
    });
    expect((await org.call('GET', `/v1/change-events/${res.body.id}`)).body).toEqual(res.body);
  });

  it('defaults occurred_at to the time of the request', async () => {
    const before = Date.now();
    const res = await post({ kind: 'feature_flag', title: 'new-search on' });
    expect(Date.parse(res.body.occurred_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.service_ids).toEqual([]);
  });

  it('answers 400 unknown_services naming the ids that are not services of the organization', async () => {
    const foreign = (await orgWithKeys(api, { services: ['Theirs'] })).services.Theirs;
    const res = await post({ kind: 'deploy', title: 'x', service_ids: [checkout, foreign] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      title: 'unknown_services',
      unknown_services: [foreign],
      errors: [{ path: 'service_ids.1' }],
    });
  });

  it('rejects bad shapes with paths: kind, dates without milliseconds, non-http links', async () => {
    const res = await post({
      kind: 'party',
      title: 'x',
      occurred_at: '2026-11-20T10:00:00Z',
      links: [{ label: 'x', url: 'ftp://x' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['kind', 'links.0.url', 'occurred_at']);
  });

  it('records a retried pipeline step once with the same Idempotency-Key', async () => {
    const body = {
      kind: 'deploy',
      title: 'Deploy search v7',
      service_ids: [search],
      occurred_at: '2026-11-21T08:00:00.000Z',
    };
    const a = await post(body, { 'idempotency-key': 'run-99-step-3' });
    const b = await post(body, { 'idempotency-key': 'run-99-step-3' });
    expect(b.body.id).toBe(a.body.id);
    const c = await post({ ...body, occurred_at: '2026-11-21T09:00:00.000Z' }, { 'idempotency-key': 'run-99-step-3' });
    expect(c.body.title).toBe('idempotency_key_reused');
  });

  it('lists newest occurred_at first and filters by service, kind and time range, with stable paging', async () => {
    const o = await orgWithKeys(api, { services: ['A'] });
    const svc = o.services.A;
    const mk = (title: string, occurred_at: string, kind = 'deploy', service_ids: string[] = [svc]) =>
      o.call('POST', '/v1/change-events', { kind, title, occurred_at, service_ids });
    await mk('t3', '2026-11-03T00:00:00.000Z');
    await mk('t1', '2026-11-01T00:00:00.000Z');
    await mk('t2', '2026-11-02T00:00:00.000Z', 'config_change');
    await mk('t4', '2026-11-04T00:00:00.000Z', 'deploy', []);
    const titles = async (q: string) =>
      (await o.call('GET', `/v1/change-events${q}`)).body.items.map((e: { title: string }) => e.title);
    expect(await titles('')).toEqual(['t4', 't3', 't2', 't1']);
    expect(await titles(`?service_id=${svc}`)).toEqual(['t3', 't2', 't1']);
    expect(await titles('?kind=config_change')).toEqual(['t2']);
    expect(await titles('?since=2026-11-02T00:00:00.000Z&until=2026-11-04T00:00:00.000Z')).toEqual(['t3', 't2']);
    const first = await o.call('GET', '/v1/change-events?limit=3');
    const second = await o.call('GET', `/v1/change-events?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((e: { title: string }) => e.title)).toEqual(['t1']);
    expect(second.body.next_cursor).toBeNull();
    expect((await o.call('GET', '/v1/change-events?since=yesterday')).body.errors[0].path).toBe('query.since');
  });

  it('is read with read:incidents and written with write:incidents (spec §5)', async () => {
    const list = await org.keys.reader.call('GET', '/v1/change-events');
    expect(list.status).toBe(200);
    const one = list.body.items[0];
    expect((await org.keys.reader.call('GET', `/v1/change-events/${one.id}`)).body).toEqual(one);
    const refused = await org.keys.reader.call('POST', '/v1/change-events', { kind: 'deploy', title: 'x' });
    expect([refused.status, refused.body.title, refused.body.detail]).toEqual([
      403,
      'forbidden',
      expect.stringContaining('write:incidents'),
    ]);

    const created = await org.keys.writer.call('POST', '/v1/change-events', {
      kind: 'deploy',
      title: 'written with write:incidents',
    });
    expect(created.status).toBe(201);
    const unread = await org.keys.writer.call('GET', '/v1/change-events');
    expect([unread.status, unread.body.title, unread.body.detail]).toEqual([
      403,
      'forbidden',
      expect.stringContaining('read:incidents'),
    ]);
  });

  it('needs nothing of read:change_events: a key carrying only that reserved scope is refused, naming read:incidents', async () => {
    const list = await org.keys.reserved.call('GET', '/v1/change-events');
    expect([list.status, list.body.title, list.body.detail]).toEqual([
      403,
      'forbidden',
      expect.stringContaining('read:incidents'),
    ]);
    const created = await org.keys.reserved.call('POST', '/v1/change-events', { kind: 'deploy', title: 'x' });
    expect([created.status, created.body.title, created.body.detail]).toEqual([
      403,
      'forbidden',
      expect.stringContaining('write:incidents'),
    ]);
  });

  it('refuses to mint a key with write:change_events, which is no scope (use write:incidents)', async () => {
    await expect(api.mintKey(org.id, ['write:change_events' as string as Scope])).rejects.toThrow(
      /write:change_events.*write:incidents/,
    );
  });

  it('strips write:change_events from stored keys in its migration, keeping their other scopes', async () => {
    const em = api.orm.em.fork() as EntityManager;
    const conn = em.getConnection();
    const old = await api.mintKey(org.id, ['read:incidents', 'read:change_events']);
    const untouched = await api.mintKey(org.id, ['read:metrics']);
    const prefixes = [old.slice(0, 12), untouched.slice(0, 12)];
    // A key minted before the migration: the retired name sits among real scopes.
    await conn.execute(
      `update api_keys set scopes = array['write:change_events', 'read:incidents', 'read:change_events'] where prefix = ?`,
      [prefixes[0]],
    );
    const migration = new Migration20261124000000ChangeEventScopes(api.orm.em.getDriver() as never, api.orm.config);
    await migration.up();
    for (const sql of migration.getQueries()) await conn.execute(String(sql));
    const rows = await conn.execute<{ prefix: string; scopes: string[] }[]>(
      `select prefix, scopes from api_keys where prefix in (?, ?)`,
      prefixes,
    );
    expect(Object.fromEntries(rows.map((r) => [r.prefix, r.scopes]))).toEqual({
      [prefixes[0]!]: ['read:incidents', 'read:change_events'],
      [prefixes[1]!]: ['read:metrics'],
    });
    expect(
      await conn.execute(`select count(*)::int as n from api_keys where 'write:change_events' = any(scopes)`),
    ).toEqual([{ n: 0 }]);
  });
});
