import { createOrm } from '../../src/db/orm';
import { createOrganization, updateOrganization } from '../../src/usecases/organizations/organizations';
import { eventually } from '../support/eventually';
import { type FaultStack, startFaultStack } from '../support/fault-stack';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * The faults again, against a deployment laid out as in production and driven over HTTP only:
 * two API processes and a worker process (the production entry points), PostgreSQL and
 * Temporal. Started here by default; pointed at a running stack (docker compose) with
 * VIGIL_FAULT_API_URL and the variables in test/support/fault-stack.ts.
 */

let stack: FaultStack;
let key: string;
let rx: Receiver;

beforeAll(async () => {
  stack = await startFaultStack();
  const orm = await createOrm({ url: stack.databaseUrl, poolMax: 2 });
  try {
    const now = new Date();
    const made = await createOrganization(
      orm.em.fork(),
      { name: `Faults ${now.toISOString()}`, plan: 'enterprise' },
      now,
    );
    await updateOrganization(orm.em.fork(), made.organization.id, { rateLimitPerMinute: 100_000 }, now);
    key = made.key.plaintext;
  } finally {
    await orm.close();
  }
  rx = await startReceiver(undefined, 0, stack.listenHost);
  const hook = await call(stack.apiUrl, 'POST', '/v1/webhooks', {
    url: rx.url.replace('127.0.0.1', stack.hostFromStack),
    event_types: ['incident.created', 'maintenance.started'],
  });
  expect(hook.status).toBe(201);
}, 300_000);
afterAll(async () => {
  await rx?.close();
  await stack?.close();
});

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers, ms: Date.now() - started };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const deliveredIds = (type: string) =>
  new Set(
    rx.received
      .filter((r) => r.status === 200)
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.type === type)
      .map((e) => e.data.id as string),
  );

describe('a production-like stack (API ×2 and worker in processes of their own)', () => {
  it('PostgreSQL restarted under load on both API instances: 503 while down, recovered, nothing accepted lost', async () => {
    const log: { at: number; ms: number; status: number; title?: string; id?: string }[] = [];
    let running = true;
    let n = 0;
    const client = async (base: string) => {
      while (running) {
        const at = Date.now();
        const r = await call(base, 'POST', '/v1/incidents', { title: `Stack load ${++n}`, severity: 'minor' }).catch(
          () => null,
        );
        if (r)
          log.push({
            at,
            ms: r.ms,
            status: r.status,
            title: r.body?.title,
            id: r.status === 201 ? r.body.id : undefined,
          });
        await sleep(100);
      }
    };
    const clients = Promise.all(stack.apiUrls.flatMap((u) => [client(u), client(u)]));
    // Enough writes accepted before the restart (and after it, below) for "nothing lost" to mean
    // something, counted rather than timed: a loaded machine answers fewer in a fixed sleep.
    const acceptedSince = (t: number) => log.filter((e) => e.status === 201 && e.at >= t).length;
    await eventually(async () => expect(acceptedSince(0)).toBeGreaterThanOrEqual(12), 30_000, 100);
    await stack.stopPostgres();
    const downAt = Date.now();
    // The outage itself: 5 s with PostgreSQL down.
    await sleep(5_000);
    const startingAt = Date.now();
    await stack.startPostgres();
    const upAt = Date.now();
    await eventually(async () => expect(log.some((e) => e.status === 201 && e.at >= upAt)).toBe(true), 30_000, 250);
    await eventually(async () => expect(acceptedSince(upAt)).toBeGreaterThanOrEqual(12), 30_000, 100);
    running = false;
    await clients;

    const whileDown = log.filter((e) => e.at >= downAt && e.at + e.ms <= startingAt);
    const firstAfter = log
      .filter((e) => e.status === 201 && e.at >= upAt)
      .map((e) => e.at + e.ms - upAt)
      .sort((a, b) => a - b)[0];
    process.stderr.write(
      `[faults/stack] postgres: ${log.length} writes, ${whileDown.length} while down (slowest ${Math.max(...whileDown.map((e) => e.ms))} ms); first accepted ${firstAfter} ms after it was up\n`,
    );
    for (const e of log)
      if (e.status !== 201)
        expect({ status: e.status, title: e.title }).toEqual({ status: 503, title: 'database_unavailable' });
    expect(whileDown.length).toBeGreaterThan(10);
    expect(whileDown.every((e) => e.status === 503 && e.ms < 2_000)).toBe(true);

    const accepted = log.filter((e) => e.id).map((e) => e.id!);
    for (const id of accepted.slice(0, 50))
      expect((await call(stack.apiUrls[1]!, 'GET', `/v1/incidents/${id}`)).status).toBe(200);
    await eventually(
      async () => expect(accepted.filter((id) => !deliveredIds('incident.created').has(id))).toEqual([]),
      90_000,
      1_000,
    );
  }, 240_000);

  it('Temporal killed and restarted: a maintenance due meanwhile starts, events raised meanwhile are delivered', async () => {
    const due = new Date(Date.now() + 4_000);
    const m = await call(stack.apiUrl, 'POST', '/v1/maintenances', {
      title: 'Due during the outage',
      scheduled_start_at: due.toISOString(),
      scheduled_end_at: new Date(due.getTime() + 300_000).toISOString(),
    });
    expect(m.status).toBe(201);
    await stack.killTemporal();
    const incident = await call(stack.apiUrls[1]!, 'POST', '/v1/incidents', {
      title: 'Raised during the outage',
      severity: 'minor',
    });
    expect(incident.status).toBe(201);
    // The outage itself: 6 s without Temporal, past the maintenance's start.
    await sleep(6_000);
    await stack.startTemporal();
    const upAt = Date.now();
    const startedAt = await eventually(
      async () => {
        const got = (await call(stack.apiUrl, 'GET', `/v1/maintenances/${m.body.id}`)).body;
        expect(got.state).toBe('in_progress');
        return Date.parse(got.actual_start_at);
      },
      60_000,
      500,
    );
    await eventually(
      async () => {
        expect(deliveredIds('incident.created').has(incident.body.id)).toBe(true);
        expect(deliveredIds('maintenance.started').has(m.body.id)).toBe(true);
      },
      90_000,
      1_000,
    );
    process.stderr.write(
      `[faults/stack] temporal: maintenance started ${startedAt - due.getTime()} ms after it was due, ${startedAt - upAt} ms after the server was back\n`,
    );
    expect(startedAt - upAt).toBeLessThan(15_000);
  }, 240_000);

  it('an API instance killed: the other keeps answering, and the restarted one serves again', async () => {
    await stack.killApi(0);
    expect((await call(stack.apiUrls[1]!, 'GET', '/v1/incidents?limit=1')).status).toBe(200);
    if (stack.apiUrl !== stack.apiUrls[0])
      expect((await call(stack.apiUrl, 'GET', '/v1/incidents?limit=1')).status).toBe(200);
    await stack.startApi(0);
    expect((await call(stack.apiUrls[0]!, 'GET', '/v1/incidents?limit=1')).status).toBe(200);
  }, 240_000);
});
