import { expectStatus } from './support/api-client';
import { runMain } from './child-server';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { postgresCpu, procCpu, median, percentile } from './support/measure';
import os from 'node:os';
import { Client as PgClient, Pool as PgPool } from 'pg';
import { Pool } from 'undici';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { ensureSamplePartitions } from '../src/db/repositories/samples-repository';
import { type Thresholds, evaluateStatus } from '../src/domain/thresholds';
import { dropDatabase } from '../src/launchers/postgres';
import type { ApiProcessEnv } from './api-process';
import { benchOrganization } from './support/seed';
import { benchDatabase, startVigilProcess, stopChild } from './support/processes';

/**
 * bench/ingest: agent sample batches through the API into PostgreSQL, against a raw INSERT of the
 * same rows, in one run:
 *   (a) POST /v1/agent/samples with agent tokens: BATCH samples per request over METRICS tcp
 *       metrics of each of AGENTS agents (agent-token auth, zod validation, evaluation against thresholds,
 *       then the group commit's one statement: samples + day rollups + the metric locks + latest
 *       outcome + a flip row and a metric.status_changed outbox event per change of status),
 *       CONCURRENCY requests in flight;
 *   (b) baseline: `insert into metric_samples (…) values (…),(…)…` of the same BATCH rows (same
 *       values and statuses, timestamps 12 h later, under METRICS metrics of its own) with
 *       node-postgres straight into the same table, CONCURRENCY statements in flight.
 * The metrics are created over the API with its defaults (confirmation majority/2/2):
 * the isolated off samples are pending rounds, not flips.
 * Rounds alternate a, b, a, b… for DURATION s each; medians of samples/s are reported, with the
 * batch latency p50/p99 over all rounds. Values are ~FLIP_PERCENT % status flips (isolated
 * unhealthy/degraded samples among healthy ones). Both paths write into today's (UTC) day
 * partition, made with ensureSamplePartitions first. Where the time goes: CPU seconds of the API
 * process and of PostgreSQL per 100k samples, and PostgreSQL sessions sampled every 50 ms
 * (average sessions running, waiting on a lock, or idle in a transaction waiting for Node).
 * Target: (a) >= 20,000 samples/s sustained and >= 50% of (b) (confirmation must not cost more than that: before it, (a) was 57% of (b)).
 *
 *   npm run bench:ingest
 *   (METRICS=200 BATCH=1000 CONCURRENCY=4 AGENTS=CONCURRENCY DURATION=10 ROUNDS=3 FLIP_PERCENT=3 WARMUP=2 POOL_MAX=10;
 *    VIGIL_NODE_ARGS adds node flags to the API process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const METRICS = Number(process.env.METRICS ?? 200);
const BATCH = Number(process.env.BATCH ?? 1000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
/**
 * Agents posting at once: each runs METRICS metrics and posts its batches one at a time, in time
 * order, as the agent does (MetricRunner.flush). AGENTS=1 with CONCURRENCY 4 is one agent with 4
 * batches in flight, which the agent never does: batches then arrive out of order, and each late
 * one rebuilds its metrics' flips.
 */
const AGENTS = Number(process.env.AGENTS ?? CONCURRENCY);
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const FLIP_PERCENT = Number(process.env.FLIP_PERCENT ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 2);
const POOL_MAX = Number(process.env.POOL_MAX ?? 10);
const RATE_TARGET = 20_000;
const RATIO_TARGET = 0.5;

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 100,
  unhealthy_operation: 'over',
  unhealthy_value: 200,
} as const;
/** An isolated off sample flips twice (into it and back): half the flip rate, half of it degraded, half unhealthy. */
const OFF_FRACTION = FLIP_PERCENT / 100 / 2;
/** Each path's timestamps: today (UTC) from 00:00 for the API, from 12:00 for the raw insert; 1 ms apart per metric. */
const RAW_OFFSET_MS = 12 * 3_600_000;

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The rows: batch k of either path holds the same metrics and values; only the timestamps differ.

/** A deterministic hash of (metric, slot) in [0, 1). */
function rand(metric: number, slot: number): number {
  let h = Math.imul(metric + 1, 0x9e3779b1) ^ Math.imul(slot + 1, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/** Mostly healthy (10..90); OFF_FRACTION of the samples degraded (150) or unhealthy (250). */
function valueOf(metric: number, slot: number): number {
  const r = rand(metric, slot);
  if (r < OFF_FRACTION / 2) return 250;
  if (r < OFF_FRACTION) return 150;
  return Math.round((10 + ((r - OFF_FRACTION) / (1 - OFF_FRACTION)) * 80) * 10) / 10;
}

interface Row {
  metric: number;
  at: string;
  value: number;
}

const SLOTS_PER_BATCH = Math.ceil(BATCH / METRICS);

/** Batch k: sample i is of metric i mod METRICS at slot k·⌈B/M⌉ + ⌊i/M⌋ (ms after `base`). */
function batch(k: number, base: number): Row[] {
  const rows: Row[] = new Array(BATCH);
  for (let i = 0; i < BATCH; i++) {
    const metric = i % METRICS;
    const slot = k * SLOTS_PER_BATCH + Math.floor(i / METRICS);
    rows[i] = { metric, at: new Date(base + slot).toISOString(), value: valueOf(metric, slot) };
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Where the time goes: CPU of processes, and what PostgreSQL's sessions are doing.

/**
 * CPU seconds per PostgreSQL process serving the bench: its database's backends and the server's
 * background processes (WAL writer, checkpointer…), not other databases' sessions. Empty when
 * PostgreSQL is not local or /proc is not there.
 */

interface CpuMark {
  api: number;
  pg: Map<number, number>;
  driver: number;
}

interface CpuUse {
  api: number;
  pg: number;
  driver: number;
}

async function cpuMark(apiPid: number, monitor: PgClient): Promise<CpuMark> {
  const u = process.cpuUsage();
  return { api: procCpu(apiPid) ?? 0, pg: await postgresCpu(monitor), driver: (u.user + u.system) / 1e6 };
}

/** The CPU used between two marks (PostgreSQL: processes started in between count whole; those gone are missed). */
function cpuBetween(a: CpuMark, b: CpuMark): CpuUse {
  let pg = 0;
  for (const [pid, cpu] of b.pg) pg += cpu - (a.pg.get(pid) ?? 0);
  return { api: b.api - a.api, pg, driver: b.driver - a.driver };
}

/** What a PostgreSQL session of the bench database is doing, as a short label. */
function sessionLabel(state: string, waitType: string | null, wait: string | null, query: string): string | null {
  const q = query.replace(/\s+/g, ' ').trim().toLowerCase();
  const stmt = /^with ins as \( insert into metric_samples/.test(q)
    ? 'store batch (the one ingest statement)'
    : /^insert into metric_samples/.test(q)
      ? 'insert samples (values)'
      : /^select id, thresholds from metrics/.test(q)
        ? 'read metrics for evaluation'
        : /^select .* from "agents"/.test(q)
          ? 'select agent'
          : /^update "agents"/.test(q)
            ? 'touch agent'
            : /^(begin|commit|rollback|savepoint|release)/.test(q)
              ? q.split(' ')[0]!
              : q.slice(0, 40);
  if (state === 'idle in transaction') return `idle in transaction (Node), after: ${stmt}`;
  if (state !== 'active') return null;
  if (!waitType) return `running: ${stmt}`;
  return `waiting ${waitType}:${wait}: ${stmt}`;
}

/** Samples pg_stat_activity of the database every 50 ms; answers the average sessions per label. */
class SessionSampler {
  private counts = new Map<string, number>();
  private ticks = 0;
  private stopped = true;
  private loop: Promise<void> | null = null;

  constructor(private readonly client: PgClient) {}

  start(): void {
    this.counts = new Map();
    this.ticks = 0;
    this.stopped = false;
    this.loop = (async () => {
      while (!this.stopped) {
        const { rows } = await this.client.query<{
          state: string;
          wait_event_type: string | null;
          wait_event: string | null;
          query: string;
        }>(
          `select state, wait_event_type, wait_event, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        );
        this.ticks++;
        for (const r of rows) {
          const label = sessionLabel(r.state ?? '', r.wait_event_type, r.wait_event, r.query ?? '');
          if (label) this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
        }
        await sleep(50);
      }
    })();
  }

  async stop(): Promise<{ ticks: number; counts: Map<string, number> }> {
    this.stopped = true;
    await this.loop;
    return { ticks: this.ticks, counts: this.counts };
  }
}

// ---------------------------------------------------------------------------------------------
// Load

interface RoundResult {
  samples: number;
  seconds: number;
  rate: number;
  latencies: number[];
  flips: number;
  cpu: CpuUse;
  sessions: { ticks: number; counts: Map<string, number> };
}

/** CONCURRENCY loops, each sending batch after batch until DURATION is over; answers samples/s. */
/** Each lane's next batch number: a lane's batches are sent one after another in order, the lanes at once. */
type Lanes = number[];

async function round(
  seconds: number,
  apiPid: number,
  monitor: PgClient,
  sampler: SessionSampler | null,
  send: (lane: number, k: number) => Promise<{ samples: number; flips: number }>,
  next: Lanes,
): Promise<RoundResult> {
  const latencies: number[] = [];
  let samples = 0;
  let flips = 0;
  sampler?.start();
  const cpu0 = await cpuMark(apiPid, monitor);
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      const lane = worker % next.length;
      while (performance.now() < deadline) {
        const k = next[lane]!++;
        const sent = performance.now();
        const res = await send(lane, k);
        latencies.push(performance.now() - sent);
        samples += res.samples;
        flips += res.flips;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu1 = await cpuMark(apiPid, monitor);
  const sessions = sampler ? await sampler.stop() : { ticks: 0, counts: new Map<string, number>() };
  return {
    samples,
    seconds: elapsed,
    rate: samples / elapsed,
    latencies,
    flips,
    cpu: cpuBetween(cpu0, cpu1),
    sessions,
  };
}

// ---------------------------------------------------------------------------------------------
// The Vigil process

const startVigil = (env: ApiProcessEnv) => startVigilProcess('api-process.js', env);

interface ApiClient {
  call<T = any>(
    method: string,
    p: string,
    opts?: { body?: unknown; raw?: string; token?: string },
  ): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

function apiClient(baseUrl: string, key: string): ApiClient {
  const pool = new Pool(baseUrl, { connections: Math.max(CONCURRENCY, 8), pipelining: 1 });
  return {
    async call(method, p, opts = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? key}` };
      const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await pool.request({ method: method as 'GET', path: p, headers, body });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
    close: () => pool.close(),
  };
}

async function parallel<T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      for (let i = next++; i < n; i = next++) out[i] = await fn(i);
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (BATCH < 1 || BATCH > 5_000)
    throw new Error('BATCH must be 1..5000 (the API takes up to 5,000 samples a request)');
  if (METRICS < 1) throw new Error('METRICS must be at least 1');
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 2 });
  let vigil: ChildProcess | null = null;
  let api: ApiClient | null = null;
  const raw = new PgPool({ connectionString: db.url, max: CONCURRENCY, idleTimeoutMillis: 0 });
  const monitor = new PgClient({ connectionString: db.url });
  let monitorConnected = false;
  try {
    await migrate(orm);
    await monitor.connect();
    monitorConnected = true;
    const now = new Date();
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const made = await ensureSamplePartitions(orm.em.fork(), new Date(day), 1);
    const partition = `metric_samples_${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;

    const { organization, key } = await benchOrganization(orm, 'Bench ingest', now);

    const started = await startVigil({
      BENCH_DATABASE_URL: db.url,
      BENCH_POOL_MAX: String(POOL_MAX),
      BENCH_MASTER_KEY: randomBytes(32).toString('hex'),
    });
    vigil = started.child;
    const apiPid = vigil.pid!;
    api = apiClient(`http://127.0.0.1:${started.port}`, key.plaintext);
    say(
      `Vigil API listening on 127.0.0.1:${started.port} (pool ${POOL_MAX}); database ${db.url}; partition ${partition} ${made.length ? 'made' : 'already there'}`,
    );

    // One service, one agent (heartbeat as version 1.8.0), METRICS tcp metrics run by it.
    const service = await api.call<{ id: string }>('POST', '/v1/services', { body: { name: 'Ingest' } });
    expectStatus(service, 201, 'POST /v1/services');
    const agents = await parallel(AGENTS, 4, async (a) => {
      const agent = await api!.call<{ id: string; token: string }>('POST', '/v1/agents', {
        body: { name: `bench-agent-${a}` },
      });
      expectStatus(agent, 201, 'POST /v1/agents');
      const token = agent.body.token;
      expectStatus(
        await api!.call('POST', '/v1/agent/heartbeat', { token, body: { version: '1.8.0', hostname: os.hostname() } }),
        200,
        'POST /v1/agent/heartbeat',
      );
      return { id: agent.body.id, token, metricIds: [] as string[] };
    });
    for (const agent of agents)
      agent.metricIds = await parallel(METRICS, 8, async (i) => {
        const res = await api!.call<{ id: string; mode: string }>('POST', '/v1/metrics', {
          body: {
            service_id: service.body.id,
            name: `tcp-${agent.id.slice(0, 8)}-${i}`,
            source_type: 'tcp',
            source_config: { host: '127.0.0.1', port: 10_000 + i },
            thresholds: THRESHOLDS,
            interval_seconds: 10,
            agent_id: agent.id,
          },
        });
        expectStatus(res, 201, 'POST /v1/metrics');
        if (res.body.mode !== 'agent') throw new Error(`metric ${i}: mode ${res.body.mode}, expected agent`);
        return res.body.id;
      });
    // The baseline's rows go to metrics of their own (pushed manual metrics: no agent, nothing
    // reads them): its 12-h-later rows under the API's metrics would sit after every late point,
    // and a late batch rebuilds its metrics' flips over every sample after it.
    const rawMetricIds = await parallel(METRICS, 8, async (i) => {
      const res = await api!.call<{ id: string }>('POST', '/v1/metrics', {
        body: { service_id: service.body.id, name: `raw-${i}`, source_type: 'manual', source_config: {} },
      });
      expectStatus(res, 201, 'POST /v1/metrics (baseline)');
      return res.body.id;
    });
    for (const agent of agents) {
      const agentConfig = await api.call<{ metrics: unknown[] }>('GET', '/v1/agent/config', { token: agent.token });
      if (agentConfig.body.metrics?.length !== METRICS)
        throw new Error(`the agent runs ${agentConfig.body.metrics?.length} metrics, expected ${METRICS}`);
    }
    say(
      `organization, service, ${AGENTS} agent(s) and ${METRICS} tcp metrics each (healthy under 100, unhealthy over 200) created over the API`,
    );

    const thresholds = THRESHOLDS as Thresholds;
    const apiBase = day;
    const rawBase = day + RAW_OFFSET_MS;

    // (a) the API: JSON as the agent sends it.
    const sendApi = async (lane: number, k: number) => {
      const rows = batch(k, apiBase);
      const agent = agents[lane]!;
      const body = JSON.stringify({
        samples: rows.map((r) => ({ metric_id: agent.metricIds[r.metric], sampled_at: r.at, value: r.value })),
      });
      const res = await api!.call<{ accepted: number; rejected: unknown[]; flips: number }>(
        'POST',
        '/v1/agent/samples',
        { raw: body, token: agent.token },
      );
      expectStatus(res, 200, 'POST /v1/agent/samples');
      if (res.body.rejected.length || res.body.accepted !== rows.length)
        throw new Error(
          `batch ${k}: accepted ${res.body.accepted}/${rows.length}, rejected ${res.body.rejected.length}`,
        );
      return { samples: res.body.accepted, flips: res.body.flips };
    };
    // (b) the raw multi-row INSERT of the same rows (status evaluated here, as the API does).
    const rawSql = `insert into metric_samples (metric_id, organization_id, sampled_at, value, status, reason) values ${Array.from({ length: BATCH }, (_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6})`).join(', ')}`;
    const sendRaw = async (_lane: number, k: number) => {
      const rows = batch(k, rawBase);
      const params: unknown[] = new Array(rows.length * 6);
      rows.forEach((r, i) => {
        params[i * 6] = rawMetricIds[r.metric];
        params[i * 6 + 1] = organization.id;
        params[i * 6 + 2] = r.at;
        params[i * 6 + 3] = r.value;
        params[i * 6 + 4] = evaluateStatus(r.value, thresholds);
        params[i * 6 + 5] = null;
      });
      const res = await raw.query(rawSql, params);
      if (res.rowCount !== rows.length) throw new Error(`raw batch ${k}: inserted ${res.rowCount}/${rows.length}`);
      return { samples: rows.length, flips: 0 };
    };

    // The API's lanes are the agents; the raw insert's batches need no order (one shared lane).
    const nextApi: Lanes = agents.map(() => 0);
    const nextRaw: Lanes = [0];
    const sampler = new SessionSampler(monitor);
    if (WARMUP > 0) {
      await round(WARMUP, apiPid, monitor, null, sendApi, nextApi);
      await round(WARMUP, apiPid, monitor, null, sendRaw, nextRaw);
      say(`warm-up: ${WARMUP} s of each path`);
    }
    const a: RoundResult[] = [];
    const b: RoundResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      a.push(await round(DURATION, apiPid, monitor, sampler, sendApi, nextApi));
      b.push(await round(DURATION, apiPid, monitor, sampler, sendRaw, nextRaw));
      const [x, y] = [a[r]!, b[r]!];
      say(
        `round ${r + 1}: API ${x.rate.toFixed(0)} samples/s (p50 ${percentile(x.latencies, 0.5).toFixed(0)} ms, p99 ${percentile(x.latencies, 0.99).toFixed(0)} ms, ${x.flips} flips) | ` +
          `raw INSERT ${y.rate.toFixed(0)} samples/s (p50 ${percentile(y.latencies, 0.5).toFixed(0)} ms, p99 ${percentile(y.latencies, 0.99).toFixed(0)} ms)`,
      );
    }

    // What was written, and where.
    const q = async <T>(sql: string, params: unknown[] = []) => (await monitor.query(sql, params)).rows as T[];
    const parts = await q<{ part: string; n: string }>(
      `select tableoid::regclass::text as part, count(*) as n from metric_samples group by 1 order by 1`,
    );
    const [apiRows] = await q<{ n: string }>(`select count(*) as n from metric_samples where sampled_at < $1`, [
      new Date(rawBase).toISOString(),
    ]);
    const [rawRows] = await q<{ n: string }>(`select count(*) as n from metric_samples where sampled_at >= $1`, [
      new Date(rawBase).toISOString(),
    ]);
    const [rollups] = await q<{ n: string | null }>(`select sum(samples) as n from metric_daily_rollups`);
    const [flipRows] = await q<{ n: string }>(`select count(*) as n from metric_status_flips`);
    const [events] = await q<{ n: string }>(
      `select count(*) as n from outbox_events where type = 'metric.status_changed'`,
    );
    const apiSent = nextApi.reduce((n, k) => n + k, 0) * BATCH;
    const rawSent = nextRaw[0]! * BATCH;
    const apiFlips = a.reduce((s, x) => s + x.flips, 0);
    const apiSamplesInRounds = a.reduce((s, x) => s + x.samples, 0);

    const aRate = median(a.map((x) => x.rate));
    const bRate = median(b.map((x) => x.rate));
    const ratio = aRate / bRate;
    const aLat = a.flatMap((x) => x.latencies);
    const bLat = b.flatMap((x) => x.latencies);
    const per100k = (rs: RoundResult[], f: (c: CpuUse) => number) =>
      (f(sumCpu(rs)) / rs.reduce((s, x) => s + x.samples, 0)) * 100_000;
    const util = (rs: RoundResult[], f: (c: CpuUse) => number) =>
      (f(sumCpu(rs)) / rs.reduce((s, x) => s + x.seconds, 0)) * 100;
    const cpuLine = (rs: RoundResult[]) =>
      `CPU s per 100k samples: API process ${per100k(rs, (c) => c.api).toFixed(2)} (${util(rs, (c) => c.api).toFixed(0)}% of a core), PostgreSQL (this database + background) ${per100k(rs, (c) => c.pg).toFixed(2)} (${util(rs, (c) => c.pg).toFixed(0)}%), bench driver ${per100k(rs, (c) => c.driver).toFixed(2)} (${util(rs, (c) => c.driver).toFixed(0)}%)`;
    const rateMet = aRate >= RATE_TARGET;
    const ratioMet = ratio >= RATIO_TARGET;
    const lines = [
      '',
      '================ bench/ingest summary ================',
      `${AGENTS === 1 ? 'one agent' : `${AGENTS} agents`} of ${METRICS} tcp metrics; batches of ${BATCH} samples (${SLOTS_PER_BATCH} per metric), ${CONCURRENCY} in flight${AGENTS < CONCURRENCY ? ` (${Math.ceil(CONCURRENCY / AGENTS)} per agent: out of order)` : ' (one per agent, in order)'}; ${ROUNDS} rounds of ${DURATION} s per path, alternating`,
      `(a) POST /v1/agent/samples:     median ${aRate.toFixed(0)} samples/s (rounds ${a.map((x) => x.rate.toFixed(0)).join(', ')}); batch latency p50 ${percentile(aLat, 0.5).toFixed(1)} ms, p99 ${percentile(aLat, 0.99).toFixed(1)} ms`,
      `    ${cpuLine(a)}`,
      `    PostgreSQL sessions (average over the rounds):`,
      ...sessionLines(a),
      `(b) raw multi-row INSERT:       median ${bRate.toFixed(0)} samples/s (rounds ${b.map((x) => x.rate.toFixed(0)).join(', ')}); batch latency p50 ${percentile(bLat, 0.5).toFixed(1)} ms, p99 ${percentile(bLat, 0.99).toFixed(1)} ms`,
      `    ${cpuLine(b)}`,
      `    PostgreSQL sessions (average over the rounds):`,
      ...sessionLines(b),
      `ratio a/b: ${(ratio * 100).toFixed(1)}% (target >= ${RATIO_TARGET * 100}%); a: ${aRate.toFixed(0)} samples/s (target >= ${RATE_TARGET.toLocaleString('en')})`,
      `flips: ${apiFlips} in the measured rounds (${((apiFlips / apiSamplesInRounds) * 100).toFixed(2)}% of ${apiSamplesInRounds} samples; FLIP_PERCENT=${FLIP_PERCENT}); written in all: ${flipRows!.n} metric_status_flips rows, ${events!.n} metric.status_changed outbox events`,
      `rows: API ${apiRows!.n} (sent ${apiSent} incl. warm-up; rollups count ${rollups!.n ?? 0}), raw ${rawRows!.n} (sent ${rawSent}); by partition: ${parts.map((p) => `${p.part} ${p.n}`).join(', ')}`,
      '',
      `reproduce: npm run build --silent && METRICS=${METRICS} BATCH=${BATCH} CONCURRENCY=${CONCURRENCY} AGENTS=${AGENTS} DURATION=${DURATION} ROUNDS=${ROUNDS} FLIP_PERCENT=${FLIP_PERCENT} WARMUP=${WARMUP} POOL_MAX=${POOL_MAX} node dist/bench/ingest.js`,
      `(${os.cpus().length} CPUs, Node ${process.version}, ${(await q<{ v: string }>('select version() as v'))[0]!.v.split(' on ')[0]}, database ${db.source})`,
      rateMet && ratioMet
        ? 'TARGETS MET'
        : `TARGETS MISSED (${[rateMet ? null : 'rate', ratioMet ? null : 'ratio'].filter(Boolean).join(', ')})`,
      '=======================================================',
    ];
    say(lines.join('\n'));
    if (Number(apiRows!.n) !== apiSent)
      say(`WARNING: the API accepted ${apiSent} samples but ${apiRows!.n} are stored`);
    if (parts.some((p) => p.part === 'metric_samples_default' && Number(p.n) > 0))
      say('WARNING: samples landed in the default partition');
  } finally {
    if (vigil) await stopChild(vigil);
    await api?.close();
    if (monitorConnected) await monitor.end();
    await raw.end();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
  }
}

function sumCpu(rs: RoundResult[]): CpuUse {
  return rs.reduce((s, x) => ({ api: s.api + x.cpu.api, pg: s.pg + x.cpu.pg, driver: s.driver + x.cpu.driver }), {
    api: 0,
    pg: 0,
    driver: 0,
  });
}

/** The labels holding >= 0.05 sessions on average, busiest first. */
function sessionLines(rs: RoundResult[]): string[] {
  const ticks = rs.reduce((s, x) => s + x.sessions.ticks, 0);
  const counts = new Map<string, number>();
  for (const x of rs) for (const [k, v] of x.sessions.counts) counts.set(k, (counts.get(k) ?? 0) + v);
  const rows = [...counts]
    .map(([k, v]) => [k, v / Math.max(ticks, 1)] as const)
    .filter(([, v]) => v >= 0.05)
    .sort((p, q) => q[1] - p[1]);
  return rows.length ? rows.map(([k, v]) => `      ${v.toFixed(2)}  ${k}`) : ['      (none sampled)'];
}

runMain(main);
