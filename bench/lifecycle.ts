import { type ApiClient, apiClient, expectStatus } from './support/api-client';
import { runMain } from './child-server';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Pool } from 'undici';
import { loadConfig } from '../src/config';
import { MaintenanceSchema, WebhookDeliverySchema } from '../src/db/entities';
import { createOrm, migrate, type Orm } from '../src/db/orm';
import type { RetryPolicy } from '../src/domain/webhook-retry';
import { dropDatabase } from '../src/launchers/postgres';
import type { RunningTemporal } from '../src/launchers/temporal-dev-server';
import { type TemporalHandle, connectTemporal } from '../src/temporal/connection';
import { maintenanceWorkflowId } from '../src/temporal/maintenance-scheduler';
import type { VigilProcessEnv } from './lifecycle-support';
import { type Stats, stats, procCpu, waitUntilQuiet } from './support/measure';
import { benchOrganization } from './support/seed';
import { benchDatabase, benchTemporal, startVigilProcess, stopChild } from './support/processes';

/**
 * bench/lifecycle: how punctual Vigil's Temporal-driven lifecycle is, end to end, in one run:
 *   (a) maintenance timer lag: MAINTENANCES maintenances created over HTTP, all scheduled to start
 *       at the same whole second ~16 s ahead; lag = actual_start_at − scheduled_start_at.
 *       Target: p99 < 1000 ms.
 *   (b) webhook delivery, to a loopback receiver answering 204, of EVENTS incident.created events
 *       (incidents created over HTTP, CONCURRENCY in flight at most), twice:
 *       (b1) capacity: the events sent as fast as the API takes them; deliveries per second =
 *            delivered / (last arrival − first created_at).
 *       (b2) first-attempt latency (arrival at the receiver − the incident's created_at) at a
 *            steady rate: LOAD × the capacity just measured (EVENT_RATE sets it instead).
 *            Target: p99 < 500 ms. Baseline: the same number of equally sized POSTs sent
 *            straight to the receiver with undici at the same pacing.
 *       A latency measured at or above capacity is the backlog's length, not the path's; the
 *       rate is taken from the same run because this machine's capacity varies from day to day.
 * Each part starts once the previous one's work is done (the Vigil and Temporal processes idle),
 * so (b) does not measure (a)'s maintenances finishing their start.
 * The Vigil side (API + worker + outbox relay, as `vigil start` runs them) is a child process
 * (bench/lifecycle-support.ts) on a fresh database and its own task queue; this process drives
 * the load and keeps the clocks.
 *
 *   npm run build --silent && node dist/bench/lifecycle.js
 *   (MAINTENANCES=200 EVENTS=2000 LOAD=0.5 CONCURRENCY=10; EVENT_RATE=n fixes (b2)'s rate;
 *    TEMPORAL_ADDRESS=host:port to use a running Temporal, otherwise the cached dev server binary
 *    is started on a free port; DUMP=/tmp/x writes each delivery's timings to /tmp/x-<path>.json;
 *    VIGIL_NODE_ARGS adds node flags to the Vigil process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const MAINTENANCES = Number(process.env.MAINTENANCES ?? 200);
const EVENTS = Number(process.env.EVENTS ?? 2000);
/** (b2)'s events per second; unset or 0: LOAD × (b1)'s deliveries per second. */
const EVENT_RATE = Number(process.env.EVENT_RATE ?? 0);
/** (b2)'s share of the capacity (b1) measured. */
const LOAD = Number(process.env.LOAD ?? 0.5);
const DUMP = process.env.DUMP;
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
/** Short, so a failing receiver could never keep the run waiting long. */
const WEBHOOK_POLICY: RetryPolicy = { initialMs: 200, factor: 2, maxMs: 1_000, giveUpAfterMs: 10_000 };
const WEBHOOK_TIMEOUT_MS = 5_000;
const LAG_TARGET_MS = 1000;
const DELIVERY_TARGET_MS = 500;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (line: string) => console.log(line);

// ---------------------------------------------------------------------------------------------
// Figures

const fmt = (s: Stats) => `p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`;

// ---------------------------------------------------------------------------------------------
// Load generation

/**
 * Calls fn(0..n-1), the i-th no earlier than start + i/rate s (rate <= 0: no pacing), never more
 * than `concurrency` at once. Answers when the first call started and how far behind schedule
 * a call ever started (the generator, or the server, could not keep up).
 */
async function paced(
  n: number,
  rate: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<{ startedAt: number; maxBehindMs: number }> {
  const inflight = new Set<Promise<void>>();
  const startedAt = Date.now();
  let maxBehindMs = 0;
  let failure: { err: unknown } | null = null;
  for (let i = 0; i < n && !failure; i++) {
    const due = rate > 0 ? startedAt + (i * 1000) / rate : startedAt;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    while (inflight.size >= concurrency) await Promise.race(inflight);
    if (rate > 0) maxBehindMs = Math.max(maxBehindMs, Date.now() - due);
    const p: Promise<void> = fn(i)
      .catch((err: unknown) => {
        failure ??= { err };
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await Promise.all(inflight);
  if (failure) throw (failure as { err: unknown }).err;
  return { startedAt, maxBehindMs };
}

// ---------------------------------------------------------------------------------------------
// Receiver

interface Arrival {
  id: string;
  at: number;
  body: string;
}

interface Receiver {
  /** http://127.0.0.1:<port> */
  base: string;
  /** First arrival of each webhook-id, per path. */
  first(p: string): Map<string, Arrival>;
  /** Requests per path, counting repeats of a webhook-id. */
  total(p: string): number;
  close(): Promise<void>;
}

/** A loopback receiver answering 204, noting when each webhook-id first arrived on each path. */
async function startReceiver(): Promise<Receiver> {
  const firsts = new Map<string, Map<string, Arrival>>();
  const totals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const p = req.url ?? '/';
      const id = String(req.headers['webhook-id'] ?? '');
      let byId = firsts.get(p);
      if (!byId) firsts.set(p, (byId = new Map()));
      if (!byId.has(id)) byId.set(id, { id, at, body: Buffer.concat(chunks).toString('utf8') });
      totals.set(p, (totals.get(p) ?? 0) + 1);
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    first: (p) => firsts.get(p) ?? new Map(),
    total: (p) => totals.get(p) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The Vigil process

const startVigil = (env: VigilProcessEnv) => startVigilProcess('lifecycle-support.js', env);

async function until(what: string, deadline: number, check: () => Promise<boolean>, intervalMs = 100): Promise<void> {
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

// ---------------------------------------------------------------------------------------------
// (a) Maintenance timer lag

interface LagResult {
  lag: Stats;
  startAt: number;
  createsMs: number;
  createsFinishedBeforeStartMs: number;
  early: number;
}

async function maintenanceLag(api: ApiClient, orm: Orm, orgId: string, ids: string[]): Promise<LagResult> {
  const startAt = Math.ceil((Date.now() + 16_000) / 1000) * 1000;
  const endAt = startAt + 2 * 3_600_000;
  say(
    `(a) creating ${MAINTENANCES} maintenances, all starting at ${new Date(startAt).toISOString()} (${((startAt - Date.now()) / 1000).toFixed(1)} s from now)…`,
  );
  const t0 = Date.now();
  await paced(MAINTENANCES, 0, CONCURRENCY, async (i) => {
    const res = await api.call<{ id: string }>('POST', '/v1/maintenances', {
      title: `Bench maintenance ${i}`,
      scheduled_start_at: new Date(startAt).toISOString(),
      scheduled_end_at: new Date(endAt).toISOString(),
    });
    expectStatus(res, 201, 'POST /v1/maintenances');
    ids.push(res.body.id);
  });
  const createdAt = Date.now();
  const createsMs = createdAt - t0;
  say(`    created in ${createsMs} ms; ${startAt - createdAt} ms to spare before the start`);
  if (createdAt > startAt - 1000)
    say('    WARNING: the creates ended less than 1 s before the start; the lag below includes creation backlog');

  let started = 0;
  await until('every maintenance to be in progress', startAt + 120_000, async () => {
    started = await orm.em.fork().count(MaintenanceSchema, { organization: orgId, actualStartAt: { $ne: null } });
    return started >= MAINTENANCES;
  });
  const rows = await orm.em
    .fork()
    .find(MaintenanceSchema, { organization: orgId }, { fields: ['scheduledStartAt', 'actualStartAt'] });
  const lags = rows.map((m) => m.actualStartAt!.getTime() - m.scheduledStartAt.getTime());
  const lag = stats(lags);
  say(`    all ${rows.length} in progress; lag ${fmt(lag)} (target p99 < ${LAG_TARGET_MS} ms)`);
  return {
    lag,
    startAt,
    createsMs,
    createsFinishedBeforeStartMs: startAt - createdAt,
    early: lags.filter((l) => l < 0).length,
  };
}

// ---------------------------------------------------------------------------------------------
// (b) Webhook delivery

interface DeliveryResult {
  firstAttempt: Stats;
  delivered: number;
  repeats: number;
  vigilRate: number;
  offeredRate: number;
  createLatency: Stats;
  maxBehindMs: number;
  stages: { relay: Stats; toAttempt: Stats; http: Stats } | null;
  /** The second of the run (counted from the first event) whose slowest first attempt was slowest. */
  worstSecond: { second: number; maxMs: number } | null;
  /** One delivery's body, for the baseline's requests. */
  template: string;
}

interface StageRow {
  resource_id: string;
  event_ms: number;
  fanned_ms: number;
  attempted_ms: number | null;
}

/**
 * One subscription (incident.created) to `rx` at `hookPath`, then EVENTS incidents created over HTTP
 * at `rate` per second (0: as fast as CONCURRENCY allows). Deletes the subscription at the end,
 * so a later run's events do not reach it.
 */
async function webhookDelivery(
  api: ApiClient,
  orm: Orm,
  rx: Receiver,
  hookPath: string,
  rate: number,
): Promise<DeliveryResult> {
  const hook = await api.call<{ id: string }>('POST', '/v1/webhooks', {
    url: `${rx.base}${hookPath}`,
    event_types: ['incident.created'],
  });
  expectStatus(hook, 201, 'POST /v1/webhooks');
  say(
    `    subscribed ${rx.base}${hookPath} to incident.created; creating ${EVENTS} incidents at ${rate > 0 ? `${rate}/s` : 'full speed'} (${CONCURRENCY} in flight at most)…`,
  );

  const createdAt = new Map<string, number>();
  const createMs: number[] = [];
  const run = await paced(EVENTS, rate, CONCURRENCY, async (i) => {
    const sent = performance.now();
    const res = await api.call<{ id: string; created_at: string }>('POST', '/v1/incidents', {
      title: `Bench incident ${i}`,
    });
    createMs.push(performance.now() - sent);
    expectStatus(res, 201, 'POST /v1/incidents');
    createdAt.set(res.body.id, Date.parse(res.body.created_at));
  });
  const lastCreate = Date.now();
  const offeredRate = EVENTS / ((lastCreate - run.startedAt) / 1000);
  say(
    `    created in ${((lastCreate - run.startedAt) / 1000).toFixed(1)} s (${offeredRate.toFixed(0)}/s; create latency ${fmt(stats(createMs))}); waiting for deliveries…`,
  );

  // Until all arrived, or nothing new arrived for 30 s.
  let seen = 0;
  let progressAt = Date.now();
  await until('webhook deliveries', lastCreate + 300_000, async () => {
    const n = rx.first(hookPath).size;
    if (n !== seen) [seen, progressAt] = [n, Date.now()];
    return n >= EVENTS || Date.now() - progressAt > 30_000;
  });

  const firstCreate = Math.min(...createdAt.values());
  const latencies: number[] = [];
  const arrivalByIncident = new Map<string, number>();
  const slowestBySecond = new Map<number, number>();
  let lastArrival = 0;
  let template = '';
  for (const a of rx.first(hookPath).values()) {
    template ||= a.body;
    const incidentId = (JSON.parse(a.body) as { data: { id: string } }).data.id;
    const created = createdAt.get(incidentId);
    if (created === undefined) continue;
    const latency = a.at - created;
    latencies.push(latency);
    const second = Math.floor((created - firstCreate) / 1000);
    slowestBySecond.set(second, Math.max(slowestBySecond.get(second) ?? 0, latency));
    arrivalByIncident.set(incidentId, a.at);
    lastArrival = Math.max(lastArrival, a.at);
  }
  const delivered = latencies.length;
  const vigilRate = delivered / ((lastArrival - firstCreate) / 1000);
  const firstAttempt = stats(latencies);
  say(
    `    delivered ${delivered}/${EVENTS}; first-attempt latency ${fmt(firstAttempt)}; ${vigilRate.toFixed(1)} deliveries/s`,
  );
  let worstSecond: DeliveryResult['worstSecond'] = null;
  for (const [second, maxMs] of slowestBySecond)
    if (!worstSecond || maxMs > worstSecond.maxMs) worstSecond = { second, maxMs };

  // Let every delivery record its attempt, then see where the time went.
  await until('the deliveries to be recorded', Date.now() + 60_000, async () => {
    const open = await orm.em.fork().count(WebhookDeliverySchema, { subscription: hook.body.id, state: 'pending' });
    return open === 0;
  }).catch((err: Error) => say(`    WARNING: ${err.message}`));
  expectStatus(await api.call('DELETE', `/v1/webhooks/${hook.body.id}`), 200, 'DELETE /v1/webhooks/{id}');
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<StageRow[]>(
      `select e.resource_id,
            (extract(epoch from e.created_at) * 1000)::float8 as event_ms,
            (extract(epoch from d.created_at) * 1000)::float8 as fanned_ms,
            (extract(epoch from a.attempted_at) * 1000)::float8 as attempted_ms
       from webhook_deliveries d
       join outbox_events e on e.id = d.event_id
       left join webhook_attempts a on a.delivery_id = d.id and a.number = 1
      where d.subscription_id = ?`,
      [hook.body.id],
    );
  const relay: number[] = [];
  const toAttempt: number[] = [];
  const httpMs: number[] = [];
  for (const r of rows) {
    const arrived = arrivalByIncident.get(r.resource_id);
    if (r.attempted_ms === null || arrived === undefined) continue;
    relay.push(r.fanned_ms - r.event_ms);
    toAttempt.push(r.attempted_ms - r.fanned_ms);
    httpMs.push(arrived - r.attempted_ms);
  }
  if (DUMP)
    writeFileSync(
      `${DUMP}${hookPath.replaceAll('/', '-')}.json`,
      JSON.stringify(rows.map((r) => ({ ...r, arrived_ms: arrivalByIncident.get(r.resource_id) ?? null }))),
    );
  return {
    firstAttempt,
    delivered,
    repeats: rx.total(hookPath) - rx.first(hookPath).size,
    vigilRate,
    offeredRate,
    createLatency: stats(createMs),
    maxBehindMs: run.maxBehindMs,
    stages: relay.length ? { relay: stats(relay), toAttempt: stats(toAttempt), http: stats(httpMs) } : null,
    worstSecond,
    template,
  };
}

/** Baseline: equally sized POSTs straight to the receiver with undici, same pacing and concurrency. */
async function rawBaseline(
  rx: Receiver,
  rate: number,
  template: string,
): Promise<{ latency: Stats; rate: number; delivered: number }> {
  say(`    baseline: ${EVENTS} direct POSTs to ${rx.base}/raw with undici at the same pacing…`);
  const body =
    template ||
    JSON.stringify({ id: randomUUID(), type: 'incident.created', created_at: new Date().toISOString(), data: {} });
  const pool = new Pool(rx.base, { connections: CONCURRENCY });
  const sentAt = new Map<string, number>();
  try {
    await paced(EVENTS, rate, CONCURRENCY, async (i) => {
      const id = `raw_${i}`;
      sentAt.set(id, Date.now());
      const res = await pool.request({
        method: 'POST',
        path: '/raw',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,bench',
        },
        body,
      });
      await res.body.dump();
      if (res.statusCode !== 204) throw new Error(`raw POST: ${res.statusCode}`);
    });
  } finally {
    await pool.close();
  }
  const rawLat: number[] = [];
  let rawLast = 0;
  for (const a of rx.first('/raw').values()) {
    rawLat.push(a.at - sentAt.get(a.id)!);
    rawLast = Math.max(rawLast, a.at);
  }
  const rawRate = rawLat.length / ((rawLast - Math.min(...sentAt.values())) / 1000);
  say(
    `    baseline delivered ${rawLat.length}/${EVENTS}; latency ${fmt(stats(rawLat))}; ${rawRate.toFixed(1)} POSTs/s`,
  );
  return { latency: stats(rawLat), rate: rawRate, delivered: rawLat.length };
}

/** CPU seconds each process has used so far (0 where /proc cannot tell). */
const cpuOf = (pids: number[]) => pids.map((pid) => procCpu(pid) ?? 0);

/** Lets the previous part's work finish (see waitUntilQuiet) before the next part is measured. */
async function settle(pids: number[], after: string): Promise<void> {
  const { waitedMs, quiet } = await waitUntilQuiet(pids);
  say(`    ${quiet ? 'quiet' : 'still busy (measuring anyway)'} ${(waitedMs / 1000).toFixed(1)} s after ${after}`);
}

// ---------------------------------------------------------------------------------------------

/** Ends whatever the run left running on its task queue (maintenances wait for an end hours away). */
async function terminateLeftovers(temporal: TemporalHandle, ids: string[]): Promise<number> {
  const terminate = async (workflowId: string): Promise<number> => {
    try {
      await temporal.client.workflow.getHandle(workflowId).terminate('bench/lifecycle cleanup');
      return 1;
    } catch {
      return 0; // finished already
    }
  };
  let n = 0;
  for (let i = 0; i < ids.length; i += 20)
    n += (await Promise.all(ids.slice(i, i + 20).map(terminate))).reduce((a, b) => a + b, 0);
  try {
    const running: string[] = [];
    for await (const wf of temporal.client.workflow.list({
      query: `TaskQueue = '${temporal.taskQueue}' AND ExecutionStatus = 'Running'`,
    }))
      running.push(wf.workflowId);
    for (let i = 0; i < running.length; i += 20)
      n += (await Promise.all(running.slice(i, i + 20).map(terminate))).reduce((a, b) => a + b, 0);
  } catch (err) {
    say(`    (could not list leftover workflows: ${(err as Error).message})`);
  }
  return n;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 4 });
  let devServer: RunningTemporal | null = null;
  let temporal: TemporalHandle | null = null;
  let vigil: ChildProcess | null = null;
  let api: ApiClient | null = null;
  let rx: Receiver | null = null;
  const maintenanceIds: string[] = [];
  try {
    await migrate(orm);
    const temporalServer = await benchTemporal(config, say);
    devServer = temporalServer.devServer;
    const address = temporalServer.address;
    const taskQueue = `bench-lifecycle-${randomUUID()}`;
    temporal = await connectTemporal({ address, namespace: 'default', taskQueue });

    const now = new Date();
    const { organization, key } = await benchOrganization(orm, 'Bench lifecycle', now);

    rx = await startReceiver();
    const started = await startVigil({
      BENCH_DATABASE_URL: db.url,
      BENCH_TEMPORAL_ADDRESS: address,
      BENCH_TASK_QUEUE: taskQueue,
      BENCH_MASTER_KEY: randomBytes(32).toString('hex'),
      BENCH_WEBHOOK_POLICY: JSON.stringify(WEBHOOK_POLICY),
      BENCH_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    });
    vigil = started.child;
    api = apiClient(`http://127.0.0.1:${started.port}`, key.plaintext, CONCURRENCY);
    say(
      `Vigil (API + worker + outbox relay) listening on 127.0.0.1:${started.port}; Temporal ${address}, task queue ${taskQueue}; database ${db.url}`,
    );

    const busy = [started.child.pid, devServer?.pid].filter((pid): pid is number => pid !== undefined);

    const a = await maintenanceLag(api, orm, organization.id, maintenanceIds);
    await settle(busy, 'the maintenances started');
    say('(b1) webhook capacity');
    const cpuBefore = cpuOf(busy);
    const cap = await webhookDelivery(api, orm, rx, '/capacity', 0);
    const capCpu = cpuOf(busy).map((s, i) => s - cpuBefore[i]!);
    await settle(busy, 'the capacity run');
    const rate = EVENT_RATE > 0 ? EVENT_RATE : Math.max(1, Math.round(cap.vigilRate * LOAD));
    say(`(b2) first-attempt latency at ${rate}/s (${EVENT_RATE > 0 ? 'EVENT_RATE' : `${LOAD} × the capacity`})`);
    const b = await webhookDelivery(api, orm, rx, '/hooks', rate);
    const raw = await rawBaseline(rx, rate, b.template);

    const lagMet = a.lag.p99 < LAG_TARGET_MS;
    const deliveryMet = b.firstAttempt.p99 < DELIVERY_TARGET_MS && b.delivered === EVENTS && cap.delivered === EVENTS;
    const stageLines = (r: DeliveryResult) =>
      r.stages
        ? [
            '    where the time goes (per delivery):',
            `      created_at → fanned out by the relay:        ${fmt(r.stages.relay)}`,
            `      fanned out → first attempt starts (Temporal): ${fmt(r.stages.toAttempt)}`,
            `      attempt starts → arrival (sign + HTTP):      ${fmt(r.stages.http)}`,
          ]
        : [];
    const lines = [
      '',
      '================ bench/lifecycle summary ================',
      `(a) maintenance timer lag, ${MAINTENANCES} maintenances starting at the same second`,
      `    actual_start_at − scheduled_start_at: ${fmt(a.lag)}${a.early ? ` (${a.early} started early!)` : ''}`,
      `    target p99 < ${LAG_TARGET_MS} ms: ${lagMet ? 'MET' : 'MISSED'}   (creates took ${a.createsMs} ms, ended ${a.createsFinishedBeforeStartMs} ms before the start)`,
      `(b1) webhook capacity: ${EVENTS} incident.created events as fast as the API took them (${cap.offeredRate.toFixed(1)}/s, ${CONCURRENCY} in flight)`,
      `    delivered: ${cap.delivered}/${EVENTS}${cap.repeats ? ` (+${cap.repeats} repeated attempts)` : ''}`,
      `    Vigil deliveries/s (delivered / (last arrival − first created_at)): ${cap.vigilRate.toFixed(1)}`,
      `    CPU time per delivery over this part: Vigil ${((capCpu[0]! * 1000) / EVENTS).toFixed(1)} ms${devServer?.pid ? `, Temporal dev server ${((capCpu[1]! * 1000) / EVENTS).toFixed(1)} ms` : ''} (${os.cpus().length} cores)`,
      `    first-attempt latency with the backlog this builds (not the target's measure): ${fmt(cap.firstAttempt)}`,
      ...stageLines(cap),
      `(b2) webhook first-attempt latency: ${EVENTS} events at ${rate}/s (${EVENT_RATE > 0 ? 'EVENT_RATE' : `LOAD ${LOAD} × the capacity above`}), ${CONCURRENCY} in flight (offered ${b.offeredRate.toFixed(1)}/s, at most ${b.maxBehindMs.toFixed(0)} ms behind schedule)`,
      `    delivered: ${b.delivered}/${EVENTS}${b.repeats ? ` (+${b.repeats} repeated attempts)` : ''}, ${b.vigilRate.toFixed(1)}/s`,
      `    first-attempt latency (arrival − created_at): ${fmt(b.firstAttempt)}`,
      `    target p99 < ${DELIVERY_TARGET_MS} ms with all delivered: ${deliveryMet ? 'MET' : 'MISSED'}`,
      ...(b.worstSecond
        ? [
            `    slowest second of the run: second ${b.worstSecond.second}, slowest first attempt ${b.worstSecond.maxMs.toFixed(0)} ms`,
          ]
        : []),
      `    POST /v1/incidents latency: ${fmt(b.createLatency)}`,
      ...stageLines(b),
      `    raw undici POSTs at the same pacing: latency ${fmt(raw.latency)}, ${raw.rate.toFixed(1)}/s, ${raw.delivered}/${EVENTS}`,
      `    ratio of deliveries/s, Vigil / raw: ${((b.vigilRate / raw.rate) * 100).toFixed(1)}%`,
      '',
      `reproduce: npm run build --silent && MAINTENANCES=${MAINTENANCES} EVENTS=${EVENTS} ${EVENT_RATE > 0 ? `EVENT_RATE=${EVENT_RATE}` : `LOAD=${LOAD}`} CONCURRENCY=${CONCURRENCY}${config.TEMPORAL_ADDRESS ? ` TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}` : ''} node dist/bench/lifecycle.js`,
      `(${os.cpus().length} CPUs, Node ${process.version}, Temporal ${devServer ? `dev server started by the bench at ${address}` : address})`,
      lagMet && deliveryMet ? 'TARGETS MET' : 'TARGETS MISSED',
      '==========================================================',
    ];
    say(lines.join('\n'));
  } finally {
    if (temporal) {
      const n = await terminateLeftovers(temporal, maintenanceIds.map(maintenanceWorkflowId)).catch(() => 0);
      if (n) say(`cleanup: terminated ${n} workflows left running`);
    }
    if (vigil) await stopChild(vigil);
    await api?.close();
    await rx?.close();
    await temporal?.close();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
    await devServer?.stop();
  }
}

runMain(main);
