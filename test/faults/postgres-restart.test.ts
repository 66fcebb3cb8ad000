import { Client as PgClient } from 'pg';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { type ApiHarness, type HttpResult, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type OwnPostgres, startOwnPostgres } from '../support/own-postgres';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * PostgreSQL restarted under API load, against a server of the test's own: while it is down the
 * API answers at once with 503 `database_unavailable`; afterwards the API's pool, the worker, the
 * outbox relay and the LISTEN connections come back by themselves, and nothing answered 2xx
 * before the restart is lost.
 */

let pg: OwnPostgres;
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture;
let rx: Receiver;
const savedDatabaseUrl = process.env.VIGIL_TEST_DATABASE_URL;

beforeAll(async () => {
  pg = await startOwnPostgres();
  // The harnesses read the database from here: point them at the server this test restarts.
  process.env.VIGIL_TEST_DATABASE_URL = pg.url;
  h = await startTemporalHarness({
    relay: true,
    webhookPolicy: { initialMs: 200, factor: 2, maxMs: 2_000, giveUpAfterMs: 120_000 },
  });
  api = await startApi({
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    webhookStarter: h.webhookStarter,
  });
  org = await orgWithKeys(api, { plan: 'enterprise' });
  rx = await startReceiver();
}, 180_000);
afterAll(async () => {
  await rx?.close();
  await api?.close();
  await h?.close();
  await pg?.close();
  process.env.VIGIL_TEST_DATABASE_URL = savedDatabaseUrl;
});

const call: Call = (...args) => org.call(...args);

interface Exchange {
  at: number;
  ms: number;
  kind: 'write' | 'read';
  status: number;
  title?: string;
  retryAfter: string | null;
  contentType: string | null;
  id?: string;
}

/** `loops` clients, each a write then a read, until `stop()`; every answer recorded. */
function load(loops: number) {
  const log: Exchange[] = [];
  let running = true;
  let n = 0;
  const record = (kind: Exchange['kind'], started: number, res: HttpResult) =>
    log.push({
      at: started,
      ms: Date.now() - started,
      kind,
      status: res.status,
      title: typeof res.body === 'object' ? res.body?.title : undefined,
      retryAfter: res.headers.get('retry-after'),
      contentType: res.headers.get('content-type'),
      id: res.status === 201 ? res.body.id : undefined,
    });
  const client = async () => {
    while (running) {
      let started = Date.now();
      record('write', started, await call('POST', '/v1/incidents', { title: `Load ${++n}`, severity: 'minor' }));
      started = Date.now();
      record('read', started, await call('GET', '/v1/incidents?limit=5'));
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const done = Promise.all(Array.from({ length: loops }, client));
  return {
    log,
    async stop() {
      running = false;
      await done;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL restarted under API load', () => {
  it('fails fast with 503 while down, recovers on its own, and loses nothing accepted', async () => {
    const hook = await call('POST', '/v1/webhooks', { url: rx.url, event_types: ['incident.created'] });
    expect(hook.status).toBe(201);

    const traffic = load(4);
    // Enough writes accepted before and after the restart for "nothing lost" to mean something,
    // counted rather than timed: a loaded machine answers fewer in a fixed sleep.
    const acceptedSince = (t: number) =>
      traffic.log.filter((e) => e.kind === 'write' && e.status === 201 && e.at >= t).length;
    await eventually(async () => expect(acceptedSince(0)).toBeGreaterThanOrEqual(12), 30_000, 100);
    const downAt = Date.now();
    await pg.stop();
    const stoppedAt = Date.now();
    // The outage itself: 5 s with PostgreSQL down.
    await sleep(5_000);
    const startingAt = Date.now();
    await pg.start();
    const upAt = Date.now();
    // Recovered: the first write answered 201 after the server was back.
    const recoveredAt = await eventually(async () => {
      const ok = traffic.log.find((e) => e.kind === 'write' && e.status === 201 && e.at >= upAt);
      if (!ok)
        throw new Error(
          `no write succeeded yet; since the restart: ${JSON.stringify(traffic.log.filter((e) => e.at >= upAt).slice(-6))}`,
        );
      return ok.at + ok.ms;
    }, 30_000);
    await eventually(async () => expect(acceptedSince(upAt)).toBeGreaterThanOrEqual(12), 30_000, 100);
    await traffic.stop();

    const log = traffic.log;
    const statuses = [...new Set(log.map((e) => (e.status < 300 ? `${e.status}` : `${e.status} ${e.title}`)))].sort();
    process.stderr.write(
      `[faults/postgres] ${log.length} requests; answers ${JSON.stringify(statuses)}; stop took ${stoppedAt - downAt} ms, start ${upAt - startingAt} ms; first write accepted ${recoveredAt - upAt} ms after the server was up\n`,
    );

    const whileDown = log.filter((e) => e.at >= stoppedAt && e.at + e.ms <= startingAt);
    const slowest = Math.max(...whileDown.map((e) => e.ms));
    process.stderr.write(
      `[faults/postgres] while down: ${whileDown.length} requests, all answered within ${slowest} ms\n`,
    );
    // Nothing but successes and 503 database_unavailable, always as problem+json with Retry-After.
    for (const e of log) {
      if (e.status < 300) continue;
      expect({ status: e.status, title: e.title }).toEqual({ status: 503, title: 'database_unavailable' });
      expect(e.contentType).toMatch(/^application\/problem\+json/);
      expect(Number(e.retryAfter)).toBeGreaterThan(0);
    }
    // While it was down, every request was refused, and quickly.
    expect(whileDown.length).toBeGreaterThan(20);
    expect(whileDown.every((e) => e.status === 503)).toBe(true);
    expect(slowest).toBeLessThan(2_000);
    // Recovered within a few seconds of the server accepting connections.
    expect(recoveredAt - upAt).toBeLessThan(15_000);

    // Nothing accepted is lost: every incident answered 201 is there, and its event was delivered.
    const accepted = log.filter((e) => e.status === 201).map((e) => e.id!);
    expect(accepted.length).toBeGreaterThanOrEqual(24);
    for (const id of accepted) expect((await call('GET', `/v1/incidents/${id}`)).status).toBe(200);
    await eventually(
      async () => {
        const delivered = new Set(rx.received.filter((r) => r.status === 200).map((r) => JSON.parse(r.body).data.id));
        expect(accepted.filter((id) => !delivered.has(id))).toEqual([]);
      },
      60_000,
      500,
    );

    // The LISTEN connections are back: caches hear about changes again…
    await eventually(async () => expect(api.changeFeed.live).toBe(true), 15_000);
    await api.updateOrg(org.id, { rateLimitPerMinute: 5_000 });
    expect((await call('GET', '/v1/incidents?limit=1')).headers.get('x-ratelimit-limit')).toBe('5000');
    // …and the worker reaches the database again: a maintenance starts on time.
    const start = new Date(Date.now() + 2_000).toISOString();
    const m = await call('POST', '/v1/maintenances', {
      title: 'After the restart',
      scheduled_start_at: start,
      scheduled_end_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(m.status).toBe(201);
    await eventually(
      async () => expect((await call('GET', `/v1/maintenances/${m.body.id}`)).body.state).toBe('in_progress'),
      20_000,
    );
  }, 180_000);

  it('answers 503 database_unavailable within 5 s when the database stalls (a lock on the rate-limit counters), and recovers when it clears', async () => {
    const fresh = await api.createOrg('enterprise', 'Stalled');
    const lock = new PgClient({ connectionString: pg.url });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table rate_limit_counters in access exclusive mode');
      const started = Date.now();
      const stalled = await api.request('GET', '/v1/incidents?limit=1', { key: fresh.key });
      const waited = Date.now() - started;
      process.stderr.write(`[faults/postgres] stalled lease answered ${stalled.status} after ${waited} ms\n`);
      expect(stalled.status).toBe(503);
      expect(stalled.body).toMatchObject({ title: 'database_unavailable', retry_after: 5 });
      expect(waited).toBeGreaterThanOrEqual(4_900);
      expect(waited).toBeLessThan(8_000);
    } finally {
      await lock.query('rollback');
      await lock.end();
    }
    expect((await api.request('GET', '/v1/incidents?limit=1', { key: fresh.key })).status).toBe(200);
  }, 60_000);
});
