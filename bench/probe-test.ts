import { startTarget } from './loopback-target';
import { runMain } from './child-server';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Agent, Pool, request } from 'undici';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { dropDatabase, withDatabase } from '../src/launchers/postgres';
import { TEMPORAL_CLI_VERSION, startTemporalDevServer } from '../src/launchers/temporal-dev-server';
import { TEMPORAL_SERVER_VERSION, startTemporalPostgresServer } from '../src/launchers/temporal-postgres-server';
import { registerSearchAttributes } from '../src/temporal/search-attributes';
import { type TemporalHandle, connectTemporal } from '../src/temporal/connection';
import { probeTestWorkflowId } from '../src/temporal/probe-test-runner';
import { PROBE_TEST_LIMITS } from '../src/usecases/probe-tests/jobs';
import type { ProbeVigilEnv } from './probe-test-support';
import { benchOrganization } from './support/seed';
import { benchDatabase, startVigilProcess, stopChild } from './support/processes';
import { type Stats, stats } from './support/measure';
import { type TemporalFloors, measureTemporalFloors } from './probe-test-floor';

/**
 * bench/probe-test: what a probe test (POST /v1/metrics/test) adds on top of the HTTP check it
 * runs, against a loopback target (node:http answering 200 `{}`), sequential requests:
 *   (a) a direct GET with undici on a new connection, as the prober opens one per run (baseline);
 *   (b) a cloud probe test: {source_type:'http', source_config:{url}} without agent_id — the API
 *       starts a Temporal workflow, eagerly on the worker in the same process (as `vigil start`
 *       runs them), whose local activity runs the probe (its prober allows 127.0.0.0/8,
 *       CLOUD_PROBE_ALLOW_CIDRS) and stores the outcome, handing it back to the waiting request in
 *       the same process (LocalProbeJobs; another process would wake on the job row's NOTIFY).
 *       Target: median(b) − median(a) < 25 ms.
 *   (c) an agent probe test: the same check with agent_id and wait_seconds 20, run by the real
 *       `vigil-agent` process (bin/vigil-agent.js) long-polling the API.
 *       Target: median(c) − median(a) < 60 ms.
 * N of each, after WARMUP of each, in ROUNDS interleaved rounds: every iteration runs one of
 * each, the order rotating (a b c, b c a, c a b) so drift and noise spread evenly.
 *
 * Probe-test limits (src/usecases/probe-tests/jobs.ts PROBE_TEST_LIMITS: 20 cloud and 30 agent
 * tests per organization and minute, constants) are kept by rotating organizations: a fresh one
 * every CLOUD_PER_ORG (15) cloud tests; AGENTS organizations with one registered agent and one
 * `vigil-agent` process each (a process serves one token), taken round-robin, at most
 * AGENT_PER_ORG_MINUTE (25) tests each per UTC minute (the run waits for the next minute if all
 * are used up; the wait is outside every measurement).
 *
 * The Vigil side (API + worker, as `vigil start` runs them) is a child process
 * (bench/probe-test-support.ts) on a fresh database and its own task queue; this process runs the
 * target and keeps the clocks. Afterwards each test's time is split into stages from the job rows
 * (created/claimed/completed) and the workflows' Temporal histories.
 *
 * Temporal layouts: each run is repeated per layout on a fresh database, and the layouts are
 * printed side by side at the end. VIGIL_BENCH_TEMPORAL picks them: `dev` (the Temporal CLI dev
 * server on SQLite in memory, as `vigil start` runs it), `postgres` (the full Temporal server on
 * the PostgreSQL the bench database is on, as production and docker-compose.yml run it; built
 * with Go on first use, src/launchers/temporal-postgres-server.ts; VIGIL_BENCH_TEMPORAL_POSTGRES_URL
 * puts it on another PostgreSQL server) or `both` (the default).
 * TEMPORAL_ADDRESS=host:port measures that running server only. After each layout's run, with
 * Vigil and the agents stopped, the Temporal floor is measured in isolation
 * (bench/probe-test-floor.ts: the same round trips with a bare worker, FLOOR_N of each) and
 * printed beside the overheads.
 *
 *   npm run build --silent && node dist/bench/probe-test.js
 *   (N=200 WARMUP=10 ROUNDS=4 AGENTS=<≤8, enough for N> FLOOR_N=100 VIGIL_BENCH_TEMPORAL=both;
 *    VIGIL_NODE_ARGS adds node flags to the Vigil process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const N = Number(process.env.N ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 10);
const ROUNDS = Math.max(1, Number(process.env.ROUNDS ?? 4));
const CLOUD_PER_ORG = 15;
const AGENT_PER_ORG_MINUTE = 25;
const AGENTS = Number(process.env.AGENTS ?? Math.min(8, Math.max(1, Math.ceil((N + WARMUP) / AGENT_PER_ORG_MINUTE))));
const CLOUD_TARGET_MS = 25;
const AGENT_TARGET_MS = 60;
const ALLOW_CIDRS = '127.0.0.0/8';
const FLOOR_N = Number(process.env.FLOOR_N ?? 100);
const FLOOR_WARMUP = 10;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (line: string) => console.log(line);
/** Epoch ms with sub-ms resolution, comparable with the other processes' Date.now(). */
const epochNow = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------
// Figures

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const fmt = (s: Stats) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`;

// ---------------------------------------------------------------------------------------------
// Target, API client, processes

interface ApiClient {
  call<T = any>(key: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

function apiClient(baseUrl: string): ApiClient {
  const pool = new Pool(baseUrl, { connections: 2 });
  return {
    async call(key, method, p, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await pool.request({
        method: method as 'GET',
        path: p,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
    close: () => pool.close(),
  };
}

function waitForLine(
  child: ChildProcess,
  what: string,
  pattern: RegExp,
  timeoutMs: number,
  output: () => string,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${output()}`)),
      timeoutMs,
    );
    const check = () => {
      const m = pattern.exec(output());
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(m);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${output()}`));
    });
  });
}

const startVigil = (env: ProbeVigilEnv) => startVigilProcess('probe-test-support.js', env);

/** The real `vigil-agent` bin in a process of its own, as a customer runs it; resolves once it has connected. */
async function startAgent(apiUrl: string, token: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'vigil-agent.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      VIGIL_API_URL: apiUrl,
      VIGIL_AGENT_TOKEN: token,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await waitForLine(child, 'vigil-agent', /running/, 60_000, () => out);
  return child;
}

// ---------------------------------------------------------------------------------------------
// The three measurements

type Kind = 'direct' | 'keepalive' | 'cloud' | 'agent';

interface Sample {
  kind: Kind;
  /** Round trip at the client. */
  ms: number;
  sentAt: number;
  receivedAt: number;
  warmup: boolean;
  orgId?: string;
  jobId?: string;
}

interface Org {
  id: string;
  key: string;
}

interface AgentOrg extends Org {
  agentId: string;
  /** Tests sent per UTC minute (minute start epoch ms → count). */
  used: Map<number, number>;
}

class Runner {
  readonly samples: Sample[] = [];
  private readonly keepAlive: Pool;
  private cloudIndex = 0;
  private cloudUsed = 0;
  private agentNext = 0;
  minuteWaitMs = 0;
  minuteWaits = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly targetUrl: string,
    private readonly cloudOrgs: Org[],
    private readonly agentOrgs: AgentOrg[],
  ) {
    this.keepAlive = new Pool(new URL(targetUrl).origin, { connections: 1 });
  }

  close(): Promise<void> {
    return this.keepAlive.close();
  }

  private record(s: Omit<Sample, 'ms' | 'receivedAt'>, t0: number): Sample {
    const t1 = performance.now();
    const sample: Sample = { ...s, ms: t1 - t0, receivedAt: performance.timeOrigin + t1 };
    this.samples.push(sample);
    return sample;
  }

  /** (a) A GET on a new connection (the prober's dispatcher is per run), closed afterwards. */
  async direct(warmup: boolean): Promise<void> {
    const dispatcher = new Agent({ connections: 1 });
    const sentAt = epochNow();
    const t0 = performance.now();
    const res = await request(this.targetUrl, { dispatcher });
    await res.body.text();
    this.record({ kind: 'direct', sentAt, warmup }, t0);
    await dispatcher.destroy();
    if (res.statusCode !== 200) throw new Error(`direct GET: ${res.statusCode}`);
  }

  /** (a′) For reference: the same GET on a kept-alive connection. */
  async keepalive(warmup: boolean): Promise<void> {
    const sentAt = epochNow();
    const t0 = performance.now();
    const res = await this.keepAlive.request({ method: 'GET', path: new URL(this.targetUrl).pathname });
    await res.body.text();
    this.record({ kind: 'keepalive', sentAt, warmup }, t0);
    if (res.statusCode !== 200) throw new Error(`keep-alive GET: ${res.statusCode}`);
  }

  /** (b) A cloud probe test; a fresh organization every CLOUD_PER_ORG tests. */
  async cloud(warmup: boolean): Promise<void> {
    if (this.cloudUsed >= CLOUD_PER_ORG) [this.cloudIndex, this.cloudUsed] = [this.cloudIndex + 1, 0];
    const org = this.cloudOrgs[this.cloudIndex];
    if (!org) throw new Error('out of cloud organizations');
    this.cloudUsed++;
    const sentAt = epochNow();
    const t0 = performance.now();
    const res = await this.api.call(org.key, 'POST', '/v1/metrics/test', {
      source_type: 'http',
      source_config: { url: this.targetUrl },
    });
    this.record({ kind: 'cloud', sentAt, warmup, orgId: org.id }, t0);
    if (
      res.status !== 200 ||
      res.body.mode !== 'cloud' ||
      res.body.reason !== null ||
      typeof res.body.value !== 'number'
    ) {
      throw new Error(`cloud probe test: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
    }
  }

  /** (c) An agent probe test; agents taken round-robin, at most AGENT_PER_ORG_MINUTE per organization and UTC minute. */
  async agent(warmup: boolean): Promise<void> {
    let org: AgentOrg | undefined;
    for (;;) {
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      for (let i = 0; i < this.agentOrgs.length && !org; i++) {
        const candidate = this.agentOrgs[(this.agentNext + i) % this.agentOrgs.length]!;
        if ((candidate.used.get(minute) ?? 0) < AGENT_PER_ORG_MINUTE) {
          org = candidate;
          this.agentNext = (this.agentNext + i + 1) % this.agentOrgs.length;
        }
      }
      if (org) {
        org.used.set(minute, (org.used.get(minute) ?? 0) + 1);
        break;
      }
      // Every agent organization used its share of this minute: wait (outside any measurement).
      const wait = minute + 60_000 + 250 - Date.now();
      say(
        `    all ${this.agentOrgs.length} agent organizations used ${AGENT_PER_ORG_MINUTE} tests this minute; waiting ${(wait / 1000).toFixed(1)} s for the next`,
      );
      this.minuteWaits++;
      this.minuteWaitMs += wait;
      await sleep(wait);
    }
    const sentAt = epochNow();
    const t0 = performance.now();
    const res = await this.api.call(org.key, 'POST', '/v1/metrics/test', {
      agent_id: org.agentId,
      source_type: 'http',
      source_config: { url: this.targetUrl },
      wait_seconds: 20,
    });
    this.record({ kind: 'agent', sentAt, warmup, orgId: org.id, jobId: res.body?.job_id }, t0);
    if (
      res.status !== 200 ||
      res.body.mode !== 'agent' ||
      res.body.reason !== null ||
      typeof res.body.value !== 'number'
    ) {
      throw new Error(`agent probe test: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
    }
  }

  /** One of each, in a rotating order. */
  async iteration(i: number, warmup: boolean): Promise<void> {
    const order: Array<() => Promise<void>> = [
      () => this.direct(warmup),
      () => this.cloud(warmup),
      () => this.agent(warmup),
    ];
    for (let k = 0; k < order.length; k++) await order[(i + k) % order.length]!();
    await this.keepalive(warmup);
  }
}

// ---------------------------------------------------------------------------------------------
// Where the time goes

interface JobRow {
  id: string;
  organization_id: string;
  mode: string;
  created_ms: number;
  claimed_ms: number | null;
  completed_ms: number | null;
}

interface WorkflowTimes {
  started?: number;
  activityScheduled?: number;
  activityStarted?: number;
  activityCompleted?: number;
  signaled?: number;
  completed?: number;
}

const EVENT_TYPES: Record<string, keyof WorkflowTimes> = {
  '1': 'started',
  EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: 'started',
  '10': 'activityScheduled',
  EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: 'activityScheduled',
  '11': 'activityStarted',
  EVENT_TYPE_ACTIVITY_TASK_STARTED: 'activityStarted',
  '12': 'activityCompleted',
  EVENT_TYPE_ACTIVITY_TASK_COMPLETED: 'activityCompleted',
  '26': 'signaled',
  EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: 'signaled',
  '2': 'completed',
  EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED: 'completed',
};

function timestampMs(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined {
  if (!ts) return undefined;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : Number(String(ts.seconds ?? 0));
  return seconds * 1000 + (ts.nanos ?? 0) / 1e6;
}

async function workflowTimes(temporal: TemporalHandle, jobId: string): Promise<WorkflowTimes> {
  const history = await temporal.client.workflow.getHandle(probeTestWorkflowId(jobId)).fetchHistory();
  const times: WorkflowTimes = {};
  for (const e of history.events ?? []) {
    const key = EVENT_TYPES[String(e.eventType)];
    if (key && times[key] === undefined) times[key] = timestampMs(e.eventTime as never);
  }
  return times;
}

async function mapLimit<T, R>(xs: T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(xs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, xs.length) }, async () => {
      while (next < xs.length) {
        const i = next++;
        out[i] = await fn(xs[i]!);
      }
    }),
  );
  return out;
}

type Stage = [label: string, values: number[]];

async function breakdown(
  rows: JobRow[],
  samples: Sample[],
  temporal: TemporalHandle,
): Promise<{ cloud: Stage[]; agent: Stage[]; note: string | null }> {
  // Cloud answers carry no job_id: match each organization's tests to its jobs in order (the tests were sequential).
  const byOrg = new Map<string, JobRow[]>();
  for (const r of rows.filter((r) => r.mode === 'cloud').sort((a, b) => a.created_ms - b.created_ms)) {
    const list = byOrg.get(r.organization_id) ?? [];
    list.push(r);
    byOrg.set(r.organization_id, list);
  }
  const cloudPairs: Array<{ s: Sample; job: JobRow }> = [];
  let note: string | null = null;
  const cloudByOrg = new Map<string, Sample[]>();
  for (const s of samples.filter((s) => s.kind === 'cloud'))
    cloudByOrg.set(s.orgId!, [...(cloudByOrg.get(s.orgId!) ?? []), s]);
  for (const [orgId, list] of cloudByOrg) {
    const jobs = byOrg.get(orgId) ?? [];
    if (jobs.length !== list.length) {
      note = `cloud jobs and tests do not pair up for organization ${orgId} (${jobs.length} jobs, ${list.length} tests)`;
      continue;
    }
    list.forEach((s, i) => !s.warmup && cloudPairs.push({ s, job: jobs[i]! }));
  }
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const agentPairs = samples
    .filter((s) => s.kind === 'agent' && !s.warmup && s.jobId && rowById.has(s.jobId))
    .map((s) => ({ s, job: rowById.get(s.jobId!)! }));

  const cloudTimes = await mapLimit(cloudPairs, 8, (p) => workflowTimes(temporal, p.job.id));
  const agentTimes = await mapLimit(agentPairs, 8, (p) => workflowTimes(temporal, p.job.id));

  const collect = <T>(items: T[], fns: Array<[string, (x: T) => number | undefined]>): Stage[] =>
    fns.map(([label, fn]) => [label, items.map(fn).filter((v): v is number => v !== undefined && Number.isFinite(v))]);

  const cloud = collect(
    cloudPairs.map((p, i) => ({ ...p, w: cloudTimes[i]! })),
    [
      ['client send → API onRequest (created_at)', (x) => x.job.created_ms - x.s.sentAt],
      [
        'onRequest → workflow started (auth, job insert, eager StartWorkflowExecution)',
        (x) => x.w.started! - x.job.created_ms,
      ],
      [
        'workflow started → outcome stamped (1st task on this worker: local activity takes the job, probes)',
        (x) => (x.job.completed_ms ?? NaN) - x.w.started!,
      ],
      [
        'outcome stamped → answer at client (the update, hand-back in process, reply)',
        (x) => x.s.receivedAt - (x.job.completed_ms ?? NaN),
      ],
      [
        '  after it: outcome stored → workflow completed (task completion)',
        (x) => x.w.completed! - (x.job.completed_ms ?? NaN),
      ],
    ],
  );
  const agent = collect(
    agentPairs.map((p, i) => ({ ...p, w: agentTimes[i]! })),
    [
      ['client send → API onRequest (created_at)', (x) => x.job.created_ms - x.s.sentAt],
      [
        'onRequest → claimed (auth, job insert, NOTIFY, long-poll wake, claim)',
        (x) => (x.job.claimed_ms ?? NaN) - x.job.created_ms,
      ],
      [
        'claimed → result posted (reply to agent, probe on agent, POST result)',
        (x) => (x.job.completed_ms ?? NaN) - (x.job.claimed_ms ?? NaN),
      ],
      [
        'result posted → answer at client (complete, NOTIFY, waiter wake, reload, reply)',
        (x) => x.s.receivedAt - (x.job.completed_ms ?? NaN),
      ],
      ['  in parallel: onRequest → workflow started (StartWorkflowExecution)', (x) => x.w.started! - x.job.created_ms],
    ],
  );
  return { cloud, agent, note };
}

// ---------------------------------------------------------------------------------------------

async function terminateLeftovers(temporal: TemporalHandle): Promise<number> {
  let n = 0;
  try {
    for await (const wf of temporal.client.workflow.list({
      query: `TaskQueue = '${temporal.taskQueue}' AND ExecutionStatus = 'Running'`,
    })) {
      try {
        await temporal.client.workflow.getHandle(wf.workflowId).terminate('bench/probe-test cleanup');
        n++;
      } catch {
        // finished meanwhile
      }
    }
  } catch (err) {
    say(`    (could not list leftover workflows: ${(err as Error).message})`);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Temporal layouts

type Layout = 'dev' | 'postgres' | 'external';

const LAYOUT_LABELS: Record<Layout, string> = {
  dev: 'dev server (SQLite)',
  postgres: 'server on PostgreSQL',
  external: 'TEMPORAL_ADDRESS',
};

/** TEMPORAL_ADDRESS wins; otherwise VIGIL_BENCH_TEMPORAL: dev, postgres or both (default). */
function layouts(config: { TEMPORAL_ADDRESS?: string }): Layout[] {
  if (config.TEMPORAL_ADDRESS) return ['external'];
  const choice = (process.env.VIGIL_BENCH_TEMPORAL ?? 'both').toLowerCase();
  if (choice === 'both') return ['dev', 'postgres'];
  if (choice === 'dev' || choice === 'postgres') return [choice];
  throw new Error(
    `VIGIL_BENCH_TEMPORAL must be dev, postgres or both (got ${JSON.stringify(process.env.VIGIL_BENCH_TEMPORAL)})`,
  );
}

interface RunningLayout {
  address: string;
  describe: string;
  stop(): Promise<void>;
}

async function startLayout(
  layout: Layout,
  config: ReturnType<typeof loadConfig>,
  postgresUrl: string,
): Promise<RunningLayout> {
  const logFile = path.join(os.tmpdir(), `vigil-bench-temporal-${layout}-${process.pid}.log`);
  if (layout === 'external')
    return { address: config.TEMPORAL_ADDRESS!, describe: config.TEMPORAL_ADDRESS!, stop: async () => undefined };
  if (layout === 'dev') {
    say('starting the Temporal dev server (CLI, SQLite in memory)…');
    const s = await startTemporalDevServer({ cacheDir: config.VIGIL_CACHE_DIR, logFile });
    return {
      address: s.address,
      describe: `dev server (Temporal CLI v${TEMPORAL_CLI_VERSION}, SQLite in memory) started by the bench at ${s.address}`,
      stop: () => s.stop(),
    };
  }
  say(`starting the Temporal server v${TEMPORAL_SERVER_VERSION} on PostgreSQL (the first run builds it with Go)…`);
  const s = await startTemporalPostgresServer({
    cacheDir: config.VIGIL_CACHE_DIR,
    postgresUrl,
    dropOnStop: true,
    logFile,
    log: (l) => (/^(building|Temporal server ready|waiting)/.test(l) ? say(`    ${l}`) : undefined),
  });
  const pg = new URL(postgresUrl);
  return {
    address: s.address,
    describe: `server v${TEMPORAL_SERVER_VERSION} (frontend, history, matching, worker in one process; postgres12 plugin, SQL visibility, 4 history shards) on PostgreSQL ${pg.hostname}:${pg.port || 5432} (databases ${s.databases.main}, ${s.databases.visibility}) at ${s.address}`,
    stop: () => s.stop(),
  };
}

interface LayoutResult {
  layout: Layout;
  a: Stats;
  b: Stats;
  c: Stats;
  cloudOverhead: number;
  agentOverhead: number;
  floors: TemporalFloors | null;
  /** 1-minute load average when the measured part started and ended (the host is shared). */
  load: [number, number];
}

// ---------------------------------------------------------------------------------------------

async function runLayout(layout: Layout, config: ReturnType<typeof loadConfig>): Promise<LayoutResult> {
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 4 });
  let server: RunningLayout | null = null;
  let temporal: TemporalHandle | null = null;
  let vigil: ChildProcess | null = null;
  const agents: ChildProcess[] = [];
  let api: ApiClient | null = null;
  let runner: Runner | null = null;
  const loopback = await startTarget();
  const target = { ...loopback, url: `${loopback.origin}/health` };
  try {
    await migrate(orm);
    // The Temporal server on PostgreSQL uses the server the bench database is on, unless told otherwise.
    server = await startLayout(
      layout,
      config,
      process.env.VIGIL_BENCH_TEMPORAL_POSTGRES_URL ?? withDatabase(db.url, 'postgres'),
    );
    const address = server.address;
    await registerSearchAttributes(address, 'default');
    const taskQueue = `bench-probe-test-${randomUUID()}`;
    temporal = await connectTemporal({ address, namespace: 'default', taskQueue });

    // Organizations, made before the API starts (nothing cached yet). The general API rate limits
    // are raised so that only the probe-test limits (constants) matter.
    const newOrg = async (name: string): Promise<Org> => {
      const now = new Date();
      const { organization, key } = await benchOrganization(orm, name, now);
      return { id: organization.id, key: key.plaintext };
    };
    const cloudOrgs: Org[] = [];
    for (let i = 0; i < Math.ceil((N + WARMUP) / CLOUD_PER_ORG); i++)
      cloudOrgs.push(await newOrg(`Bench cloud tests ${i}`));
    const agentOrgBase: Org[] = [];
    for (let i = 0; i < AGENTS; i++) agentOrgBase.push(await newOrg(`Bench agent tests ${i}`));

    const started = await startVigil({
      BENCH_DATABASE_URL: db.url,
      BENCH_TEMPORAL_ADDRESS: address,
      BENCH_TASK_QUEUE: taskQueue,
      BENCH_MASTER_KEY: randomBytes(32).toString('hex'),
      BENCH_CLOUD_PROBE_ALLOW_CIDRS: ALLOW_CIDRS,
      BENCH_CLOUD_PROBE_TIMEOUT_MS: String(config.CLOUD_PROBE_TIMEOUT_MS),
      BENCH_PROBE_TEST_EXPIRY_MS: String(config.PROBE_TEST_EXPIRY_MS),
    });
    vigil = started.child;
    const apiUrl = `http://127.0.0.1:${started.port}`;
    api = apiClient(apiUrl);
    say(
      `Vigil (API + worker, cloud prober allowing ${ALLOW_CIDRS}) listening on 127.0.0.1:${started.port}; Temporal ${address}, task queue ${taskQueue}; database ${db.url}`,
    );
    say(
      `target ${target.url}; ${cloudOrgs.length} organizations for cloud tests (${CLOUD_PER_ORG} each); starting ${AGENTS} vigil-agent processes, one per organization…`,
    );

    const agentOrgs: AgentOrg[] = [];
    for (const [i, o] of agentOrgBase.entries()) {
      const res = await api.call<{ id: string; token: string }>(o.key, 'POST', '/v1/agents', {
        name: `bench-edge-${i}`,
      });
      if (res.status !== 201) throw new Error(`POST /v1/agents: ${res.status} ${JSON.stringify(res.body)}`);
      agentOrgs.push({ ...o, agentId: res.body.id, used: new Map() });
      agents.push(await startAgent(apiUrl, res.body.token));
    }
    say(`    ${agents.length} agents connected`);

    runner = new Runner(api, target.url, cloudOrgs, agentOrgs);
    say(`warm-up: ${WARMUP} of each…`);
    for (let i = 0; i < WARMUP; i++) await runner.iteration(i, true);
    const t0 = Date.now();
    const loadAtStart = os.loadavg()[0]!;
    for (let r = 0; r < ROUNDS; r++) {
      const n = Math.floor(N / ROUNDS) + (r < N % ROUNDS ? 1 : 0);
      const roundStart = Date.now();
      for (let i = 0; i < n; i++) await runner.iteration(i + r, false);
      const last = (k: Kind) =>
        stats(
          runner!.samples
            .filter((s) => s.kind === k && !s.warmup)
            .slice(-n)
            .map((s) => s.ms),
        );
      say(
        `round ${r + 1}/${ROUNDS}: ${n} of each in ${((Date.now() - roundStart) / 1000).toFixed(1)} s; p50 direct ${ms(last('direct').p50)}, cloud ${ms(last('cloud').p50)}, agent ${ms(last('agent').p50)}`,
      );
    }
    const measuredS = (Date.now() - t0) / 1000;
    const load: [number, number] = [loadAtStart, os.loadavg()[0]!];

    const of = (k: Kind) => runner!.samples.filter((s) => s.kind === k && !s.warmup).map((s) => s.ms);
    const a = stats(of('direct'));
    const ka = stats(of('keepalive'));
    const b = stats(of('cloud'));
    const c = stats(of('agent'));
    const cloudOverhead = b.p50 - a.p50;
    const agentOverhead = c.p50 - a.p50;
    const cloudMet = cloudOverhead < CLOUD_TARGET_MS;
    const agentMet = agentOverhead < AGENT_TARGET_MS;

    say('splitting the tests into stages (job rows and workflow histories)…');
    const rows = await orm.em
      .fork()
      .getConnection()
      .execute<JobRow[]>(
        `select id, organization_id, mode,
              (extract(epoch from created_at) * 1000)::float8 as created_ms,
              (extract(epoch from claimed_at) * 1000)::float8 as claimed_ms,
              (extract(epoch from completed_at) * 1000)::float8 as completed_ms
         from probe_test_jobs`,
      );
    const split = await breakdown(rows, runner.samples, temporal).catch((err: Error) => {
      say(`    WARNING: no breakdown: ${err.message}`);
      return null;
    });
    const stageLines = (stages: Stage[]) =>
      stages.map(([label, xs]) => `      ${label.padEnd(84)} ${xs.length ? fmt(stats(xs)) : 'n/a'}`);

    // The floor, in isolation: Vigil and the agents stopped, only Temporal and this process.
    for (const child of agents.splice(0)) await stopChild(child, 5_000);
    const leftovers = await terminateLeftovers(temporal).catch(() => 0);
    if (leftovers) say(`cleanup: terminated ${leftovers} workflows left running`);
    await stopChild(vigil);
    vigil = null;
    say(`measuring the Temporal floor in isolation (${FLOOR_N} of each after ${FLOOR_WARMUP}, Vigil stopped)…`);
    const floors = await measureTemporalFloors(address, 'default', FLOOR_N, FLOOR_WARMUP).catch((err: Error) => {
      say(`    WARNING: no floor: ${err.stack ?? err.message}`);
      return null;
    });

    const lines = [
      '',
      `================ bench/probe-test summary: Temporal ${LAYOUT_LABELS[layout]} ================`,
      `Temporal: ${server.describe}`,
      `${N} sequential requests of each kind in ${ROUNDS} interleaved rounds (order rotating a/b/c), after ${WARMUP} of each as warm-up; measured part ${measuredS.toFixed(1)} s (1-minute load average ${load[0].toFixed(2)} at its start, ${load[1].toFixed(2)} at its end, on ${os.cpus().length} CPUs)`,
      `target: node:http on ${target.url} answering 200 {} (${target.hits()} requests served)`,
      `(a) direct GET, undici, new connection per GET (the prober opens one per run): ${fmt(a)}`,
      `    (same GET on a kept-alive connection, for reference:               ${fmt(ka)})`,
      `(b) cloud probe test, POST /v1/metrics/test without agent_id:  ${fmt(b)}`,
      `    overhead median(b) − median(a): ${ms(cloudOverhead)} (target < ${CLOUD_TARGET_MS} ms: ${cloudMet ? 'MET' : 'MISSED'}); p99(b) − p99(a): ${ms(b.p99 - a.p99)}`,
      `(c) agent probe test, real vigil-agent, wait_seconds 20:       ${fmt(c)}`,
      `    overhead median(c) − median(a): ${ms(agentOverhead)} (target < ${AGENT_TARGET_MS} ms: ${agentMet ? 'MET' : 'MISSED'}); p99(c) − p99(a): ${ms(c.p99 - a.p99)}`,
      ...(split
        ? [
            '    where the time goes, (b) cloud, per test:',
            ...stageLines(split.cloud),
            '    where the time goes, (c) agent, per test:',
            ...stageLines(split.agent),
            ...(split.note ? [`    (note: ${split.note})`] : []),
            '    (stages from the client clock, job rows (ms resolution) and Temporal event times on one host; p50s of stages need not add up)',
          ]
        : []),
      ...(floors
        ? [
            `Temporal floor in isolation (Vigil stopped; a bare worker in the bench process; ${floors.n} sequential of each):`,
            `    eager start → first task ran its local activity (cloud test's Temporal part): ${fmt(floors.eagerActivity)}`,
            `    eager start → workflow result:                                             ${fmt(floors.eagerResult)}`,
            `    StartWorkflowExecution, plain (agent test's start):                        ${fmt(floors.start)}`,
            `    SignalWithStartWorkflowExecution (agent result to its workflow):           ${fmt(floors.signalWithStart)}`,
          ]
        : []),
      `probe-test limits (${PROBE_TEST_LIMITS.cloudPerMinute} cloud, ${PROBE_TEST_LIMITS.agentPerMinute} agent per organization and minute, constants): cloud tests rotate ${cloudOrgs.length} fresh organizations, ${CLOUD_PER_ORG} tests each;`,
      `    agent tests rotate ${AGENTS} organizations, each with one registered agent and its own vigil-agent process (one token per process), at most ${AGENT_PER_ORG_MINUTE} per organization and UTC minute` +
        (runner.minuteWaits
          ? `; waited ${runner.minuteWaits}× for a new minute (${(runner.minuteWaitMs / 1000).toFixed(1)} s, outside the measurements)`
          : '; no wait for a new minute was needed'),
      cloudMet && agentMet ? 'TARGETS MET' : 'TARGETS MISSED',
      '==========================================================',
    ];
    say(lines.join('\n'));
    return { layout, a, b, c, cloudOverhead, agentOverhead, floors, load };
  } finally {
    for (const child of agents) await stopChild(child, 5_000);
    if (temporal && vigil) {
      const n = await terminateLeftovers(temporal).catch(() => 0);
      if (n) say(`cleanup: terminated ${n} workflows left running`);
    }
    if (vigil) await stopChild(vigil);
    await runner?.close();
    await api?.close();
    await target.close();
    await temporal?.close();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
    await server?.stop();
  }
}

/** The layouts side by side: medians, overheads against their targets, and the floor beside each. */
function sideBySide(results: LayoutResult[]): string {
  const col = 30;
  const row = (label: string, cells: string[]) =>
    `${label.padEnd(62)}${cells.map((c) => c.padEnd(col)).join('')}`.trimEnd();
  const verdict = (x: number, target: number) => `${ms(x)} ${x < target ? 'MET' : 'MISSED'}`;
  const floor = (f: (fl: TemporalFloors) => Stats) => results.map((r) => (r.floors ? `${ms(f(r.floors).p50)}` : 'n/a'));
  const missed = results.filter((r) => r.cloudOverhead >= CLOUD_TARGET_MS || r.agentOverhead >= AGENT_TARGET_MS);
  return [
    '',
    '================ bench/probe-test: Temporal layouts side by side (medians) ================',
    row(
      '',
      results.map((r) => LAYOUT_LABELS[r.layout]),
    ),
    row(
      '(a) direct GET',
      results.map((r) => ms(r.a.p50)),
    ),
    row(
      '(b) cloud probe test',
      results.map((r) => ms(r.b.p50)),
    ),
    row(
      `    overhead b − a (target < ${CLOUD_TARGET_MS} ms)`,
      results.map((r) => verdict(r.cloudOverhead, CLOUD_TARGET_MS)),
    ),
    row(
      '    floor: eager start → local activity ran',
      floor((f) => f.eagerActivity),
    ),
    row(
      '    floor: eager start → workflow result',
      floor((f) => f.eagerResult),
    ),
    row(
      '(c) agent probe test',
      results.map((r) => ms(r.c.p50)),
    ),
    row(
      `    overhead c − a (target < ${AGENT_TARGET_MS} ms)`,
      results.map((r) => verdict(r.agentOverhead, AGENT_TARGET_MS)),
    ),
    row(
      '    floor: StartWorkflowExecution',
      floor((f) => f.start),
    ),
    row(
      '    floor: SignalWithStartWorkflowExecution',
      floor((f) => f.signalWithStart),
    ),
    row(
      'load average (1 min) at start / end of measurement',
      results.map((r) => `${r.load[0].toFixed(2)} / ${r.load[1].toFixed(2)}`),
    ),
    "(floors: the Temporal round trips alone on the same server, Vigil stopped; see each layout's summary for p99s)",
    ...missed.map(
      (r) =>
        `${LAYOUT_LABELS[r.layout]}: ${[r.cloudOverhead >= CLOUD_TARGET_MS ? `cloud ${ms(r.cloudOverhead)} over a floor of ${r.floors ? ms(r.floors.eagerActivity.p50) : 'n/a'}` : '', r.agentOverhead >= AGENT_TARGET_MS ? `agent ${ms(r.agentOverhead)} over a floor of ${r.floors ? ms(r.floors.start.p50) : 'n/a'}` : ''].filter(Boolean).join('; ')} (target missed)`,
    ),
    '',
    `reproduce: npm run build --silent && N=${N} WARMUP=${WARMUP} ROUNDS=${ROUNDS} AGENTS=${AGENTS}${process.env.TEMPORAL_ADDRESS ? ` TEMPORAL_ADDRESS=${process.env.TEMPORAL_ADDRESS}` : ` VIGIL_BENCH_TEMPORAL=${process.env.VIGIL_BENCH_TEMPORAL ?? 'both'}`} node dist/bench/probe-test.js`,
    `(${os.cpus().length} CPUs, Node ${process.version})`,
    results.every((r) => r.cloudOverhead < CLOUD_TARGET_MS && r.agentOverhead < AGENT_TARGET_MS)
      ? 'TARGETS MET in every layout'
      : 'TARGETS MISSED in some layout',
    '==========================================================================================',
  ].join('\n');
}

async function main(): Promise<void> {
  if (!Number.isInteger(N) || N < ROUNDS) throw new Error(`N must be an integer ≥ ROUNDS (${ROUNDS})`);
  const config = loadConfig();
  const results: LayoutResult[] = [];
  for (const layout of layouts(config)) results.push(await runLayout(layout, config));
  say(sideBySide(results));
}

runMain(main);
