import { runMain } from './child-server';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { dropDatabase } from '../src/launchers/postgres';
import { getFreePort } from '../src/launchers/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../src/launchers/temporal-dev-server';
import { connectTemporal } from '../src/temporal/connection';
import { type ApiClient, apiClient, expectStatus } from './support/api-client';
import { startTarget } from './loopback-target';
import { forEach } from './support/load';
import { type Stats, stats, postgresCpu, procCpu } from './support/measure';
import { benchOrganization } from './support/seed';
import { benchDatabase } from './support/processes';
import { onlineLocations } from '../src/db/repositories/location-repository';
import { demoSourceAddress } from '../src/domain/locations';
import {
  type DriftFigures,
  type Proc,
  agentDrift,
  cloudDrift,
  loadavg,
  procRss,
  roundTimeline,
  spawnProc,
  stopProc,
  waitForOutput,
} from './scale-support';
import { plannedRunAt } from '../src/domain/metric-buckets';
import type { Client as TemporalClient } from '@temporalio/client';

/**
 * bench/scale: many scheduled metrics at once. METRICS http metrics every
 * INTERVAL seconds against a loopback target, split between one real `vigil-agent` process
 * (bin/vigil-agent.js) and the cloud, where LOCATIONS probe locations check every cloud metric
 * each round (one `vigil-prober` process per location, `node dist/src/cli/prober.js`,
 * each bound to its own loopback source address 127.0.0.11, .12, … and without DATABASE_URL; the
 * worker plans and records the rounds and runs no location of its own; LOCATIONS=0: the worker's
 * built-in location, as a plain `npm start`). The target is reached through
 * CLOUD_PROBE_ALLOW_CIDRS=127.0.0.0/8, the documented allow-list. Every process runs as in
 * production, each on its own: the Temporal dev server (Temporal CLI v1.5.1, SQLite in a file, as
 * `vigil start` keeps it), `node dist/src/cli/api.js`, `node dist/src/cli/worker.js` (with the
 * prebuilt workflow bundle, VIGIL_WORKFLOW_BUNDLE), the probers, the agent; a fresh database on the local
 * PostgreSQL server (or DATABASE_URL's). The organization is on the enterprise plan (no metric
 * quota; its rate limits raised for the setup) and every metric is created through the API
 * (POST /v1/metrics, VIGIL_SCALE_CREATE_CONCURRENCY at once, 32 by default), so the cloud metrics get their
 * Schedules as in production; the warm-up starts once the first checks those creates started are done.
 *
 * After WARMUP seconds the bench measures SECONDS seconds and reports:
 *   - schedule drift, a sample's time minus its planned run: cloud metrics against their
 *     Schedule's nominal tick, agent metrics against the agent's timer (see scale-support.ts),
 *     p50 / p99 / max per side, and the runs that stored no sample;
 *   - samples stored per second (rows of metric_samples sampled in the window), against the
 *     nominal rate METRICS / INTERVAL (the baseline: the ratio is what was kept of the promise);
 *   - the checks each location ran (requests from its source address), and the CPU each process
 *     spent per cloud check;
 *   - CPU seconds and resident memory of each process (API, worker, probers, Temporal, agent, this
 *     database's PostgreSQL backends, the bench itself with the target), and Temporal's share of
 *     the CPU used;
 *   - the load average before and after (the machine is shared).
 * Target: drift p99 < 1 s on both sides.
 *
 *   npm run bench:scale
 *   (VIGIL_SCALE_METRICS=10000 VIGIL_SCALE_SECONDS=300 VIGIL_SCALE_CLOUD_SHARE=0.5
 *    VIGIL_SCALE_INTERVAL=30 VIGIL_SCALE_WARMUP=<2 intervals> VIGIL_SCALE_LOCATIONS=3)
 *   The multi-location figure, 10,000 cloud metrics from 3 locations: VIGIL_SCALE_CLOUD_SHARE=1.
 */
const METRICS = Number(process.env.VIGIL_SCALE_METRICS ?? 10_000);
const SECONDS = Number(process.env.VIGIL_SCALE_SECONDS ?? 300);
const CLOUD_SHARE = Number(process.env.VIGIL_SCALE_CLOUD_SHARE ?? 0.5);
const INTERVAL = Number(process.env.VIGIL_SCALE_INTERVAL ?? 30);
const WARMUP = Number(process.env.VIGIL_SCALE_WARMUP ?? 2 * INTERVAL);
const LOCATIONS = Number(process.env.VIGIL_SCALE_LOCATIONS ?? 3);
const CREATE_CONCURRENCY = Number(process.env.VIGIL_SCALE_CREATE_CONCURRENCY ?? 32);
/** Node flags for the probers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prober-profiles" (where a prober's CPU goes). */
const PROBER_NODE_ARGS = (process.env.VIGIL_SCALE_PROBER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TARGET_P99_MS = 1_000;
const ALLOW_CIDRS = '127.0.0.0/8';
const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 1000,
  unhealthy_operation: 'over',
  unhealthy_value: 5000,
};

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const msf = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : 'n/a');
const fmt = (s: Stats) => `p50 ${msf(s.p50)}, p99 ${msf(s.p99)}, max ${msf(s.max)}`;

interface CpuSnapshot {
  procs: Map<string, number | null>;
  /** CPU seconds by PostgreSQL pid: backends come and go, so the window counts per pid. */
  postgres: Map<number, number>;
  bench: number;
}

/** PostgreSQL CPU between two snapshots: each pid's growth, a new pid's whole use (a backend's use after it was last seen is not counted). */
const postgresDelta = (a: CpuSnapshot, b: CpuSnapshot) =>
  [...b.postgres].reduce((sum, [pid, cpu]) => sum + cpu - Math.min(cpu, a.postgres.get(pid) ?? 0), 0);

async function cpuSnapshot(procs: Proc[], temporalPid: number | undefined, pg: PgClient): Promise<CpuSnapshot> {
  const m = new Map<string, number | null>();
  for (const p of procs) m.set(p.name, procCpu(p.pid));
  m.set('Temporal dev server', temporalPid ? procCpu(temporalPid) : null);
  const u = process.cpuUsage();
  return { procs: m, postgres: await postgresCpu(pg), bench: (u.user + u.system) / 1e6 };
}

/**
 * Where the rounds' time went, from their Temporal histories (up to 120 rounds, the slowest
 * first): the Schedule's lateness (workflow start − planned tick), workflow task pickup waits,
 * each location batch's pickup wait and run, the payload bytes a round writes into history, and
 * the slowest round step by step.
 */
async function roundPhases(
  client: TemporalClient,
  runs: Array<{ workflowId: string; runId: string; ms: number; startMs: number }>,
  interval: number,
): Promise<string[]> {
  if (!runs.length) return [];
  const chosen = [...runs].sort((a, b) => b.ms - a.ms).slice(0, 120);
  const startLate: number[] = [];
  const taskWaits: number[] = [];
  const firstTaskWaits: number[] = [];
  const pickups: number[] = [];
  const batchRuns: number[] = [];
  const bytes: number[] = [];
  const totals: number[] = [];
  let slowest: string[] = [];
  for (const r of chosen) {
    const history = await client.workflow.getHandle(r.workflowId, r.runId).fetchHistory();
    const t = roundTimeline((history.events ?? []) as never);
    const m = /:(\d+):(\d+)-\d{4}-/.exec(r.workflowId);
    if (m) startLate.push(r.startMs - plannedRunAt({ intervalSeconds: Number(m[1]), slot: Number(m[2]) }, r.startMs));
    taskWaits.push(...t.taskWaitsMs.slice(1));
    if (t.taskWaitsMs.length) firstTaskWaits.push(t.taskWaitsMs[0]!);
    for (const s of t.steps) {
      const a = /picked up after (\d+) ms, ran (\d+) ms/.exec(s);
      if (a && s.includes('probe:')) {
        pickups.push(Number(a[1]));
        batchRuns.push(Number(a[2]));
      }
    }
    bytes.push(t.historyBytes);
    totals.push(t.totalMs);
    if (r === chosen[0])
      slowest = [
        `    the slowest round (${r.workflowId}, ${t.events} events, ${t.historyBytes} payload bytes):`,
        ...t.steps.map((s) => `      ${s}`),
      ];
  }
  const f = (xs: number[]) => {
    const s = stats(xs);
    return `p50 ${s.p50.toFixed(0)}, p99 ${s.p99.toFixed(0)}, max ${s.max.toFixed(0)} (n ${s.n})`;
  };
  void interval;
  return [
    `  round phases (ms) of the ${chosen.length} slowest rounds of ${runs.length}, from their histories:`,
    `    Schedule lateness (workflow start − planned tick): ${f(startLate)}`,
    `    first workflow task pickup: ${f(firstTaskWaits)}; later workflow task pickups: ${f(taskWaits)}`,
    `    location batch pickup: ${f(pickups)}; batch run: ${f(batchRuns)}`,
    `    round duration: ${f(totals)}; payload bytes in history per round: ${f(bytes)}`,
    ...slowest,
  ];
}

async function main(): Promise<void> {
  if (!(
    METRICS > 0 &&
    SECONDS > 0 &&
    INTERVAL >= 5 &&
    CLOUD_SHARE >= 0 &&
    CLOUD_SHARE <= 1 &&
    Number.isInteger(LOCATIONS) &&
    LOCATIONS >= 0 &&
    LOCATIONS <= 20
  )) {
    throw new Error(
      'check VIGIL_SCALE_METRICS, VIGIL_SCALE_SECONDS, VIGIL_SCALE_INTERVAL (>= 5), VIGIL_SCALE_CLOUD_SHARE (0..1), VIGIL_SCALE_LOCATIONS (0..20)',
    );
  }
  const cloudCount = Math.round(METRICS * CLOUD_SHARE);
  const agentCount = METRICS - cloudCount;
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 4 });
  const pg = new PgClient({ connectionString: db.url });
  const tmp = path.join(os.tmpdir(), `vigil-bench-scale-${process.pid}`);
  let devServer: RunningTemporal | null = null;
  let api: Proc | null = null;
  let worker: Proc | null = null;
  let agent: Proc | null = null;
  const probers: Proc[] = [];
  let client: ApiClient | null = null;
  // Counts checks per location (source address); closes first (see startTarget).
  const target = await startTarget({ closeConnections: true });
  const loadStart = loadavg();
  try {
    say(
      `bench/scale: ${METRICS} http metrics every ${INTERVAL} s (${cloudCount} cloud from ${LOCATIONS ? `${LOCATIONS} prober processes` : "the worker's built-in location"}, ${agentCount} on one agent), warm-up ${WARMUP} s, measured ${SECONDS} s; ${os.cpus().length} cores, load ${loadStart}`,
    );
    await migrate(orm);
    await pg.connect();

    // ------------------------------------------------------------------ processes
    const dist = path.join(__dirname, '..');
    const bundle = path.join(tmp, 'workflow-bundle.js');
    await new Promise<void>((resolve, reject) => {
      const b = spawn(process.execPath, [path.join(dist, 'src', 'cli', 'bundle-workflows.js'), bundle], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      b.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bundle-workflows exited with ${code}`))));
    });
    devServer = await startTemporalDevServer({
      cacheDir: config.VIGIL_CACHE_DIR,
      dbFile: path.join(tmp, 'temporal.db'),
      logFile: path.join(tmp, 'temporal.log'),
    });
    const taskQueue = `bench-scale-${randomUUID()}`;
    const common: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: devServer.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      VIGIL_MASTER_KEY: randomBytes(32).toString('hex'),
      VIGIL_DATA_DIR: tmp,
      VIGIL_SEED_DEV: 'false',
      MAIL_OUTBOX_DIR: path.join(tmp, 'mail'),
    };
    const apiPort = await getFreePort('127.0.0.1');
    api = spawnProc('API', path.join(dist, 'src', 'cli', 'api.js'), {
      ...common,
      PORT: String(apiPort),
      LOG_LEVEL: 'warn',
    });
    // With prober processes the worker runs no location of its own: it plans and records the rounds.
    worker = spawnProc('worker', path.join(dist, 'src', 'cli', 'worker.js'), {
      ...common,
      LOG_LEVEL: 'info',
      CLOUD_PROBE_ALLOW_CIDRS: ALLOW_CIDRS,
      VIGIL_WORKFLOW_BUNDLE: bundle,
      VIGIL_WORKER_LOCATION: LOCATIONS > 0 ? 'false' : 'true',
    });
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    const readyBy = Date.now() + 120_000;
    for (;;) {
      const ok = await fetch(`${baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (api.child.exitCode !== null || Date.now() > readyBy)
        throw new Error(`the API did not get ready:\n${api.output().slice(-4000)}`);
      await sleep(250);
    }
    await waitForOutput(worker, /worker running/, 120_000);
    // The probe locations, as an operator runs them: Temporal only (no database), each from its own source address.
    const locationIds = Array.from({ length: LOCATIONS }, (_, i) => `bench-${i + 1}`);
    const sourceOf = new Map(locationIds.map((id, i) => [id, demoSourceAddress(i)]));
    for (const id of locationIds) {
      const { DATABASE_URL: _db, VIGIL_MASTER_KEY: _key, ...temporalOnly } = common;
      probers.push(
        spawnProc(
          `prober ${id}`,
          path.join(dist, 'src', 'cli', 'prober.js'),
          {
            ...temporalOnly,
            LOG_LEVEL: 'info',
            VIGIL_LOCATION: id,
            VIGIL_LOCATION_LABEL: `Bench location ${id}`,
            VIGIL_PROBE_SOURCE_ADDRESS: sourceOf.get(id)!,
            CLOUD_PROBE_ALLOW_CIDRS: ALLOW_CIDRS,
          },
          PROBER_NODE_ARGS,
        ),
      );
    }
    await Promise.all(probers.map((p) => waitForOutput(p, /prober running/, 120_000)));
    const expectedOnline = LOCATIONS > 0 ? locationIds : ['local'];
    for (const by = Date.now() + 60_000; ;) {
      const online = (await onlineLocations(orm.em.fork() as never, taskQueue, new Date())).map((l) => l.id);
      if (expectedOnline.every((id) => online.includes(id))) break;
      if (Date.now() > by)
        throw new Error(
          `the locations did not come online: ${online.join(', ') || 'none'} of ${expectedOnline.join(', ')}`,
        );
      await sleep(250);
    }
    say(
      `processes: Temporal ${devServer.address} (pid ${devServer.pid}), API ${baseUrl} (pid ${api.pid}), worker (pid ${worker.pid}), ${probers.map((p) => `${p.name} (pid ${p.pid}, from ${sourceOf.get(p.name.slice('prober '.length))})`).join(', ') || "the worker's built-in location"}, task queue ${taskQueue}`,
    );

    // ------------------------------------------------------------------ organization, agent, metrics
    const now = new Date();
    const { key } = await benchOrganization(orm, 'Bench scale', now);
    client = apiClient(baseUrl, key.plaintext, CREATE_CONCURRENCY);
    const service = await client.call('POST', '/v1/services', { name: 'Scale' });
    expectStatus(service, 201, 'POST /v1/services');
    const reg = await client.call('POST', '/v1/agents', { name: 'scale-agent' });
    expectStatus(reg, 201, 'POST /v1/agents');
    agent = spawnProc('agent', path.join(dist, '..', 'bin', 'vigil-agent.js'), {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      VIGIL_API_URL: baseUrl,
      VIGIL_AGENT_TOKEN: reg.body.token,
      VIGIL_OTLP_DISABLE: 'true',
    });
    await waitForOutput(agent, /running/, 60_000);

    const createT0 = Date.now();
    const cloudIds: string[] = [];
    const agentIds: string[] = [];
    await forEach(METRICS, CREATE_CONCURRENCY, async (i) => {
      const onAgent = i % METRICS >= cloudCount;
      const res = await client!.call('POST', '/v1/metrics', {
        service_id: service.body.id,
        name: `m${i}`,
        source_type: 'http',
        source_config: { url: `${target.origin}/m/${i}` },
        thresholds: THRESHOLDS,
        interval_seconds: INTERVAL,
        ...(onAgent ? { agent_id: reg.body.id } : {}),
      });
      expectStatus(res, 201, `POST /v1/metrics #${i}`);
      (onAgent ? agentIds : cloudIds).push(res.body.id);
    });
    const createMs = Date.now() - createT0;
    say(
      `setup: ${METRICS} metrics created over the API in ${secs(createMs)} (${((METRICS * 1000) / createMs).toFixed(0)}/s, ${CREATE_CONCURRENCY} at once)`,
    );

    // Every cloud create is checked once at once, coalesced (metricFirstChecksWorkflow, one per
    // installation): the window measures the steady state, so it waits until each cloud metric has
    // its first sample, and counts the workflows the creates started (a handful, not one per metric).
    const drainT0 = Date.now();
    let firstCheckRuns = 0;
    {
      for (const by = Date.now() + 30 * 60_000; Date.now() < by; await sleep(2_000)) {
        const { rows } = await pg.query<{ n: string }>(
          `select count(distinct metric_id) as n from metric_samples where metric_id = any($1::uuid[])`,
          [cloudIds],
        );
        if (Number(rows[0]!.n) >= cloudIds.length) break;
      }
      const t = await connectTemporal({ address: devServer.address, namespace: 'default', taskQueue });
      try {
        firstCheckRuns = (await t.client.workflow.count(`WorkflowType = 'metricFirstChecksWorkflow'`)).count;
        const perMetric = (await t.client.workflow.count(`WorkflowType = 'cloudMetricCheckWorkflow'`)).count;
        if (perMetric > 0) say(`setup: ${perMetric} per-metric first checks (cloudMetricCheckWorkflow) ran`);
      } finally {
        await t.close();
      }
    }
    say(
      `setup: every cloud metric had its first sample ${secs(Date.now() - drainT0)} after the last create (${firstCheckRuns} metricFirstChecksWorkflow runs)`,
    );

    // ------------------------------------------------------------------ warm-up, then the window
    say(`warm-up ${WARMUP} s…`);
    await sleep(WARMUP * 1000);
    const procs = [api, worker, ...probers, agent];
    const cpu0 = await cpuSnapshot(procs, devServer.pid, pg);
    const hits0 = target.hits();
    const byAddress0 = target.hitsByAddress();
    // PostgreSQL backends come and go (pools close idle connections): the last CPU seen of each, every 30 s.
    const pgSeen = new Map(cpu0.postgres);
    const t0 = Date.now();
    const loadFrom = loadavg();
    say(`measuring ${SECONDS} s from ${new Date(t0).toISOString()} (load ${loadFrom})…`);
    while (Date.now() < t0 + SECONDS * 1000) {
      await sleep(Math.min(30_000, t0 + SECONDS * 1000 - Date.now()));
      for (const [pid, cpu] of await postgresCpu(pg)) pgSeen.set(pid, cpu);
      const { rows } = await pg.query<{ n: string }>(
        `select count(*) as n from metric_samples where sampled_at >= $1`,
        [new Date(t0)],
      );
      say(`    +${secs(Date.now() - t0)}: ${rows[0]!.n} samples stored so far, load ${loadavg()}`);
    }
    const t1 = t0 + SECONDS * 1000;
    const cpu1 = await cpuSnapshot(procs, devServer.pid, pg);
    for (const [pid, cpu] of cpu1.postgres) pgSeen.set(pid, cpu);
    cpu1.postgres = pgSeen;
    const hits = target.hits() - hits0;
    const byAddress1 = target.hitsByAddress();
    const checksFrom = (address: string) => (byAddress1.get(address) ?? 0) - (byAddress0.get(address) ?? 0);
    const loadTo = loadavg();
    const rss = new Map(procs.map((p) => [p.name, procRss(p.pid)]));
    rss.set('Temporal dev server', devServer.pid ? procRss(devServer.pid) : null);
    rss.set('bench (driver + target)', procRss(process.pid));

    // Late runs of ticks planned inside the window, and the agent's last batch, arrive afterwards.
    const grace = Math.min(INTERVAL, 30) * 1000;
    await sleep(grace);
    const { rows } = await pg.query<{ metric_id: string; sampled_at: Date }>(
      `select metric_id, sampled_at from metric_samples where sampled_at >= $1 and sampled_at < $2`,
      [new Date(t0 - INTERVAL * 1000), new Date(t1 + grace)],
    );
    const cloudSet = new Set(cloudIds);
    const samples = rows.map((r) => ({ metricId: r.metric_id, sampledAtMs: r.sampled_at.getTime() }));
    const cloudRows = samples.filter((r) => cloudSet.has(r.metricId));
    const agentRows = samples.filter((r) => !cloudSet.has(r.metricId));
    const storedInWindow = samples.filter((r) => r.sampledAtMs >= t0 && r.sampledAtMs < t1).length;

    // Which design ran the cloud metrics: bucket Schedules or one Schedule per metric.
    const temporal = await connectTemporal({ address: devServer.address, namespace: 'default', taskQueue });
    let bucketSchedules = 0;
    let metricSchedules = 0;
    const skipped = { overlap: 0, catchup: 0, unknown: 0 };
    for await (const s of temporal.client.schedule.list()) {
      if (s.scheduleId.startsWith('metric-bucket:')) {
        bucketSchedules++;
        // A Temporal server starved of CPU may time a describe out: the figures still get reported.
        const d = await temporal.client.schedule
          .getHandle(s.scheduleId)
          .describe()
          .catch(() => null);
        if (!d) skipped.unknown++;
        else {
          skipped.overlap += d.info.numActionsSkippedOverlap;
          skipped.catchup += d.info.numActionsMissedCatchupWindow;
        }
      } else if (s.scheduleId.startsWith('metric:')) metricSchedules++;
    }
    // The rounds of the window (bucket runs started in it): how they ended, and the locations that did not answer.
    const roundsSeen = {
      completed: 0,
      other: new Map<string, number>(),
      metrics: 0,
      stored: 0,
      unanswered: 0,
      unlocated: 0,
      locationMisses: 0,
      maxMs: 0,
    };
    const roundRuns: Array<{ workflowId: string; runId: string; ms: number; startMs: number }> = [];
    for await (const w of temporal.client.workflow.list({
      query: `WorkflowType = 'cloudMetricBucketWorkflow' AND StartTime >= '${new Date(t0).toISOString()}' AND StartTime < '${new Date(t1).toISOString()}'`,
    })) {
      if (w.status.name !== 'COMPLETED') {
        roundsSeen.other.set(w.status.name, (roundsSeen.other.get(w.status.name) ?? 0) + 1);
        roundRuns.push({
          workflowId: w.workflowId,
          runId: w.runId,
          ms: (w.closeTime?.getTime() ?? Date.now()) - w.startTime.getTime(),
          startMs: w.startTime.getTime(),
        });
        continue;
      }
      roundsSeen.completed++;
      if (w.closeTime) {
        roundsSeen.maxMs = Math.max(roundsSeen.maxMs, w.closeTime.getTime() - w.startTime.getTime());
        roundRuns.push({
          workflowId: w.workflowId,
          runId: w.runId,
          ms: w.closeTime.getTime() - w.startTime.getTime(),
          startMs: w.startTime.getTime(),
        });
      }
      const r = (await temporal.client.workflow.getHandle(w.workflowId, w.runId).result()) as {
        metrics: number;
        stored: number;
        unanswered?: number;
        unlocated?: number;
        locations?: { asked: string[]; answered: string[] };
      };
      roundsSeen.metrics += r.metrics;
      roundsSeen.stored += r.stored;
      roundsSeen.unanswered += r.unanswered ?? 0;
      roundsSeen.unlocated += r.unlocated ?? 0;
      roundsSeen.locationMisses += (r.locations?.asked.length ?? 0) - (r.locations?.answered.length ?? 0);
    }
    const phases = await roundPhases(temporal.client, roundRuns, INTERVAL).catch((err: Error) => [
      `  round phases: not read (${err.message})`,
    ]);
    await temporal.close();
    const grid = bucketSchedules > 0 ? 'bucket' : 'per-metric';
    const cloud = cloudDrift(cloudRows, INTERVAL, grid, cloudIds, t0, t1);
    const agentFig = agentDrift(agentRows, INTERVAL, agentIds, t0, t1);

    // ------------------------------------------------------------------ report
    const perSecond = storedInWindow / SECONDS;
    const nominal = METRICS / INTERVAL;
    const cpuRows: Array<[string, number | null]> = [];
    for (const [name, before] of cpu0.procs) {
      const after = cpu1.procs.get(name);
      cpuRows.push([name, before !== null && after !== null && after !== undefined ? after - before : null]);
    }
    cpuRows.push(['PostgreSQL (this database + background)', postgresDelta(cpu0, cpu1)]);
    cpuRows.push(['bench (driver + target)', cpu1.bench - cpu0.bench]);
    const total = cpuRows.reduce((a, [, c]) => a + (c ?? 0), 0);
    const temporalCpu = cpuRows.find(([n]) => n === 'Temporal dev server')?.[1] ?? null;
    // Cloud checks in the window: each location's requests (its own source address); the built-in
    // location shares 127.0.0.1 with the agent, so there the cloud checks are the cloud samples.
    const perLocation = locationIds.map((id) => [id, checksFrom(sourceOf.get(id)!)] as const);
    const cloudChecks =
      LOCATIONS > 0
        ? perLocation.reduce((a, [, n]) => a + n, 0)
        : cloudRows.filter((r) => r.sampledAtMs >= t0 && r.sampledAtMs < t1).length;
    const perCheck = (cpu: number | null, checks: number) =>
      cpu === null || checks === 0 ? 'n/a' : `${((1000 * cpu) / checks).toFixed(3)} ms`;
    const cpuOf = (name: string) => cpuRows.find(([n]) => n === name)?.[1] ?? null;
    const side = (name: string, f: DriftFigures, n: number) =>
      `    ${name} (${n} metrics): ${fmt(f.drift)}; ${f.samples} runs measured, ${f.missed} of ${f.expected} planned runs without a sample`;
    const met = (f: DriftFigures, n: number) => n === 0 || (f.drift.p99 < TARGET_P99_MS && f.samples > 0);
    const lines = [
      '',
      `Results (${METRICS} metrics every ${INTERVAL} s, ${SECONDS} s window; load before ${loadStart}, at the window's start ${loadFrom}, at its end ${loadTo}; ${os.cpus().length} cores)`,
      `  design: ${grid === 'bucket' ? `cloud metrics on ${bucketSchedules} bucket Schedules (metric-bucket:<task queue>:<interval>:<slot>)` : `one Schedule per cloud metric (${metricSchedules} metric:<id>)`}; metrics created in ${secs(createMs)}`,
      `  drift, actual − planned run time (target p99 < ${TARGET_P99_MS} ms):`,
      side('cloud', cloud, cloudCount),
      side('agent', agentFig, agentCount),
      `  rounds started in the window: ${roundsSeen.completed} completed${[...roundsSeen.other].map(([k, n]) => `, ${n} ${k.toLowerCase()}`).join('')}, the longest ${secs(roundsSeen.maxMs)}; ${roundsSeen.stored} samples stored of ${roundsSeen.metrics} metric rounds; ${roundsSeen.locationMisses} location batches unanswered, ${roundsSeen.unanswered} metric rounds no location answered, ${roundsSeen.unlocated} without an online location; bucket ticks skipped since setup: ${skipped.overlap} (a round still running), ${skipped.catchup} (past the catch-up window)${skipped.unknown ? `, ${skipped.unknown} Schedules not described (Temporal timed out)` : ''}`,
      `  samples stored: ${storedInWindow} sampled in the window = ${perSecond.toFixed(1)}/s; nominal ${nominal.toFixed(1)}/s; ratio stored / nominal ${(perSecond / nominal).toFixed(3)} (target hits ${hits}, ${(hits / SECONDS).toFixed(1)}/s)`,
      `  cloud checks in the window: ${cloudChecks} = ${(cloudChecks / SECONDS).toFixed(1)}/s (nominal ${((cloudCount * Math.max(1, LOCATIONS)) / INTERVAL).toFixed(1)}/s)${perLocation.length ? `; per location ${perLocation.map(([id, n]) => `${id} ${n}`).join(', ')}` : ''}`,
      `  CPU per cloud check: ${[...probers.map((p) => `${p.name} ${perCheck(cpuOf(p.name), checksFrom(sourceOf.get(p.name.slice('prober '.length))!))}`), `worker ${perCheck(cpuOf('worker'), cloudChecks)}`, `Temporal ${perCheck(temporalCpu, cloudChecks)}`, `PostgreSQL ${perCheck(cpuOf('PostgreSQL (this database + background)'), cloudChecks)}`].join('; ')}${agentCount ? " (worker, Temporal and PostgreSQL per cloud check; PostgreSQL also stores the agent's samples)" : ''}`,
      `  CPU over the window (seconds; cores busy; share of the total):`,
      ...cpuRows.map(
        ([n, c]) =>
          `    ${n.padEnd(42)} ${c === null ? 'n/a' : `${c.toFixed(1)} s  ${(c / SECONDS).toFixed(2)} cores  ${((100 * c) / total).toFixed(1)} %`}`,
      ),
      `    ${'total'.padEnd(42)} ${total.toFixed(1)} s  ${(total / SECONDS).toFixed(2)} cores`,
      `  Temporal's share of the CPU: ${temporalCpu === null ? 'n/a' : `${((100 * temporalCpu) / total).toFixed(1)} %`}; CPU per stored sample: ${((1000 * total) / Math.max(1, storedInWindow)).toFixed(2)} ms`,
      `  memory at the window's end (RSS / peak, MiB): ${[...rss].map(([n, r]) => `${n} ${r ? `${r.rss.toFixed(0)} / ${r.peak.toFixed(0)}` : 'n/a'}`).join('; ')} (PostgreSQL not counted: shared buffers)`,
      ...phases,
      `  ${met(cloud, cloudCount) && met(agentFig, agentCount) ? 'TARGET MET' : 'TARGET MISSED'}: drift p99 cloud ${msf(cloud.drift.p99)}, agent ${msf(agentFig.drift.p99)} (< ${TARGET_P99_MS} ms)`,
    ];
    say(lines.join('\n'));
  } finally {
    await client?.close().catch(() => undefined);
    await stopProc(agent);
    for (const p of probers) await stopProc(p);
    await stopProc(worker);
    await stopProc(api);
    await devServer?.stop().catch(() => undefined);
    await target.close();
    await pg.end().catch(() => undefined);
    await orm.close().catch(() => undefined);
    await dropDatabase(db.url).catch((err) => say(`could not drop ${db.url}: ${(err as Error).message}`));
    await import('node:fs/promises').then((fs) => fs.rm(tmp, { recursive: true, force: true }));
  }
}

runMain(main);
