import { type ApiClient, apiClient, expectStatus } from './support/api-client';
import { runMain } from './child-server';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../src/config';
import { createOrm, migrate, type Orm } from '../src/db/orm';
import type { RetryPolicy } from '../src/domain/webhook-retry';
import { dropDatabase } from '../src/launchers/postgres';
import type { RunningTemporal } from '../src/launchers/temporal-dev-server';
import { type TemporalHandle, connectTemporal } from '../src/temporal/connection';
import type { AlertsProcessEnv } from './alerts-support';
import { benchOrganization } from './support/seed';
import { benchDatabase, benchTemporal, startVigilProcess, stopChild } from './support/processes';
import { postgresCpu, procCpu, waitUntilQuiet, type Spread, spread } from './support/measure';
import { forEach } from './support/load';

/**
 * bench/alerts: a region outage through Vigil's alerting, end to end, in one run.
 * SERVICES services × METRICS_PER_SERVICE manual metrics, one `service_status` rule per service
 * whose policy's level 1 targets one `webhook` channel (a loopback receiver, /alerts), level 2 an
 * hour away (never reached). A webhook subscription to `metric.status_changed` (the same
 * receiver, /hooks) is the baseline: the existing path, carrying the very same flips.
 *   (A) webhooks only, before any rule exists: every metric flips to degraded; the CPU these
 *       N flips cost with webhooks alone.
 *   (B) the outage: every metric flips to unhealthy as fast as the API takes them (CONCURRENCY in
 *       flight, the services' metrics interleaved, so every service's first flip comes first).
 *       Expect SERVICES alerts (not one per metric), each told once. Per alert: first
 *       notification arrival − the service's first flip request; target p99 < 5 s. Baseline:
 *       each flip's webhook arrival − its request; the figure is alert p99 / webhook p99.
 *       CPU per process over (B) (until Vigil and Temporal are idle again), and per alert: all of
 *       it, and (B) − (A) (what alerting added to the same flips).
 *   (C) recovery: every metric flips back to healthy; each alert resolves once and its
 *       resolution is told once.
 * Exits non-zero when a count is wrong (alerts, notifications, duplicates, escalations, webhooks).
 *
 *   npm run bench:alerts
 *   (SERVICES=200 METRICS_PER_SERVICE=5 CONCURRENCY=16; TEMPORAL_ADDRESS=host:port to use a
 *    running Temporal, otherwise the cached dev server binary is started on a free port;
 *    VIGIL_NODE_ARGS adds node flags to the Vigil process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const SERVICES = Number(process.env.SERVICES ?? 200);
const METRICS_PER_SERVICE = Number(process.env.METRICS_PER_SERVICE ?? 5);
const FLIPS = SERVICES * METRICS_PER_SERVICE;
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
/** ALERT_MINUTE_MS as in production: level 1's hour-long delay never ends during the run. */
const ALERT_MINUTE_MS = 60_000;
const LEVEL_1_DELAY_MINUTES = 60;
const POOL_MAX = 10;
const WEBHOOK_POLICY: RetryPolicy = { initialMs: 200, factor: 2, maxMs: 1_000, giveUpAfterMs: 10_000 };
const WEBHOOK_TIMEOUT_MS = 5_000;
const TARGET_P99_MS = 5_000;

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Figures

const ms = (v: number) => `${v.toFixed(0)} ms`;
const fmt = (p: Spread) => `p50 ${ms(p.p50)}, p95 ${ms(p.p95)}, p99 ${ms(p.p99)}, max ${ms(p.max)}`;

// ---------------------------------------------------------------------------------------------
// Receiver: /alerts (the webhook channel) and /hooks (the metric.status_changed subscription)

interface Arrival {
  path: string;
  at: number;
  webhookId: string;
  body: { type?: string; data?: Record<string, unknown> } | null;
}

interface Receiver {
  base: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** Answers 200 'ok' at once; notes when each request arrived. */
async function startReceiver(): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      let body: Arrival['body'] = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // counted, but matches nothing
      }
      arrivals.push({ path: req.url ?? '/', at, webhookId: String(req.headers['webhook-id'] ?? ''), body });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The alert notifications of one action: first arrival per alert, and how many arrived in all. */
function notifications(rx: Receiver, action: string): { first: Map<string, number>; total: number } {
  const first = new Map<string, number>();
  let total = 0;
  for (const a of rx.arrivals) {
    if (a.path !== '/alerts' || a.body?.data?.action !== action) continue;
    total += 1;
    const id = String(a.body.data.alert_id);
    if (!first.has(id)) first.set(id, a.at);
  }
  return { first, total };
}

/** The webhook deliveries of flips to `status`: first arrival per metric, and how many arrived in all. */
function hooks(rx: Receiver, status: string): { first: Map<string, number>; total: number } {
  const first = new Map<string, number>();
  let total = 0;
  for (const a of rx.arrivals) {
    if (a.path !== '/hooks' || a.body?.data?.status !== status) continue;
    total += 1;
    const metricId = String(a.body.data.id);
    if (!first.has(metricId)) first.set(metricId, a.at);
  }
  return { first, total };
}

// ---------------------------------------------------------------------------------------------
// Load and clocks

interface Fleet {
  services: string[];
  /** metrics[i]: service i's metric ids. */
  metrics: string[][];
  serviceOf: Map<string, number>;
}

/** Flips every metric to `status`, the services' metrics interleaved; answers each flip's request instant. */
async function flipAll(
  api: ApiClient,
  fleet: Fleet,
  status: string,
): Promise<{ sentAt: Map<string, number>; spanMs: number; request: Spread }> {
  const order: string[] = [];
  for (let j = 0; j < METRICS_PER_SERVICE; j++) for (const ofService of fleet.metrics) order.push(ofService[j]!);
  const sentAt = new Map<string, number>();
  const took: number[] = [];
  const t0 = Date.now();
  await forEach(order.length, CONCURRENCY, async (i) => {
    const id = order[i]!;
    sentAt.set(id, Date.now());
    const t = performance.now();
    const res = await api.call('POST', `/v1/metrics/${id}/status`, { status });
    took.push(performance.now() - t);
    expectStatus(res, 200, 'POST /v1/metrics/{id}/status');
  });
  return { sentAt, spanMs: Date.now() - t0, request: spread(took) };
}

/** Polls `count` until it reaches `want`, or nothing new came for `stallMs`; answers the last count. */
async function waitFor(
  what: string,
  want: number,
  count: () => number,
  stallMs = 30_000,
  limitMs = 300_000,
): Promise<number> {
  const started = Date.now();
  let seen = -1;
  let progressAt = Date.now();
  for (;;) {
    const n = count();
    if (n >= want) return n;
    if (n !== seen) [seen, progressAt] = [n, Date.now()];
    if (Date.now() - progressAt > stallMs || Date.now() - started > limitMs) {
      say(`    WARNING: ${what}: ${n}/${want} (no progress for ${((Date.now() - progressAt) / 1000).toFixed(0)} s)`);
      return n;
    }
    await sleep(50);
  }
}

interface CpuMark {
  vigil: number;
  temporal: number | null;
  pg: Map<number, number>;
  driver: number;
}

interface CpuUse {
  vigil: number;
  temporal: number | null;
  pg: number;
  driver: number;
  total: number;
}

async function cpuMark(vigilPid: number, temporalPid: number | undefined, monitor: PgClient): Promise<CpuMark> {
  const u = process.cpuUsage();
  return {
    vigil: procCpu(vigilPid) ?? 0,
    temporal: temporalPid === undefined ? null : procCpu(temporalPid),
    pg: await postgresCpu(monitor),
    driver: (u.user + u.system) / 1e6,
  };
}

/** CPU seconds between two marks (PostgreSQL backends started in between count whole; those gone are missed). */
function cpuBetween(a: CpuMark, b: CpuMark): CpuUse {
  let pg = 0;
  for (const [pid, cpu] of b.pg) pg += cpu - (a.pg.get(pid) ?? 0);
  const temporal = a.temporal === null || b.temporal === null ? null : b.temporal - a.temporal;
  const vigil = b.vigil - a.vigil;
  const driver = b.driver - a.driver;
  return { vigil, temporal, pg, driver, total: vigil + (temporal ?? 0) + pg };
}

const cpuLine = (c: CpuUse) =>
  `Vigil ${c.vigil.toFixed(2)} s, Temporal ${c.temporal === null ? 'n/a' : `${c.temporal.toFixed(2)} s`}, PostgreSQL ${c.pg.toFixed(2)} s (server ${c.total.toFixed(2)} s); driver ${c.driver.toFixed(2)} s`;

/** Waits until Vigil and Temporal are idle, so a phase's CPU includes its tail and the next starts clean. */
async function settle(pids: number[], after: string): Promise<void> {
  const { waitedMs, quiet } = await waitUntilQuiet(pids, { timeoutMs: 120_000 });
  say(`    ${quiet ? 'quiet' : 'still busy (going on anyway)'} ${(waitedMs / 1000).toFixed(1)} s after ${after}`);
}

// ---------------------------------------------------------------------------------------------
// Where an alert's time went (per alert, from the service's first flip request)

interface AlertRow {
  id: string;
  rule_id: string;
  workflow_id: string;
  state: string;
  trigger_count: number;
  opened_ms: number;
  first_event_ms: number | null;
  fanned_ms: number | null;
  signalled_ms: number | null;
  attempted_ms: number | null;
  sends: number;
}

async function alertRows(orm: Orm, organizationId: string, outageFrom: Date): Promise<AlertRow[]> {
  return orm.em
    .fork()
    .getConnection()
    .execute<AlertRow[]>(
      `select a.id, a.rule_id, a.workflow_id, a.state, a.trigger_count,
            (extract(epoch from a.created_at) * 1000)::float8 as opened_ms,
            (select (extract(epoch from min(e.created_at)) * 1000)::float8 from outbox_events e join metrics m on m.id = e.resource_id
              where e.type = 'metric.status_changed' and e.payload->>'status' = 'unhealthy' and m.service_id::text = a.subject_id and e.created_at >= ?) as first_event_ms,
            (select (extract(epoch from min(s.created_at)) * 1000)::float8 from alert_signals s where s.rule_id = a.rule_id and s.firing) as fanned_ms,
            (select (extract(epoch from min(s.signalled_at)) * 1000)::float8 from alert_signals s where s.rule_id = a.rule_id and s.firing) as signalled_ms,
            (select (extract(epoch from min(t.attempted_at)) * 1000)::float8 from notification_sends n join notification_attempts t on t.send_id = n.id
              where n.alert_id = a.id and n.action = 'trigger' and t.number = 1) as attempted_ms,
            (select count(*) from notification_sends n where n.alert_id = a.id and n.action = 'trigger')::int as sends
       from alerts a where a.organization_id = ?`,
      [outageFrom, organizationId],
    );
}

/** When Temporal accepted each alert workflow's signal-with-start (its start time), CONCURRENCY describes at once. */
async function workflowStarts(temporal: TemporalHandle, ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  await forEach(ids.length, CONCURRENCY, async (i) => {
    const d = await temporal.client.workflow.getHandle(ids[i]!).describe();
    out.set(ids[i]!, d.startTime.getTime());
  });
  return out;
}

// ---------------------------------------------------------------------------------------------

async function terminateLeftovers(temporal: TemporalHandle): Promise<number> {
  const running: string[] = [];
  for await (const wf of temporal.client.workflow.list({
    query: `TaskQueue = '${temporal.taskQueue}' AND ExecutionStatus = 'Running'`,
  }))
    running.push(wf.workflowId);
  let n = 0;
  await forEach(running.length, 16, async (i) => {
    await temporal.client.workflow
      .getHandle(running[i]!)
      .terminate('bench/alerts cleanup')
      .then(
        () => void n++,
        () => undefined,
      );
  });
  return n;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 4 });
  const monitor = new PgClient({ connectionString: db.url });
  let monitorConnected = false;
  let devServer: RunningTemporal | null = null;
  let temporal: TemporalHandle | null = null;
  let vigil: ChildProcess | null = null;
  let api: ApiClient | null = null;
  let rx: Receiver | null = null;
  const problems: string[] = [];
  const loadAtStart = os.loadavg();
  try {
    await migrate(orm);
    await monitor.connect();
    monitorConnected = true;
    const temporalServer = await benchTemporal(config, say);
    devServer = temporalServer.devServer;
    const address = temporalServer.address;
    const taskQueue = `bench-alerts-${randomUUID()}`;
    temporal = await connectTemporal({ address, namespace: 'default', taskQueue });

    const now = new Date();
    const { organization, key } = await benchOrganization(orm, 'Bench alerts', now);

    rx = await startReceiver();
    const started = await startVigilProcess('alerts-support.js', {
      BENCH_DATABASE_URL: db.url,
      BENCH_TEMPORAL_ADDRESS: address,
      BENCH_TASK_QUEUE: taskQueue,
      BENCH_MASTER_KEY: randomBytes(32).toString('hex'),
      BENCH_WEBHOOK_POLICY: JSON.stringify(WEBHOOK_POLICY),
      BENCH_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      BENCH_ALERT_MINUTE_MS: String(ALERT_MINUTE_MS),
      BENCH_POOL_MAX: String(POOL_MAX),
    } satisfies AlertsProcessEnv);
    vigil = started.child;
    const vigilPid = vigil.pid!;
    const temporalPid = devServer?.pid;
    const busy = [vigilPid, temporalPid].filter((p): p is number => p !== undefined);
    api = apiClient(`http://127.0.0.1:${started.port}`, key.plaintext, CONCURRENCY);
    say(
      `Vigil (API + worker + outbox relay) on 127.0.0.1:${started.port}; Temporal ${address}, task queue ${taskQueue}; database ${db.url}`,
    );

    // Setup: services, manual metrics, the channel, one policy, the baseline subscription.
    const t0 = Date.now();
    const fleet: Fleet = {
      services: new Array(SERVICES),
      metrics: Array.from({ length: SERVICES }, () => new Array(METRICS_PER_SERVICE)),
      serviceOf: new Map(),
    };
    await forEach(SERVICES, CONCURRENCY, async (i) => {
      const res = await api!.call<{ id: string }>('POST', '/v1/services', { name: `region-a service ${i}` });
      expectStatus(res, 201, 'POST /v1/services');
      fleet.services[i] = res.body.id;
    });
    await forEach(FLIPS, CONCURRENCY, async (k) => {
      const i = Math.floor(k / METRICS_PER_SERVICE);
      const j = k % METRICS_PER_SERVICE;
      const res = await api!.call<{ id: string }>('POST', '/v1/metrics', {
        service_id: fleet.services[i],
        name: `check ${j}`,
        source_type: 'manual',
        source_config: {},
      });
      expectStatus(res, 201, 'POST /v1/metrics');
      fleet.metrics[i]![j] = res.body.id;
      fleet.serviceOf.set(res.body.id, i);
    });
    const channel = await api.call<{ id: string }>('POST', '/v1/notification-channels', {
      name: 'bench receiver',
      type: 'webhook',
      url: `${rx.base}/alerts`,
    });
    expectStatus(channel, 201, 'POST /v1/notification-channels');
    const policy = await api.call<{ id: string }>('POST', '/v1/escalation-policies', {
      name: 'bench on-call',
      levels: [
        { delay_minutes: LEVEL_1_DELAY_MINUTES, targets: [{ type: 'channel', id: channel.body.id }] },
        { delay_minutes: LEVEL_1_DELAY_MINUTES, targets: [{ type: 'channel', id: channel.body.id }] },
      ],
      repeat: 0,
    });
    expectStatus(policy, 201, 'POST /v1/escalation-policies');
    const hook = await api.call<{ id: string }>('POST', '/v1/webhooks', {
      url: `${rx.base}/hooks`,
      event_types: ['metric.status_changed'],
    });
    expectStatus(hook, 201, 'POST /v1/webhooks');
    say(
      `setup: ${SERVICES} services, ${FLIPS} manual metrics, a webhook channel, a policy (level 2 after ${LEVEL_1_DELAY_MINUTES} min), a metric.status_changed subscription: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    await settle(busy, 'the setup');

    // (A) Webhooks only: the same number of flips, no rule yet.
    say(`(A) webhooks only: ${FLIPS} flips to degraded, no alert rule yet…`);
    const a0 = await cpuMark(vigilPid, temporalPid, monitor);
    const flipsA = await flipAll(api, fleet, 'degraded');
    await waitFor('(A) webhooks', FLIPS, () => hooks(rx!, 'degraded').first.size);
    await settle(busy, '(A)');
    const cpuA = cpuBetween(a0, await cpuMark(vigilPid, temporalPid, monitor));
    const hooksA = hooks(rx, 'degraded');
    const hookLatA = spread([...hooksA.first].map(([m, at]) => at - flipsA.sentAt.get(m)!));
    say(
      `    flips took ${flipsA.spanMs} ms; webhooks ${hooksA.first.size}/${FLIPS}, latency ${fmt(hookLatA)}; CPU ${cpuLine(cpuA)}`,
    );

    const rules = new Map<string, number>();
    await forEach(SERVICES, CONCURRENCY, async (i) => {
      const res = await api!.call<{ id: string }>('POST', '/v1/alert-rules', {
        name: `region-a service ${i} down`,
        kind: 'service_status',
        subject_id: fleet.services[i],
        escalation_policy_id: policy.body.id,
        severity: 'critical',
      });
      expectStatus(res, 201, 'POST /v1/alert-rules');
      rules.set(res.body.id, i);
    });
    say(`    ${SERVICES} service_status rules created`);
    await settle(busy, 'the rules');

    // (B) The outage.
    say(`(B) outage: ${FLIPS} flips to unhealthy, ${CONCURRENCY} in flight…`);
    const outageFrom = new Date();
    const b0 = await cpuMark(vigilPid, temporalPid, monitor);
    const flipsB = await flipAll(api, fleet, 'unhealthy');
    say(`    flips took ${flipsB.spanMs} ms (request ${fmt(flipsB.request)}); waiting for notifications and webhooks…`);
    await waitFor('(B) first notifications', SERVICES, () => notifications(rx!, 'trigger').first.size);
    await waitFor('(B) webhooks', FLIPS, () => hooks(rx!, 'unhealthy').first.size);
    await settle(busy, '(B)');
    const cpuB = cpuBetween(b0, await cpuMark(vigilPid, temporalPid, monitor));

    const firstFlip = new Map<number, number>();
    for (const [m, at] of flipsB.sentAt) {
      const s = fleet.serviceOf.get(m)!;
      firstFlip.set(s, Math.min(firstFlip.get(s) ?? Infinity, at));
    }
    const outageStart = Math.min(...firstFlip.values());
    const triggers = notifications(rx, 'trigger');
    const rows = await alertRows(orm, organization.id, outageFrom);
    const alertService = new Map(rows.map((r) => [r.id, rules.get(r.rule_id)!]));
    const latency: number[] = [];
    let unknown = 0;
    for (const [alertId, at] of triggers.first) {
      const s = alertService.get(alertId);
      if (s === undefined) unknown += 1;
      else latency.push(at - firstFlip.get(s)!);
    }
    const alertLat = spread(latency);
    const hooksB = hooks(rx, 'unhealthy');
    const hookLatB = spread([...hooksB.first].map(([m, at]) => at - flipsB.sentAt.get(m)!));
    const escalations = rx.arrivals.filter((a) => a.path === '/alerts' && a.body?.data?.action === 'escalate').length;
    const sendsPerAlert = rows.filter((r) => r.sends !== 1).length;

    // Stages, per alert (consecutive points; the first flip of the service is the origin).
    const starts = await workflowStarts(
      temporal,
      rows.map((r) => r.workflow_id),
    ).catch((err: Error) => {
      say(`    (could not describe the alert workflows: ${err.message})`);
      return new Map<string, number>();
    });
    const stage = {
      commit: [] as number[],
      fanout: [] as number[],
      start: [] as number[],
      open: [] as number[],
      attempt: [] as number[],
      http: [] as number[],
      signalledMark: [] as number[],
    };
    for (const r of rows) {
      const s = rules.get(r.rule_id)!;
      const arrived = triggers.first.get(r.id);
      const wfStart = starts.get(r.workflow_id);
      if (
        r.first_event_ms === null ||
        r.fanned_ms === null ||
        r.attempted_ms === null ||
        arrived === undefined ||
        wfStart === undefined
      )
        continue;
      stage.commit.push(r.first_event_ms - firstFlip.get(s)!);
      stage.fanout.push(r.fanned_ms - r.first_event_ms);
      stage.start.push(wfStart - r.fanned_ms);
      stage.open.push(r.opened_ms - wfStart);
      stage.attempt.push(r.attempted_ms - r.opened_ms);
      stage.http.push(arrived - r.attempted_ms);
      if (r.signalled_ms !== null) stage.signalledMark.push(r.signalled_ms - r.fanned_ms);
    }
    const openedSpread = rows.length ? Math.max(...rows.map((r) => r.opened_ms)) - outageStart : NaN;
    say(
      `    alerts ${rows.length}, first notifications ${triggers.first.size} (${triggers.total} requests); alert ${fmt(alertLat)}; webhooks ${hooksB.first.size}/${FLIPS}, ${fmt(hookLatB)}`,
    );

    // (C) Recovery.
    say(`(C) recovery: ${FLIPS} flips to healthy…`);
    const flipsC = await flipAll(api, fleet, 'healthy');
    await waitFor('(C) resolutions', SERVICES, () => notifications(rx!, 'resolve').first.size);
    await waitFor('(C) webhooks', FLIPS, () => hooks(rx!, 'healthy').first.size);
    await settle(busy, '(C)');
    const resolves = notifications(rx, 'resolve');
    const finalRows = await orm.em
      .fork()
      .getConnection()
      .execute<Array<{ state: string; n: number }>>(
        `select state, count(*)::int as n from alerts where organization_id = ? group by state`,
        [organization.id],
      );
    const resolvedAlerts = finalRows.find((r) => r.state === 'resolved')?.n ?? 0;
    const triggersAfter = notifications(rx, 'trigger');
    const hooksC = hooks(rx, 'healthy');

    // Counts the issue asks for.
    const check = (ok: boolean, what: string) => {
      if (!ok) problems.push(what);
    };
    check(rows.length === SERVICES, `alerts opened ${rows.length}, want ${SERVICES}`);
    check(triggers.first.size === SERVICES, `first notifications ${triggers.first.size}, want ${SERVICES}`);
    check(
      triggersAfter.total === SERVICES,
      `trigger notifications received ${triggersAfter.total} (incl. duplicates), want ${SERVICES}`,
    );
    check(unknown === 0, `${unknown} notifications for alerts not in the table`);
    check(sendsPerAlert === 0, `${sendsPerAlert} alerts without exactly one trigger send recorded`);
    check(escalations === 0, `${escalations} escalations (level 2 is an hour away)`);
    check(
      resolves.first.size === SERVICES && resolves.total === SERVICES,
      `resolve notifications ${resolves.first.size} alerts, ${resolves.total} requests, want ${SERVICES} each`,
    );
    check(
      resolvedAlerts === SERVICES,
      `alerts resolved ${resolvedAlerts}, want ${SERVICES} (${JSON.stringify(finalRows)})`,
    );
    for (const [what, h] of [
      ['(A)', hooksA],
      ['(B)', hooksB],
      ['(C)', hooksC],
    ] as const)
      check(h.first.size === FLIPS, `${what} webhooks delivered ${h.first.size}/${FLIPS}`);

    const perAlert = (s: number) => `${((s * 1000) / SERVICES).toFixed(1)} ms`;
    const added: CpuUse = {
      vigil: cpuB.vigil - cpuA.vigil,
      temporal: cpuB.temporal === null || cpuA.temporal === null ? null : cpuB.temporal - cpuA.temporal,
      pg: cpuB.pg - cpuA.pg,
      driver: cpuB.driver - cpuA.driver,
      total: cpuB.total - cpuA.total,
    };
    const targetMet = alertLat.p99 < TARGET_P99_MS && problems.length === 0;
    const line = (label: string, p: number[]) => `      ${label.padEnd(52)} ${fmt(spread(p))}`;
    say(
      [
        '',
        '================ bench/alerts summary ================',
        `region outage: ${FLIPS} manual metrics (${SERVICES} services × ${METRICS_PER_SERVICE}) flipped to unhealthy in ${(flipsB.spanMs / 1000).toFixed(2)} s (${CONCURRENCY} requests in flight; POST …/status ${fmt(flipsB.request)})`,
        `    alerts opened: ${rows.length} (want ${SERVICES}; trigger_count p50 ${spread(rows.map((r) => r.trigger_count)).p50}); last opened ${ms(openedSpread)} after the first flip`,
        `    first notifications: ${triggers.first.size} alerts, ${triggersAfter.total} requests (duplicates ${triggersAfter.total - triggersAfter.first.size}); escalations ${escalations}; unknown alert ids ${unknown}`,
        `    first notification − the service's first flip request: ${fmt(alertLat)}`,
        `    target p99 < ${TARGET_P99_MS} ms, each exactly once: ${targetMet ? 'MET' : 'MISSED'}`,
        `    last first notification ${ms(Math.max(...triggers.first.values()) - outageStart)} after the first flip; last flip request ${ms(Math.max(...flipsB.sentAt.values()) - outageStart)} after it`,
        `  baseline, same run, same flips: metric.status_changed webhooks ${hooksB.first.size}/${FLIPS} (${hooksB.total - hooksB.first.size} repeats), arrival − flip request: ${fmt(hookLatB)}`,
        `    ratio alert p99 / webhook p99: ${(alertLat.p99 / hookLatB.p99).toFixed(2)}×   (p50: ${(alertLat.p50 / hookLatB.p50).toFixed(2)}×)`,
        `    where an alert's time goes (per alert, consecutive points):`,
        line('first flip request → first event committed (API)', stage.commit),
        line('event → fanned out to alert_signals (relay)', stage.fanout),
        line('fanned out → workflow started (signal-with-start)', stage.start),
        line('workflow started → alert opened (task + evaluate/open)', stage.open),
        line('alert opened → send activity starts (record, plan, dispatch)', stage.attempt),
        line('send activity starts → arrival (prepare, message, HTTP)', stage.http),
        line('(fanned out → batch marked signalled)', stage.signalledMark),
        `  CPU (${os.cpus().length} cores; until Vigil and Temporal were idle again):`,
        `    (A) ${FLIPS} flips, webhooks only:    ${cpuLine(cpuA)}`,
        `    (B) ${FLIPS} flips, webhooks + alerts: ${cpuLine(cpuB)}`,
        `    (B) / (A) server CPU: ${(cpuB.total / cpuA.total).toFixed(2)}×`,
        `    per alert, all of (B): ${perAlert(cpuB.total)} (Vigil ${perAlert(cpuB.vigil)}, Temporal ${cpuB.temporal === null ? 'n/a' : perAlert(cpuB.temporal)}, PostgreSQL ${perAlert(cpuB.pg)})`,
        `    per alert, what alerting added ((B) − (A)): ${perAlert(added.total)} (Vigil ${perAlert(added.vigil)}, Temporal ${added.temporal === null ? 'n/a' : perAlert(added.temporal)}, PostgreSQL ${perAlert(added.pg)})`,
        `recovery: ${FLIPS} flips to healthy in ${(flipsC.spanMs / 1000).toFixed(2)} s; resolved ${resolvedAlerts}/${SERVICES}; resolve notifications ${resolves.first.size} alerts, ${resolves.total} requests`,
        `(A) webhooks-only latency: ${fmt(hookLatA)} (flips took ${(flipsA.spanMs / 1000).toFixed(2)} s)`,
        '',
        `reproduce: npm run bench:alerts   (SERVICES=${SERVICES} METRICS_PER_SERVICE=${METRICS_PER_SERVICE} CONCURRENCY=${CONCURRENCY}${config.TEMPORAL_ADDRESS ? ` TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}` : ''})`,
        `(${os.cpus().length} CPUs, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at the start, ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(
            ' ',
          )} at the end, Node ${process.version}, Temporal ${devServer ? `dev server started by the bench at ${address}` : address}, database ${db.source})`,
        ...(problems.length ? ['COUNTS WRONG:', ...problems.map((p) => `    ${p}`)] : ['counts: all as expected']),
        '======================================================',
      ].join('\n'),
    );
  } finally {
    if (temporal) {
      const n = await terminateLeftovers(temporal).catch(() => 0);
      if (n) say(`cleanup: terminated ${n} workflows left running`);
    }
    if (vigil) await stopChild(vigil);
    await api?.close();
    await rx?.close();
    await temporal?.close();
    if (monitorConnected) await monitor.end();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
    await devServer?.stop();
  }
  if (problems.length) process.exitCode = 1;
}

runMain(main);
