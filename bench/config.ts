import { type ApiClient, apiClient, expectStatus } from './support/api-client';
import { runMain } from './child-server';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { dropDatabase } from '../src/launchers/postgres';
import type { ApiProcessEnv } from './api-process';
import { postgresCpu, procCpu, waitUntilQuiet, median } from './support/measure';
import { forEach } from './support/load';
import { benchOrganization } from './support/seed';
import { benchDatabase, startVigilProcess, stopChild } from './support/processes';

/**
 * bench/config: config as code, a document of SERVICES services and METRICS metrics
 * (60% http/tcp run by an agent, 20% manual, 20% heartbeat), one SLO per service and one status
 * page showing every service, against the real API in a child process (bench/api-process.ts,
 * no Temporal) on a fresh database, organizations on plan enterprise (no quotas, rate limits
 * raised). Every figure against a baseline of the same run:
 *   (1) plan: POST /v1/config/apply?dry_run=true on an organization holding only the agent; median of RUNS.
 *   (2) apply: POST /v1/config/apply on a fresh organization (agent only) per run; median of APPLY_RUNS.
 *       Baseline: the same services and metrics created one by one through POST /v1/services, then
 *       POST /v1/metrics, CONCURRENCY requests in flight on the same client, on a fresh
 *       organization per run (alternating with the applies); the document's SLOs and page one by
 *       one after them are shown apart.
 *   (3) no-change re-apply of the document to the first applied organization; median of RUNS.
 *       Target: < 2 s. Baseline: GET /v1/config/export of that organization.
 *   (4) plan of the document with 10% of the metrics' thresholds changed, on that organization;
 *       median of RUNS, against the same export.
 * (1), (3), (4) and the export run round-robin. Before each measured request the agent heartbeats
 * (so it is online, as a running agent is, and the plan carries no warnings) and the Vigil process
 * is let go quiet; measured: wall time of the request (client serializing the body to the last
 * byte of the answer), CPU of the Vigil process and of PostgreSQL (this database's backends and
 * its background processes) over it. One warm-up of each path first, unmeasured.
 *
 *   npm run bench:config
 *   (SERVICES=100 METRICS=1000 RUNS=5 APPLY_RUNS=3 CONCURRENCY=8 POOL_MAX=10 WARMUP=1;
 *    VIGIL_NODE_ARGS adds node flags to the API process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const SERVICES = Number(process.env.SERVICES ?? 100);
const METRICS = Number(process.env.METRICS ?? 1000);
const RUNS = Number(process.env.RUNS ?? 5);
const APPLY_RUNS = Number(process.env.APPLY_RUNS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const POOL_MAX = Number(process.env.POOL_MAX ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 1) > 0;
const REAPPLY_TARGET_MS = 2_000;
const AGENT = 'bench-agent';
/** Services per status page group (a group shows at most 100 components, a page at most 50 groups). */
const GROUP_SIZE = 10;
/** Percent of the metrics whose thresholds (4) changes. */
const CHANGED_PERCENT = 10;

const say = (line: string) => console.log(line);
const ms = (x: number) => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(0)} ms`);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const pad = (n: number) => String(n).padStart(3, '0');

// ---------------------------------------------------------------------------------------------
// The document

type Kind = 'http' | 'tcp' | 'manual' | 'heartbeat';
/** By the metric's index modulo 10: 60% on the agent (http, tcp alternating), 20% manual, 20% heartbeat. */
const KIND_BY_SLOT: Kind[] = [
  'http',
  'tcp',
  'http',
  'tcp',
  'http',
  'tcp',
  'manual',
  'manual',
  'heartbeat',
  'heartbeat',
];
/** The slots with thresholds (all but manual); (4) changes one metric in ten, its slot rotating. */
const THRESHOLD_SLOTS = [0, 1, 2, 3, 4, 5, 8, 9];

const serviceOf = (g: number) => Math.floor((g * SERVICES) / METRICS);
const changedMetric = (g: number) => g % 10 === THRESHOLD_SLOTS[Math.floor(g / 10) % THRESHOLD_SLOTS.length];

function thresholdsOf(kind: Kind, changed: boolean) {
  const bump = changed ? 50 : 0;
  if (kind === 'http')
    return {
      healthy_operation: 'under',
      healthy_value: 300 + bump,
      unhealthy_operation: 'over',
      unhealthy_value: 1000 + bump,
    };
  if (kind === 'tcp')
    return {
      healthy_operation: 'under',
      healthy_value: 50 + bump,
      unhealthy_operation: 'over',
      unhealthy_value: 250 + bump,
    };
  if (kind === 'heartbeat')
    return {
      healthy_operation: 'under',
      healthy_value: 120 + bump,
      unhealthy_operation: 'over',
      unhealthy_value: 600 + bump,
    };
  return undefined;
}

interface MetricEntry {
  config_key: string;
  service: string;
  name: string;
  source_type: Kind;
  source_config: Record<string, unknown>;
  thresholds?: Record<string, unknown>;
  interval_seconds?: number;
  agent?: string;
}

interface BenchDocument {
  version: 1;
  services: { config_key: string; name: string; description: string }[];
  metrics: MetricEntry[];
  slos: {
    config_key: string;
    name: string;
    service: string;
    objective: string;
    window: { kind: 'rolling'; days: number };
  }[];
  status_pages: {
    config_key: string;
    subdomain: string;
    title: string;
    description: string;
    groups: { name: string; components: { service: string }[] }[];
  }[];
}

function benchDocument(subdomain: string, changeThresholds = false): BenchDocument {
  const svc = (s: number) => `svc-${pad(s)}`;
  const metrics = Array.from({ length: METRICS }, (_, g): MetricEntry => {
    const s = serviceOf(g);
    const kind = KIND_BY_SLOT[g % 10]!;
    const thresholds = thresholdsOf(kind, changeThresholds && changedMetric(g));
    const base = {
      config_key: `${svc(s)}-m${pad(g)}`,
      service: svc(s),
      source_type: kind,
      ...(thresholds ? { thresholds } : {}),
    };
    switch (kind) {
      case 'http':
        return {
          ...base,
          name: `Service ${s} HTTP ${g}`,
          source_config: {
            url: `https://svc-${pad(s)}.bench.example/health/${g}`,
            expected_status: 200,
            timeout_ms: 5000,
          },
          interval_seconds: 30,
          agent: AGENT,
        };
      case 'tcp':
        return {
          ...base,
          name: `Service ${s} TCP ${g}`,
          source_config: { host: `db-${pad(s)}.bench.example`, port: 5000 + (g % 1000) },
          interval_seconds: 30,
          agent: AGENT,
        };
      case 'manual':
        return { ...base, name: `Service ${s} manual ${g}`, source_config: {} };
      case 'heartbeat':
        return { ...base, name: `Service ${s} heartbeat ${g}`, source_config: {}, interval_seconds: 60 };
    }
  });
  return {
    version: 1,
    services: Array.from({ length: SERVICES }, (_, s) => ({
      config_key: svc(s),
      name: `Service ${s}`,
      description: `Bench service ${s}`,
    })),
    metrics,
    slos: Array.from({ length: SERVICES }, (_, s) => ({
      config_key: `${svc(s)}-availability`,
      name: `Service ${s} availability`,
      service: svc(s),
      objective: '99.9',
      window: { kind: 'rolling', days: 30 },
    })),
    status_pages: [
      {
        config_key: 'public',
        subdomain,
        title: 'Bench status',
        description: 'Every service of the bench',
        groups: Array.from({ length: Math.ceil(SERVICES / GROUP_SIZE) }, (_, k) => ({
          name: `Group ${k}`,
          components: Array.from({ length: Math.min(GROUP_SIZE, SERVICES - k * GROUP_SIZE) }, (_, i) => ({
            service: svc(k * GROUP_SIZE + i),
          })),
        })),
      },
    ],
  };
}

const itemsOf = (d: BenchDocument) => d.services.length + d.metrics.length + d.slos.length + d.status_pages.length;

// ---------------------------------------------------------------------------------------------
// Organizations and measurement

interface BenchOrg {
  id: string;
  api: ApiClient;
  agentId: string;
  /** The agent's heartbeat: keeps it online (a metric naming an offline agent is a warning in the plan). */
  beat: () => Promise<void>;
  close: () => Promise<void>;
}

interface Sample {
  ms: number;
  /** Vigil process CPU s until the answer, and after it until the process was quiet. */
  cpu: number;
  cpuAfter: number;
  /** PostgreSQL CPU s until the answer. */
  pgCpu: number;
  bytes: number;
}

interface Figure {
  label: string;
  samples: Sample[];
}

const med = (f: Figure, k: keyof Sample) => median(f.samples.map((s) => s[k]));

async function main(): Promise<void> {
  if (METRICS % 10 !== 0 || METRICS < SERVICES)
    throw new Error('METRICS must be a multiple of 10 and at least SERVICES');
  if (Math.ceil(SERVICES / GROUP_SIZE) > 50)
    throw new Error(`SERVICES must be at most ${50 * GROUP_SIZE} (a page shows at most 50 groups)`);
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 2 });
  const monitor = new PgClient({ connectionString: db.url });
  let monitorConnected = false;
  let vigil: ChildProcess | null = null;
  const orgs: BenchOrg[] = [];
  try {
    await migrate(orm);
    await monitor.connect();
    monitorConnected = true;
    const started = await startVigilProcess('api-process.js', {
      BENCH_DATABASE_URL: db.url,
      BENCH_POOL_MAX: String(POOL_MAX),
      BENCH_MASTER_KEY: randomBytes(32).toString('hex'),
    } satisfies ApiProcessEnv);
    vigil = started.child;
    const vigilPid = vigil.pid!;
    const baseUrl = `http://127.0.0.1:${started.port}`;
    say(`Vigil API listening on ${baseUrl} (pool ${POOL_MAX}, no Temporal); database ${db.url}`);

    /** A fresh organization on plan enterprise (rate limits raised: the baseline sends a thousand requests) with one agent, online. */
    const newOrg = async (name: string): Promise<BenchOrg> => {
      const now = new Date();
      const { organization, key } = await benchOrganization(orm, name, now);
      const api = apiClient(baseUrl, key.plaintext, CONCURRENCY);
      const agent = await api.call<{ id: string; token: string }>('POST', '/v1/agents', { name: AGENT });
      expectStatus(agent, 201, 'POST /v1/agents');
      const agentApi = apiClient(baseUrl, agent.body.token, 1);
      const beat = async () =>
        expectStatus(
          await agentApi.call('POST', '/v1/agent/heartbeat', { version: '1.8.0', hostname: os.hostname() }),
          200,
          'POST /v1/agent/heartbeat',
        );
      await beat();
      const org = {
        id: organization.id,
        api,
        agentId: agent.body.id,
        beat,
        close: async () => Promise.all([api.close(), agentApi.close()]).then(() => undefined),
      };
      orgs.push(org);
      return org;
    };

    /** One measured operation: the agent beats, the Vigil process goes quiet, then `fn` is timed. */
    const measure = async (org: BenchOrg, fn: () => Promise<unknown>): Promise<Sample> => {
      await org.beat();
      await waitUntilQuiet([vigilPid], { maxCores: 0.2, windowMs: 300, timeoutMs: 15_000 });
      const pg0 = await postgresCpu(monitor);
      const cpu0 = procCpu(vigilPid) ?? 0;
      const t0 = performance.now();
      const body = await fn();
      const wall = performance.now() - t0;
      const cpu1 = procCpu(vigilPid) ?? 0;
      const pg1 = await postgresCpu(monitor);
      let pgCpu = 0;
      for (const [pid, c] of pg1) pgCpu += c - (pg0.get(pid) ?? 0);
      await waitUntilQuiet([vigilPid], { maxCores: 0.2, windowMs: 300, timeoutMs: 15_000 });
      const cpu2 = procCpu(vigilPid) ?? 0;
      return {
        ms: wall,
        cpu: cpu1 - cpu0,
        cpuAfter: cpu2 - cpu1,
        pgCpu,
        bytes: body === undefined ? 0 : Buffer.byteLength(JSON.stringify(body)),
      };
    };

    interface Plan {
      changed: boolean;
      summary: { create: number; update: number; delete: number; unchanged: number };
      warnings: unknown[];
      changes: unknown[];
    }
    const apply = async (
      org: BenchOrg,
      doc: BenchDocument,
      dryRun: boolean,
      expect: Partial<Plan['summary']>,
      what: string,
    ) => {
      const res = await org.api.call<Plan>('POST', `/v1/config/apply?dry_run=${dryRun}&prune=false`, doc);
      expectStatus(res, 200, what);
      const s = res.body.summary;
      for (const [k, v] of Object.entries(expect))
        if (s[k as keyof Plan['summary']] !== v)
          throw new Error(`${what}: summary ${JSON.stringify(s)}, expected ${JSON.stringify(expect)}`);
      if (res.body.warnings.length)
        throw new Error(`${what}: ${res.body.warnings.length} warnings, e.g. ${JSON.stringify(res.body.warnings[0])}`);
      return res.body;
    };
    const exportDoc = async (org: BenchOrg) => {
      const res = await org.api.call<{ metrics?: unknown[]; services?: unknown[] }>('GET', '/v1/config/export');
      expectStatus(res, 200, 'GET /v1/config/export');
      if (res.body.metrics?.length !== METRICS || res.body.services?.length !== SERVICES)
        throw new Error(`export: ${res.body.services?.length} services, ${res.body.metrics?.length} metrics`);
      return res.body;
    };
    /** The baseline: the document's services, then its metrics, one request each, CONCURRENCY in flight; answers the services' ids. */
    const servicesAndMetrics = async (org: BenchOrg, doc: BenchDocument) => {
      const serviceIds = new Map<string, string>();
      await forEach(doc.services.length, CONCURRENCY, async (i) => {
        const s = doc.services[i]!;
        const res = await org.api.call<{ id: string }>('POST', '/v1/services', {
          name: s.name,
          description: s.description,
        });
        expectStatus(res, 201, 'POST /v1/services');
        serviceIds.set(s.config_key, res.body.id);
      });
      await forEach(doc.metrics.length, CONCURRENCY, async (i) => {
        const m = doc.metrics[i]!;
        const res = await org.api.call('POST', '/v1/metrics', {
          service_id: serviceIds.get(m.service),
          name: m.name,
          source_type: m.source_type,
          source_config: m.source_config,
          ...(m.thresholds ? { thresholds: m.thresholds } : {}),
          ...(m.interval_seconds ? { interval_seconds: m.interval_seconds } : {}),
          ...(m.agent ? { agent_id: org.agentId } : {}),
        });
        expectStatus(res, 201, 'POST /v1/metrics');
      });
      return serviceIds;
    };
    /** The rest of the document one by one: its SLOs, CONCURRENCY in flight, then its page. */
    const slosAndPage = async (org: BenchOrg, doc: BenchDocument, serviceIds: Map<string, string>) => {
      await forEach(doc.slos.length, CONCURRENCY, async (i) => {
        const s = doc.slos[i]!;
        expectStatus(
          await org.api.call('POST', '/v1/slos', {
            name: s.name,
            service_id: serviceIds.get(s.service),
            objective: s.objective,
            window: s.window,
          }),
          201,
          'POST /v1/slos',
        );
      });
      for (const p of doc.status_pages) {
        const groups = p.groups.map((g) => ({
          name: g.name,
          components: g.components.map((c) => ({ kind: 'service', id: serviceIds.get(c.service) })),
        }));
        expectStatus(
          await org.api.call('POST', '/v1/status-pages', {
            subdomain: p.subdomain,
            title: p.title,
            description: p.description,
            groups,
          }),
          201,
          'POST /v1/status-pages',
        );
      }
    };

    const doc = benchDocument('bench-a0');
    const ITEMS = itemsOf(doc);
    const docBytes = Buffer.byteLength(JSON.stringify(doc));
    const counts = Object.fromEntries(
      (['http', 'tcp', 'manual', 'heartbeat'] as const).map((k) => [
        k,
        doc.metrics.filter((m) => m.source_type === k).length,
      ]),
    );
    const changedCount = doc.metrics.filter((_, g) => changedMetric(g)).length;
    say(
      `document: ${SERVICES} services, ${METRICS} metrics (${counts.http} http + ${counts.tcp} tcp on agent "${AGENT}", ${counts.manual} manual, ${counts.heartbeat} heartbeat), ` +
        `${doc.slos.length} SLOs, 1 status page of ${doc.status_pages[0]!.groups.length} groups: ${ITEMS} items, ${docBytes.toLocaleString('en')} bytes of JSON`,
    );

    const empty = await newOrg('Bench config (plan on empty)');
    const appliedOrgs: BenchOrg[] = [];
    for (let r = 0; r < APPLY_RUNS; r++) appliedOrgs.push(await newOrg(`Bench config (apply ${r})`));
    const baselineOrgs: BenchOrg[] = [];
    for (let r = 0; r < APPLY_RUNS; r++) baselineOrgs.push(await newOrg(`Bench config (one by one ${r})`));

    // ------------------------------------------------------------------ warm-up
    if (WARMUP) {
      const t0 = performance.now();
      const w = await newOrg('Bench config (warm-up)');
      await apply(empty, benchDocument('bench-plan'), true, { create: ITEMS }, 'warm-up plan');
      await apply(w, benchDocument('bench-warm'), false, { create: ITEMS }, 'warm-up apply');
      await apply(w, benchDocument('bench-warm'), false, { unchanged: ITEMS }, 'warm-up re-apply');
      await apply(w, benchDocument('bench-warm', true), true, { update: changedCount }, 'warm-up plan of changes');
      await exportDoc(w);
      const small = benchDocument('bench-warm-small');
      small.metrics = small.metrics.slice(0, 100);
      small.services = small.services.slice(0, serviceOf(99) + 1);
      small.slos = [];
      small.status_pages = [];
      await slosAndPage(w, small, await servicesAndMetrics(w, small));
      say(
        `warm-up (unmeasured): a plan, an apply, a re-apply, a plan of changes, an export, ${small.services.length} services and 100 metrics one by one; ${ms(performance.now() - t0)}`,
      );
    }

    // ------------------------------------------------------------------ (2) apply vs one by one
    const applyFig: Figure = { label: '(2) apply, fresh organization', samples: [] };
    const baseFig: Figure = { label: 'baseline: services + metrics one by one', samples: [] };
    const restMs: number[] = [];
    const applyOne = async (r: number) => {
      const s = await measure(appliedOrgs[r]!, () =>
        apply(appliedOrgs[r]!, benchDocument(`bench-a${r}`), false, { create: ITEMS }, `apply ${r}`),
      );
      applyFig.samples.push(s);
      say(
        `    apply ${r}: ${ms(s.ms)}; Vigil CPU ${s.cpu.toFixed(2)} s (+${s.cpuAfter.toFixed(2)} s after the answer), PostgreSQL CPU ${s.pgCpu.toFixed(2)} s`,
      );
    };
    const baselineOne = async (r: number) => {
      const org = baselineOrgs[r]!;
      const d = benchDocument(`bench-b${r}`);
      let serviceIds = new Map<string, string>();
      const s = await measure(org, async () => {
        serviceIds = await servicesAndMetrics(org, d);
      });
      baseFig.samples.push(s);
      const t0 = performance.now();
      await slosAndPage(org, d, serviceIds);
      restMs.push(performance.now() - t0);
      say(
        `    one by one ${r}: services + metrics ${ms(s.ms)}; Vigil CPU ${s.cpu.toFixed(2)} s, PostgreSQL CPU ${s.pgCpu.toFixed(2)} s; then SLOs + page ${ms(restMs.at(-1)!)}`,
      );
    };
    say(
      `(2) apply on a fresh organization × ${APPLY_RUNS}, alternating with the baseline (${SERVICES} + ${METRICS} POSTs, ${CONCURRENCY} in flight, fresh organization each)…`,
    );
    for (let r = 0; r < APPLY_RUNS; r++) {
      if (r % 2 === 0) {
        await applyOne(r);
        await baselineOne(r);
      } else {
        await baselineOne(r);
        await applyOne(r);
      }
    }

    // ------------------------------------------------------------------ (1), (3), (4) and the export, round-robin
    const target = appliedOrgs[0]!;
    const targetDoc = benchDocument('bench-a0');
    const changedDoc = benchDocument('bench-a0', true);
    // Its own subdomain: bench-a0 is the applied organization's page.
    const planDoc = benchDocument('bench-plan');
    const planFig: Figure = { label: '(1) plan (dry run), empty organization', samples: [] };
    const reapplyFig: Figure = { label: '(3) no-change re-apply', samples: [] };
    const plan10Fig: Figure = { label: `(4) plan, ${CHANGED_PERCENT}% of thresholds changed`, samples: [] };
    const exportFig: Figure = { label: 'baseline: GET /v1/config/export', samples: [] };
    say(
      `(1) plan on the empty organization, (3) re-apply, (4) plan of ${changedCount} threshold changes and the export, round-robin × ${RUNS}…`,
    );
    for (let r = 0; r < RUNS; r++) {
      planFig.samples.push(await measure(empty, () => apply(empty, planDoc, true, { create: ITEMS }, 'plan on empty')));
      exportFig.samples.push(await measure(target, () => exportDoc(target)));
      reapplyFig.samples.push(
        await measure(target, () =>
          apply(target, targetDoc, false, { create: 0, update: 0, delete: 0, unchanged: ITEMS }, 're-apply'),
        ),
      );
      plan10Fig.samples.push(
        await measure(target, () =>
          apply(
            target,
            changedDoc,
            true,
            { create: 0, update: changedCount, delete: 0, unchanged: ITEMS - changedCount },
            'plan of changes',
          ),
        ),
      );
      say(
        `    round ${r + 1}: plan ${ms(planFig.samples[r]!.ms)}, export ${ms(exportFig.samples[r]!.ms)}, re-apply ${ms(reapplyFig.samples[r]!.ms)}, plan of changes ${ms(plan10Fig.samples[r]!.ms)}`,
      );
    }

    // The re-applies and dry runs wrote nothing: no row of the applied organization changed since the apply, the plan's organization holds only its agent.
    const [untouched] = (
      await monitor.query<{ touched: string; planned: string }>(
        `select (select count(*) from metrics where organization_id = $1 and updated_at <> created_at) + (select count(*) from services where organization_id = $1 and updated_at <> created_at)
              + (select count(*) from slos where organization_id = $1 and updated_at <> created_at) + (select count(*) from status_pages where organization_id = $1 and updated_at <> created_at) as touched,
                (select count(*) from services where organization_id = $2) + (select count(*) from metrics where organization_id = $2) as planned`,
        [target.id, empty.id],
      )
    ).rows;
    if (Number(untouched!.touched) || Number(untouched!.planned))
      throw new Error(
        `a re-apply or dry run wrote: ${untouched!.touched} rows of the applied organization updated, ${untouched!.planned} items in the plan's organization`,
      );

    // ------------------------------------------------------------------ report
    const reapplyMs = med(reapplyFig, 'ms');
    const met = reapplyMs < REAPPLY_TARGET_MS;
    const row = (cells: string[]) =>
      `${cells[0]!.padEnd(44)}${cells
        .slice(1)
        .map((x) => x.padStart(11))
        .join('')}`;
    const figLine = (f: Figure, base: Figure | null) =>
      row([
        f.label,
        ms(med(f, 'ms')),
        `  ${ms(Math.min(...f.samples.map((s) => s.ms)))}–${ms(Math.max(...f.samples.map((s) => s.ms)))}`.padStart(18),
        `${med(f, 'cpu').toFixed(2)} s`,
        `${med(f, 'pgCpu').toFixed(2)} s`,
        f.samples[0]!.bytes ? `${(med(f, 'bytes') / 1024).toFixed(0)} kB` : '-',
        base ? ratio(med(f, 'ms'), med(base, 'ms')) : '',
      ]);
    const baselineAll = median(baseFig.samples.map((s, i) => s.ms + restMs[i]!));
    const lines = [
      '',
      '================ bench/config summary ================',
      `document: ${SERVICES} services; ${METRICS} metrics: ${counts.http} http + ${counts.tcp} tcp run by one agent, ${counts.manual} manual, ${counts.heartbeat} heartbeat; ` +
        `${doc.slos.length} SLOs (one per service); 1 status page showing the ${SERVICES} services in ${doc.status_pages[0]!.groups.length} groups`,
      `          ${ITEMS} items, ${docBytes.toLocaleString('en')} bytes as JSON (${(docBytes / 1024).toFixed(0)} kB), sent with prune=false; organizations on plan enterprise`,
      `medians (n: ${RUNS} for (1), (3), (4) and the export; ${APPLY_RUNS} for (2) and its baseline); CPU = Vigil process / PostgreSQL until the answer; size = the answer's JSON`,
      row(['', 'median', 'min–max'.padStart(18), 'Vigil CPU', 'PG CPU', 'answer', 'ratio']),
      figLine(planFig, exportFig),
      figLine(applyFig, baseFig),
      figLine(reapplyFig, exportFig),
      figLine(plan10Fig, exportFig),
      figLine(baseFig, null),
      figLine(exportFig, null),
      `ratios: (1), (3), (4) against the export of the applied organization; (2) against creating its ${SERVICES} services and ${METRICS} metrics one by one (${SERVICES + METRICS} POSTs, ${CONCURRENCY} in flight)`,
      `    (2) apply / one by one: wall ${ratio(med(applyFig, 'ms'), med(baseFig, 'ms'))}, Vigil CPU ${ratio(med(applyFig, 'cpu'), med(baseFig, 'cpu'))}, PostgreSQL CPU ${ratio(med(applyFig, 'pgCpu'), med(baseFig, 'pgCpu'))}`,
      `        the apply also creates the ${doc.slos.length} SLOs and the page; one by one, they took another ${ms(median(restMs))} (apply / all ${ITEMS} one by one: ${ratio(med(applyFig, 'ms'), baselineAll)})`,
      `        Vigil CPU after the apply's answer (change feed, until quiet): ${med(applyFig, 'cpuAfter').toFixed(2)} s`,
      `    (3) re-apply / export: ${ratio(reapplyMs, med(exportFig, 'ms'))} wall, ${ratio(med(reapplyFig, 'cpu'), med(exportFig, 'cpu'))} Vigil CPU`,
      `    (1) plan on empty / export: ${ratio(med(planFig, 'ms'), med(exportFig, 'ms'))}; (4) plan of ${changedCount} changes / export: ${ratio(med(plan10Fig, 'ms'), med(exportFig, 'ms'))}`,
      `checked: every plan's summary as expected, no warnings; the re-applies and dry runs wrote no row (updated_at of the applied organization's items unchanged)`,
      `target: no-change re-apply < ${ms(REAPPLY_TARGET_MS)}: ${met ? 'PASS' : 'FAIL'} (${ms(reapplyMs)})`,
      '',
      `reproduce: npm run build --silent && SERVICES=${SERVICES} METRICS=${METRICS} RUNS=${RUNS} APPLY_RUNS=${APPLY_RUNS} CONCURRENCY=${CONCURRENCY} POOL_MAX=${POOL_MAX} WARMUP=${WARMUP ? 1 : 0} node dist/bench/config.js`,
      `(${os.cpus().length} CPUs, Node ${process.version}, ${(await monitor.query<{ v: string }>('select version() as v')).rows[0]!.v.split(' on ')[0]}, database ${db.source})`,
      met ? 'TARGET MET' : 'TARGET MISSED',
      '======================================================',
    ];
    say(lines.join('\n'));
  } finally {
    if (vigil) await stopChild(vigil);
    for (const o of orgs) await o.close();
    if (monitorConnected) await monitor.end();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
  }
}

runMain(main);
