import { ServiceSchema } from '../../src/db/entities';
import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';

let a: ApiHarness;
let b: ApiHarness;
beforeAll(async () => {
  [a, b] = await Promise.all([startApi(), startApi()]);
});
afterAll(async () => Promise.all([a.close(), b.close()]));

const names = async (api: ApiHarness, key: string) =>
  (await api.request('GET', '/v1/services', { key })).body.items.map((s: { name: string }) => s.name);

describe('cached reads follow every write, wherever it is made', () => {
  it('an instance that cached a list sees a write made through another instance', async () => {
    const org = await a.createOrg();
    await a.request('POST', '/v1/services', { key: org.key, body: { name: 'first' } });
    expect(await names(b, org.key)).toEqual(['first']);
    await a.request('POST', '/v1/services', { key: org.key, body: { name: 'second' } });
    expect(await names(a, org.key)).toEqual(['second', 'first']);
    await eventually(async () => expect(await names(b, org.key)).toEqual(['second', 'first']), 1000);
  });

  it('a write made outside the API (another process, plain SQL) reaches the cache through the table trigger', async () => {
    const org = await a.createOrg();
    const created = await a.request('POST', '/v1/services', { key: org.key, body: { name: 'before' } });
    expect(await names(a, org.key)).toEqual(['before']);
    await a.orm.em.fork().nativeUpdate(ServiceSchema, { id: created.body.id }, { name: 'after' });
    await eventually(async () => expect(await names(a, org.key)).toEqual(['after']), 1000);
  });

  it('reconnects after losing its connection, clearing the caches meanwhile', async () => {
    const org = await a.createOrg();
    await a.request('POST', '/v1/services', { key: org.key, body: { name: 'x' } });
    await names(a, org.key);
    let resets = 0;
    a.changeFeed.on('reset', () => resets++);
    await a.orm.em
      .fork()
      .getConnection()
      .execute(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'vigil-change-feed' and datname = current_database()`,
      );
    await eventually(async () => expect(resets).toBeGreaterThan(0), 2000);
    await eventually(async () => expect(a.changeFeed.live).toBe(true), 5000);
    await a.request('POST', '/v1/services', { key: org.key, body: { name: 'y' } });
    expect((await names(a, org.key)).sort()).toEqual(['x', 'y']);
  });

  it('reads go to PostgreSQL while the change feed is down, so nothing stale is served', async () => {
    const org = await b.createOrg();
    const created = await b.request('POST', '/v1/services', { key: org.key, body: { name: 'cached' } });
    expect(await names(b, org.key)).toEqual(['cached']);
    await b.changeFeed.close();
    expect(b.changeFeed.live).toBe(false);
    await b.orm.em.fork().nativeUpdate(ServiceSchema, { id: created.body.id }, { name: 'changed while deaf' });
    expect(await names(b, org.key)).toEqual(['changed while deaf']);
  });
});
