import { type ApiClient, apiClient, expectStatus } from './support/api-client';
import { runMain } from './child-server';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { previousPeriod, tzDataVersion } from '../src/domain/sla/period';
import { SecretBox } from '../src/crypto/secret-box';
import { dropDatabase } from '../src/launchers/postgres';
import type { RunningTemporal } from '../src/launchers/temporal-dev-server';
import { type TemporalHandle, connectTemporal } from '../src/temporal/connection';
import { searchAttributes } from '../src/temporal/search-attributes';
import { contractScheduleId, temporalSlaWorkflows } from '../src/temporal/sla-workflows';
import { type StatementSigner, draftStatement } from '../src/usecases/sla/statements';
import { forEach } from './support/load';
import { type Stats, stats, procCpu, waitUntilQuiet } from './support/measure';
import { benchOrganization } from './support/seed';
import { benchDatabase, benchTemporal, startVigilProcess, stopChild } from './support/processes';
import type { SlaProcessEnv } from './sla-support';

/**
 * bench/sla: SLA statements, in one run, each figure against a baseline of the same run.
 *   (a) one period run: CONTRACTS contracts (1–3 services each, whose manual metrics have 14
 *       months of status flips, down spans and maintenances) get the statement of the period that
 *       ended, the way production does it: each contract's Temporal Schedule is triggered, its
 *       slaPeriodWorkflow starts the period's slaStatementWorkflow, whose activity drafts and signs
 *       the statement (SLA_BENCH_VIA=workflows starts the period workflows from this process
 *       instead, as the Schedules' action would: see VIA). The worker (with the API, as `vigil
 *       start` runs them) is a child process (bench/sla-support.ts); measured: wall time from the
 *       first trigger until every statement row exists (and per contract, how much of it was
 *       Temporal starting the period workflow and how much Vigil's worker reaching the draft), and
 *       that process's CPU (user + sys) per statement, the Temporal dev server's too.
 *       Baseline: the same statements drafted by calling draftStatement directly in this process
 *       (no Temporal), DIRECT_CONCURRENCY at once, for a second organization seeded identically.
 *       Both sides warm up on WARMUP statements of the period before first.
 *   (b) list latency: the first organization then holds STATEMENTS statements (the rest SQL copies
 *       of (a)'s rows into earlier periods, in mixed states); REQUESTS × GET /v1/sla/statements?limit=50
 *       over HTTP one at a time (first pages, cursor pages down the list, period=, state= and both),
 *       interleaved with as many GET /v1/customers?limit=50 (first and cursor pages) with as many
 *       customers in the organization: the baseline. Target: statements p99 < 50 ms.
 *
 *   npm run bench:sla
 *   (SLA_BENCH_CONTRACTS=1000 SLA_BENCH_STATEMENTS=10000 SLA_BENCH_REQUESTS=400 SLA_BENCH_VIA=schedules WARMUP=20
 *    DIRECT_CONCURRENCY=10 POOL_MAX=10; TEMPORAL_ADDRESS=host:port to use a running Temporal,
 *    otherwise the cached dev server binary is started on a free port; VIGIL_NODE_ARGS adds node
 *    flags to the Vigil process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const CONTRACTS = Number(process.env.SLA_BENCH_CONTRACTS ?? 1000);
const STATEMENTS = Number(process.env.SLA_BENCH_STATEMENTS ?? 10_000);
const REQUESTS = Number(process.env.SLA_BENCH_REQUESTS ?? 400);
const WARMUP = Math.min(Number(process.env.WARMUP ?? 20), CONTRACTS);
const DIRECT_CONCURRENCY = Number(process.env.DIRECT_CONCURRENCY ?? 10);
/** The Vigil process's PostgreSQL pool, and this process's for the baseline. */
const POOL_MAX = Number(process.env.POOL_MAX ?? 10);
const SERVICES = 50;
/** Customers the contracts belong to (the rest of (b)'s customers are inserted with SQL). */
const CONTRACT_CUSTOMERS = Math.min(100, CONTRACTS);
const HISTORY_MONTHS = 14;
/** Down (and one degraded) spans per metric and month, besides the maintenances'. */
const SPANS_PER_MONTH = 6;
const MAINTENANCES_PER_MONTH = 3;
const TIMEZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
const SETUP_CONCURRENCY = 10;
const TRIGGER_CONCURRENCY = 20;
const PAGE = 50;
const LIST_TARGET_MS = 50;
const LIST_WARMUP = 30;
const RUN_TIMEOUT_MS = 10 * 60_000;
/** How long (a) watches the idle processes first. */
const IDLE_WINDOW_MS = 5_000;
/**
 * How (a) starts the period run. 'schedules' (default): triggers each contract's Schedule, as its
 * calendar would fire it. On the Temporal dev server (default dynamic config) a burst of triggers
 * leaves some Schedules' own workflow tasks (Temporal's internal scheduler) waiting: their sticky
 * task times out after 5 s and the task is picked up about a minute later, so part of the wall
 * time is Temporal's scheduler; the report shows that part per contract. 'workflows': this process
 * starts each contract's slaPeriodWorkflow exactly as its Schedule's action would (type,
 * arguments, id, search attributes, task queue), leaving the scheduler out.
 */
const VIA = process.env.SLA_BENCH_VIA === 'workflows' ? 'workflows' : 'schedules';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (line: string) => console.log(line);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmt = (s: Stats) =>
  `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (n=${s.n})`;
const fmtS = (s: Stats) => `p50 ${secs(s.p50)}, p99 ${secs(s.p99)}, max ${secs(s.max)} (n=${s.n})`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function until(what: string, deadline: number, check: () => Promise<boolean>, intervalMs = 100): Promise<void> {
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** A 32-bit mix of small integers: the same data for both organizations, run after run. */
function hash(...xs: number[]): number {
  let x = 0x9e3779b9;
  for (const v of xs) {
    x = Math.imul(x ^ v, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    x ^= x >>> 16;
  }
  return x >>> 0;
}

/** `YYYY-MM` moved by `months`. */
function shiftPeriod(label: string, months: number): string {
  const total = Number(label.slice(0, 4)) * 12 + Number(label.slice(5, 7)) - 1 + months;
  return `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// HTTP

// ---------------------------------------------------------------------------------------------
// Setup

interface SeededContract {
  id: string;
  timezone: string;
  graceHours: number;
}

interface SeededOrg {
  id: string;
  key: string;
  api: ApiClient;
  contracts: SeededContract[];
  flips: number;
  maintenances: number;
}

interface Span {
  start: number;
  end: number;
  status: 'unhealthy' | 'degraded';
}

/** The first instant of the UTC month `k` months before `now`'s. */
function monthStart(now: Date, k: number): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, 1);
}

/**
 * Maintenances per month on a few services (two announced 3 days ahead: excluded under the
 * contracts' 48 h notice; one an hour ahead: counted), each with its service down while it runs.
 */
function maintenancePlan(
  now: Date,
): { service: number; start: number; end: number; announced: number; title: string }[] {
  const out = [];
  for (let k = HISTORY_MONTHS - 1; k >= 0; k--) {
    for (let i = 0; i < MAINTENANCES_PER_MONTH; i++) {
      const start = monthStart(now, k) + (9 + i * 6) * DAY_MS + (hash(k, i, 1) % 1_200) * MINUTE_MS;
      const end = start + (30 + (hash(k, i, 2) % 60)) * MINUTE_MS;
      if (end >= now.getTime()) continue;
      const announced = i < MAINTENANCES_PER_MONTH - 1 ? start - 3 * DAY_MS : start - HOUR_MS;
      out.push({
        service: (k * 7 + i * 17) % SERVICES,
        start,
        end,
        announced,
        title: `${i < MAINTENANCES_PER_MONTH - 1 ? 'Planned' : 'Emergency'} maintenance ${k}.${i}`,
      });
    }
  }
  return out;
}

/** Each service's down spans: SPANS_PER_MONTH a month at made-up times (the first degraded), and its maintenances. */
function spansOf(service: number, now: Date, maintenances: ReturnType<typeof maintenancePlan>): Span[] {
  const slot = Math.floor((28 * DAY_MS) / SPANS_PER_MONTH);
  const spans: Span[] = [];
  for (let k = HISTORY_MONTHS - 1; k >= 0; k--) {
    for (let j = 0; j < SPANS_PER_MONTH; j++) {
      const start =
        monthStart(now, k) +
        j * slot +
        (hash(service, k, j) % Math.floor((slot - 2 * HOUR_MS) / MINUTE_MS)) * MINUTE_MS;
      const end = start + (3 + (hash(service, k, j, 9) % 45)) * MINUTE_MS;
      spans.push({ start, end, status: j === 0 ? 'degraded' : 'unhealthy' });
    }
  }
  for (const m of maintenances)
    if (m.service === service) spans.push({ start: m.start, end: m.end, status: 'unhealthy' });
  spans.sort((a, b) => a.start - b.start);
  // No overlaps: a span starting inside the previous one is dropped.
  const kept: Span[] = [];
  for (const s of spans) if (s.end < now.getTime() && (!kept.length || s.start > kept.at(-1)!.end)) kept.push(s);
  return kept;
}

/**
 * One organization (enterprise, rate limits raised): SERVICES services with a manual metric each,
 * created over the API, that existed all along (created_at moved back with SQL), with status flips
 * and maintenances inserted with SQL; CONTRACT_CUSTOMERS customers and CONTRACTS contracts over the
 * API (each contract's Schedule created by the API as in production). Identical for every call.
 */
async function seedOrganization(
  name: string,
  orm: Awaited<ReturnType<typeof createOrm>>,
  pg: PgClient,
  baseUrl: string,
  now: Date,
): Promise<SeededOrg> {
  const { organization, key } = await benchOrganization(orm, name, now);
  const api = apiClient(baseUrl, key.plaintext, SETUP_CONCURRENCY);

  const services: string[] = new Array(SERVICES);
  const metrics: string[] = new Array(SERVICES);
  await forEach(SERVICES, SETUP_CONCURRENCY, async (i) => {
    const s = await api.call<{ id: string }>('POST', '/v1/services', {
      name: `service-${String(i).padStart(2, '0')}`,
      description: `Bench service ${i}`,
    });
    expectStatus(s, 201, 'POST /v1/services');
    const m = await api.call<{ id: string }>('POST', '/v1/metrics', {
      service_id: s.body.id,
      name: `availability-${i}`,
      source_type: 'manual',
      source_config: {},
    });
    expectStatus(m, 201, 'POST /v1/metrics');
    services[i] = s.body.id;
    metrics[i] = m.body.id;
  });
  const historyStart = new Date(monthStart(now, HISTORY_MONTHS) - DAY_MS);
  await pg.query(`update metrics set created_at = $2 where organization_id = $1`, [organization.id, historyStart]);

  const plan = maintenancePlan(now);
  const flip = { metric: [] as string[], from: [] as string[], to: [] as string[], at: [] as Date[] };
  for (let i = 0; i < SERVICES; i++) {
    const push = (from: string, to: string, at: number) => {
      flip.metric.push(metrics[i]!);
      flip.from.push(from);
      flip.to.push(to);
      flip.at.push(new Date(at));
    };
    push('no_data', 'healthy', historyStart.getTime() + HOUR_MS);
    for (const s of spansOf(i, now, plan)) {
      push('healthy', s.status, s.start);
      push(s.status, 'healthy', s.end);
    }
  }
  await pg.query(
    `insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, at)
     select gen_random_uuid(), $1, m, f, t, null, null, a from unnest($2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) as x(m, f, t, a)`,
    [organization.id, flip.metric, flip.from, flip.to, flip.at],
  );
  await pg.query(
    `insert into maintenances (id, organization_id, title, description, affected_services, scheduled_start_at, scheduled_end_at, actual_start_at, actual_end_at, canceled_at, deleted_at, starting_soon_at, created_at, updated_at)
     select gen_random_uuid(), $1, t, null, array[s], b, e, b, e, null, null, null, a, a from unnest($2::text[], $3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[]) as x(t, s, b, e, a)`,
    [
      organization.id,
      plan.map((m) => m.title),
      plan.map((m) => services[m.service]),
      plan.map((m) => new Date(m.start)),
      plan.map((m) => new Date(m.end)),
      plan.map((m) => new Date(m.announced)),
    ],
  );

  const customers: string[] = new Array(CONTRACT_CUSTOMERS);
  await forEach(CONTRACT_CUSTOMERS, SETUP_CONCURRENCY, async (i) => {
    const c = await api.call<{ id: string }>('POST', '/v1/customers', {
      name: `Customer ${i} <GmbH>`,
      contact_email: `ops+${i}@customer.test`,
    });
    expectStatus(c, 201, 'POST /v1/customers');
    customers[i] = c.body.id;
  });

  const contracts: SeededContract[] = new Array(CONTRACTS);
  await forEach(CONTRACTS, SETUP_CONCURRENCY, async (i) => {
    const covered = [...new Set(Array.from({ length: 1 + (i % 3) }, (_, j) => services[(i * 7 + j * 13) % SERVICES]!))];
    const timezone = TIMEZONES[i % TIMEZONES.length]!;
    const res = await api.call<{ id: string; grace_hours: number }>('POST', '/v1/contracts', {
      customer_id: customers[i % CONTRACT_CUSTOMERS],
      name: `Contract ${i}`,
      service_ids: covered,
      sla_target_pct: i % 2 ? '99.9' : '99.95',
      timezone,
      currency: ['EUR', 'USD', 'JPY'][i % 3],
      monthly_fee_minor: 10_000 + (i % 50) * 1_000,
      effective_from: '2025-01-01',
      credit_terms: {
        type: 'tiered',
        steps: [
          { below_pct: '99.8', credit_pct: '10' },
          { below_pct: '99.5', credit_pct: '30' },
        ],
        maintenance_notice_hours: 48,
      },
      billing_email: `billing+${i}@customer.test`,
      finance_contacts: ['finance@vigil.test'],
      escalation_contacts: ['cfo@vigil.test'],
    });
    expectStatus(res, 201, 'POST /v1/contracts');
    contracts[i] = { id: res.body.id, timezone, graceHours: res.body.grace_hours };
  });
  return { id: organization.id, key: key.plaintext, api, contracts, flips: flip.at.length, maintenances: plan.length };
}

// ---------------------------------------------------------------------------------------------
// (a) Generation

/** The period the contract's Schedule drafts at `at` (as slaPeriodDue computes it). */
const dueAt = (c: SeededContract, at: number) => previousPeriod(new Date(at - c.graceHours * HOUR_MS), c.timezone);

const countSince = async (pg: PgClient, orgId: string, since: Date) =>
  Number(
    (
      await pg.query<{ n: string }>(
        `select count(*) as n from sla_statements where organization_id = $1 and created_at >= $2`,
        [orgId, since],
      )
    ).rows[0]!.n,
  );

interface TemporalRun {
  wallMs: number;
  triggerMs: number;
  /** Vigil process CPU s: at the last row; once quiet again. */
  cpuAtLast: number;
  cpuQuiet: number;
  /** Temporal dev server CPU s until quiet (null: external Temporal). */
  serverCpu: number | null;
  /** What the Vigil process (and the dev server) used while idle over as long as the run took, in CPU s: the part of the above that is not the run's. */
  vigilIdle: number;
  serverIdle: number | null;
  quietAfterMs: number;
  startedAt: number;
  /** Per contract: trigger (or start call) → its slaPeriodWorkflow started (Temporal visibility). */
  toPeriodStart: Stats;
  /** Per contract: its slaPeriodWorkflow started → its statement's drafting began (the row's created_at). */
  toDraft: Stats;
}

async function temporalRun(
  temporal: TemporalHandle,
  pg: PgClient,
  org: SeededOrg,
  vigilPid: number,
  serverPid: number | undefined,
): Promise<TemporalRun> {
  const pids = [vigilPid, serverPid].filter((p): p is number => p !== undefined);
  // Idle use first (pollers, timers): a run that waits on Temporal's scheduler would count it as the run's.
  const idleT0 = performance.now();
  const vigilIdle0 = procCpu(vigilPid) ?? 0;
  const serverIdle0 = serverPid ? (procCpu(serverPid) ?? 0) : 0;
  await sleep(IDLE_WINDOW_MS);
  const idleS = (performance.now() - idleT0) / 1000;
  const vigilIdleRate = ((procCpu(vigilPid) ?? 0) - vigilIdle0) / idleS;
  const serverIdleRate = serverPid ? ((procCpu(serverPid) ?? 0) - serverIdle0) / idleS : 0;
  const vigil0 = procCpu(vigilPid) ?? 0;
  const server0 = serverPid ? (procCpu(serverPid) ?? 0) : 0;
  const startedAt = Date.now();
  const since = new Date(startedAt);
  // As the Schedule's action names it: its id, then the time it fires.
  const firedAt = `${new Date(startedAt).toISOString().slice(0, 19)}Z`;
  const calledAt = new Map<string, number>();
  await forEach(org.contracts.length, TRIGGER_CONCURRENCY, async (i) => {
    const c = org.contracts[i]!;
    calledAt.set(c.id, Date.now());
    if (VIA === 'schedules') {
      await temporal.client.schedule.getHandle(contractScheduleId(c.id)).trigger();
      return;
    }
    // What the Schedule's action starts (src/temporal/sla-workflows.ts, contractChanged), started here.
    await temporal.client.workflow.start('slaPeriodWorkflow', {
      workflowId: `sla-period:${c.id}-${firedAt}`,
      taskQueue: temporal.taskQueue,
      args: [{ organizationId: org.id, contractId: c.id, timings: {} }],
      memo: { title: `SLA statements: Contract ${i}` },
      typedSearchAttributes: searchAttributes(org.id, 'contract', c.id),
    });
  });
  const triggerMs = Date.now() - startedAt;
  say(
    `    ${VIA === 'schedules' ? 'triggered' : 'started'} ${org.contracts.length} ${VIA === 'schedules' ? 'Schedules' : 'period workflows'} in ${secs(triggerMs)}; waiting for the statements…`,
  );
  let n = 0;
  let reported = Date.now();
  await until("the period run's statements", startedAt + RUN_TIMEOUT_MS, async () => {
    n = await countSince(pg, org.id, since);
    if (Date.now() - reported > 10_000) {
      say(`    … ${n}/${org.contracts.length} after ${secs(Date.now() - startedAt)}`);
      reported = Date.now();
    }
    return n >= org.contracts.length;
  });
  const wallMs = Date.now() - startedAt;
  const cpuAtLast = (procCpu(vigilPid) ?? 0) - vigil0;
  const quiet = await waitUntilQuiet(pids);
  const cpuQuiet = (procCpu(vigilPid) ?? 0) - vigil0;
  const serverCpu = serverPid ? (procCpu(serverPid) ?? 0) - server0 : null;
  const runS = (Date.now() - startedAt) / 1000;

  // Every contract got the period its Schedule was due for, once.
  const rows = (
    await pg.query<{ contract_id: string; period_label: string; at: Date }>(
      `select contract_id, period_label, created_at as at from sla_statements where organization_id = $1 and created_at >= $2`,
      [org.id, since],
    )
  ).rows;
  const got = new Map(rows.map((r) => [r.contract_id, r.period_label]));
  const wrong = org.contracts.filter((c) => got.get(c.id) !== dueAt(c, startedAt));
  if (rows.length !== org.contracts.length || wrong.length)
    throw new Error(
      `the period run drafted ${rows.length} statements; ${wrong.length} contracts without their due period (e.g. ${wrong[0]?.id})`,
    );

  // Where the time went, per contract: Temporal starting the period workflow, then Vigil's worker reaching the draft.
  const periodStarted = new Map<string, number>();
  for await (const wf of temporal.client.workflow.list({
    query: `TaskQueue = '${temporal.taskQueue}' AND WorkflowType = 'slaPeriodWorkflow'`,
  })) {
    periodStarted.set(wf.workflowId.slice('sla-period:'.length, 'sla-period:'.length + 36), wf.startTime.getTime());
  }
  const toPeriodStart: number[] = [];
  const toDraft: number[] = [];
  for (const r of rows) {
    const p = periodStarted.get(r.contract_id);
    if (p === undefined) continue;
    toPeriodStart.push(p - calledAt.get(r.contract_id)!);
    toDraft.push(r.at.getTime() - p);
  }
  return {
    wallMs,
    triggerMs,
    cpuAtLast,
    cpuQuiet,
    serverCpu,
    vigilIdle: vigilIdleRate * runS,
    serverIdle: serverPid ? serverIdleRate * runS : null,
    quietAfterMs: quiet.waitedMs,
    startedAt,
    toPeriodStart: stats(toPeriodStart),
    toDraft: stats(toDraft),
  };
}

interface DirectRun {
  wallMs: number;
  cpu: number;
}

async function directRun(
  orm: Awaited<ReturnType<typeof createOrm>>,
  signer: StatementSigner,
  org: SeededOrg,
  periodOf: (c: SeededContract) => string,
  indexes: number[],
): Promise<DirectRun> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await forEach(indexes.length, DIRECT_CONCURRENCY, async (k) => {
    const c = org.contracts[indexes[k]!]!;
    const facts = await draftStatement(
      orm.em.fork(),
      signer,
      { organizationId: org.id, contractId: c.id, period: periodOf(c) },
      new Date(),
    );
    if (!facts || facts.revision !== 1)
      throw new Error(`draftStatement answered ${JSON.stringify(facts)} for contract ${c.id}`);
  });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpu: (cpu.user + cpu.system) / 1e6 };
}

// ---------------------------------------------------------------------------------------------
// (b) List latency

/** Copies of (a)'s rows into earlier periods (in mixed states) until the organization holds `total`. */
async function fillStatements(
  pg: PgClient,
  orgId: string,
  since: Date,
  total: number,
): Promise<{ copied: number; periods: number }> {
  let copied = 0;
  let periods = 0;
  for (let k = 2; ; k++) {
    const have = Number(
      (await pg.query<{ n: string }>(`select count(*) as n from sla_statements where organization_id = $1`, [orgId]))
        .rows[0]!.n,
    );
    const need = total - have;
    if (need <= 0) break;
    const res = await pg.query(
      `insert into sla_statements (id, organization_id, contract_id, customer_id, customer_name, period_label, period_start, period_end, timezone, revision, state,
                                   document, sha256, signature, signing_key_id, attainment_min, credit_pct, credit_amount_minor, currency, generated_at,
                                   submitted_at, submitted_by, approved_at, approved_by, sent_at, sent_to, voided_at, void_reason,
                                   superseded_at, previous, reminded_at, escalated_at, review_note, created_at, updated_at)
       select gen_random_uuid(), s.organization_id, s.contract_id, s.customer_id, s.customer_name,
              to_char(to_date(s.period_label, 'YYYY-MM') - make_interval(months => $3::int), 'YYYY-MM'),
              s.period_start - make_interval(months => $3::int), s.period_end - make_interval(months => $3::int), s.timezone, 1, x.state,
              s.document, s.sha256, s.signature, s.signing_key_id, s.attainment_min, s.credit_pct, s.credit_amount_minor, s.currency, c.at,
              case when x.state <> 'draft' then c.at + interval '1 day' end, case when x.state <> 'draft' then 'bench-preparer' end,
              case when x.state in ('approved', 'delivered') then c.at + interval '2 days' end, case when x.state in ('approved', 'delivered') then 'bench-approver' end,
              case when x.state = 'delivered' then c.at + interval '3 days' end, case when x.state = 'delivered' then 'billing@customer.test' end,
              case when x.state = 'void' then c.at + interval '2 days' end, case when x.state = 'void' then 'Contract renegotiated' end,
              null, null, null, null, null, c.at, c.at + interval '3 days'
         from sla_statements s,
              lateral (select s.created_at - make_interval(months => $3::int) as at) c,
              lateral (select case abs(hashtext(s.contract_id::text || $3::text)::bigint) % 20 when 0 then 'void' when 1 then 'approved' when 2 then 'in_review' else 'delivered' end as state) x
        where s.organization_id = $1 and s.created_at >= $2
        order by s.contract_id
        limit $4`,
      [orgId, since, k, need],
    );
    if (!res.rowCount) throw new Error('no rows to copy');
    copied += res.rowCount;
    periods++;
  }
  return { copied, periods };
}

type Kind = 'first page' | 'cursor page' | 'period=' | 'state=' | 'period= & state=';

interface ListResult {
  statements: Stats;
  byKind: Map<Kind, Stats>;
  customers: Stats;
  customerKinds: Map<Kind, Stats>;
  deepestStatementPage: number;
  deepestCustomerPage: number;
}

async function listLatency(api: ApiClient, periods: string[]): Promise<ListResult> {
  const states = ['delivered', 'in_review', 'draft', 'approved', 'void'];
  const first = await api.timedGet<{ items: unknown[]; next_cursor: string | null }>(
    `/v1/sla/statements?limit=${PAGE}`,
  );
  expectStatus(first, 200, 'GET /v1/sla/statements');
  if (first.body.items.length !== PAGE || !first.body.next_cursor)
    throw new Error(
      `GET /v1/sla/statements?limit=${PAGE}: ${first.body.items.length} items, next_cursor ${first.body.next_cursor}`,
    );

  // One walker per list: each cursor request takes the next page, from the top again at the end.
  const walker = (p: string) => {
    let cursor: string | null = null;
    let depth = 0;
    let deepest = 0;
    return {
      path: () => (cursor ? `${p}&cursor=${encodeURIComponent(cursor)}` : p),
      advance: (next: string | null) => {
        cursor = next;
        depth = next ? depth + 1 : 0;
        deepest = Math.max(deepest, depth);
      },
      deepest: () => deepest + 1,
    };
  };
  const sWalk = walker(`/v1/sla/statements?limit=${PAGE}`);
  const cWalk = walker(`/v1/customers?limit=${PAGE}`);
  sWalk.advance(first.body.next_cursor);

  const statementRequest = (i: number): { kind: Kind; path: string; walk: boolean } => {
    const slot = i % 10;
    const period = periods[i % periods.length]!;
    const state = states[Math.floor(i / 10) % states.length]!;
    if (slot < 3) return { kind: 'first page', path: `/v1/sla/statements?limit=${PAGE}`, walk: false };
    if (slot < 6) return { kind: 'cursor page', path: sWalk.path(), walk: true };
    if (slot < 8) return { kind: 'period=', path: `/v1/sla/statements?limit=${PAGE}&period=${period}`, walk: false };
    if (slot < 9) return { kind: 'state=', path: `/v1/sla/statements?limit=${PAGE}&state=${state}`, walk: false };
    return {
      kind: 'period= & state=',
      path: `/v1/sla/statements?limit=${PAGE}&period=${period}&state=${state}`,
      walk: false,
    };
  };
  const customerRequest = (i: number): { kind: Kind; path: string; walk: boolean } =>
    i % 10 < 5
      ? { kind: 'first page', path: `/v1/customers?limit=${PAGE}`, walk: false }
      : { kind: 'cursor page', path: cWalk.path(), walk: true };

  const sMs: number[] = [];
  const cMs: number[] = [];
  const sKinds = new Map<Kind, number[]>();
  const cKinds = new Map<Kind, number[]>();
  const one = async (
    req: { kind: Kind; path: string; walk: boolean },
    walk: ReturnType<typeof walker>,
    into: number[] | null,
    kinds: Map<Kind, number[]>,
  ) => {
    const res = await api.timedGet<{ items: unknown[]; next_cursor: string | null }>(req.path);
    expectStatus(res, 200, `GET ${req.path}`);
    if (req.walk) walk.advance(res.body.next_cursor);
    if (!into) return;
    into.push(res.ms);
    const list = kinds.get(req.kind) ?? [];
    list.push(res.ms);
    kinds.set(req.kind, list);
  };
  for (let i = 0; i < LIST_WARMUP; i++) {
    await one(statementRequest(i), sWalk, null, sKinds);
    await one(customerRequest(i), cWalk, null, cKinds);
  }
  for (let i = 0; i < REQUESTS; i++) {
    // Alternate which goes first, so neither always follows the other.
    if (i % 2) {
      await one(statementRequest(i), sWalk, sMs, sKinds);
      await one(customerRequest(i), cWalk, cMs, cKinds);
    } else {
      await one(customerRequest(i), cWalk, cMs, cKinds);
      await one(statementRequest(i), sWalk, sMs, sKinds);
    }
  }
  const toStats = (m: Map<Kind, number[]>) => new Map([...m].map(([k, v]) => [k, stats(v)] as const));
  return {
    statements: stats(sMs),
    byKind: toStats(sKinds),
    customers: stats(cMs),
    customerKinds: toStats(cKinds),
    deepestStatementPage: sWalk.deepest(),
    deepestCustomerPage: cWalk.deepest(),
  };
}

// ---------------------------------------------------------------------------------------------

/** With a Temporal server the bench did not start: end the statement runs it left waiting and delete its Schedules. */
async function cleanTemporal(temporal: TemporalHandle, contractIds: string[]): Promise<void> {
  let schedules = 0;
  let runs = 0;
  await forEach(contractIds.length, TRIGGER_CONCURRENCY, async (i) => {
    try {
      await temporal.client.schedule.getHandle(contractScheduleId(contractIds[i]!)).delete();
      schedules++;
    } catch {
      // never created
    }
  });
  const running: string[] = [];
  for await (const wf of temporal.client.workflow.list({
    query: `TaskQueue = '${temporal.taskQueue}' AND ExecutionStatus = 'Running'`,
  }))
    running.push(wf.workflowId);
  await forEach(running.length, TRIGGER_CONCURRENCY, async (i) => {
    try {
      await temporal.client.workflow.getHandle(running[i]!).terminate('bench/sla cleanup');
      runs++;
    } catch {
      // finished already
    }
  });
  say(`cleanup: deleted ${schedules} Schedules, terminated ${runs} workflows`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: POOL_MAX });
  const pg = new PgClient({ connectionString: db.url });
  let pgConnected = false;
  let devServer: RunningTemporal | null = null;
  let temporal: TemporalHandle | null = null;
  let vigil: ChildProcess | null = null;
  const orgs: SeededOrg[] = [];
  let listApi: ApiClient | null = null;
  try {
    await migrate(orm);
    await pg.connect();
    pgConnected = true;
    const temporalServer = await benchTemporal(config, say);
    devServer = temporalServer.devServer;
    const address = temporalServer.address;
    const taskQueue = `bench-sla-${randomUUID()}`;
    temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
    const masterKey = randomBytes(32).toString('hex');
    const signer: StatementSigner = {
      box: new SecretBox(Buffer.from(masterKey, 'hex')),
      tzDataVersion: tzDataVersion(process.versions.tz),
    };

    const started = await startVigilProcess('sla-support.js', {
      BENCH_DATABASE_URL: db.url,
      BENCH_TEMPORAL_ADDRESS: address,
      BENCH_TASK_QUEUE: taskQueue,
      BENCH_MASTER_KEY: masterKey,
      BENCH_POOL_MAX: String(POOL_MAX),
    } satisfies SlaProcessEnv);
    vigil = started.child;
    const vigilPid = started.child.pid!;
    const baseUrl = `http://127.0.0.1:${started.port}`;
    say(
      `Vigil (API + worker) listening on ${baseUrl}; Temporal ${address}, task queue ${taskQueue}; database ${db.url}`,
    );

    // ------------------------------------------------------------------ setup
    const setupT0 = Date.now();
    const now = new Date();
    say(
      `setup: two identical organizations, each ${SERVICES} services with a manual metric, ${HISTORY_MONTHS} months of flips and maintenances, ${CONTRACT_CUSTOMERS} customers, ${CONTRACTS} contracts (over the API)…`,
    );
    const a = await seedOrganization('Bench SLA (workflows)', orm, pg, baseUrl, now);
    orgs.push(a);
    const b = await seedOrganization('Bench SLA (direct baseline)', orm, pg, baseUrl, now);
    orgs.push(b);
    const covered = (
      await pg.query<{ n: string }>(
        `select sum(cardinality(service_ids)) as n from contracts where organization_id = $1`,
        [a.id],
      )
    ).rows[0]!.n;
    say(
      `    done in ${secs(Date.now() - setupT0)}: per organization ${a.flips} status flips, ${a.maintenances} maintenances, ${CONTRACTS} contracts covering ${covered} services in all`,
    );

    // ------------------------------------------------------------------ warm-up
    const busy = [vigilPid, devServer?.pid].filter((p): p is number => p !== undefined);
    const warmAt = Date.now();
    const warmPeriod = (c: SeededContract) => shiftPeriod(dueAt(c, warmAt), -1);
    if (WARMUP > 0) {
      say(
        `warm-up: ${WARMUP} statements of the period before through the workflow (started directly), ${WARMUP} drafted directly…`,
      );
      const workflows = temporalSlaWorkflows(temporal);
      const since = new Date();
      for (const c of a.contracts.slice(0, WARMUP))
        await workflows.startStatement(
          { organizationId: a.id, contractId: c.id, period: warmPeriod(c) },
          `warm-up ${c.id}`,
        );
      await until(
        'the warm-up statements',
        Date.now() + 120_000,
        async () => (await countSince(pg, a.id, since)) >= WARMUP,
      );
      await directRun(
        orm,
        signer,
        b,
        warmPeriod,
        Array.from({ length: WARMUP }, (_, i) => i),
      );
    }
    const settled = await waitUntilQuiet(busy);
    say(`    ${settled.quiet ? 'quiet' : 'still busy (measuring anyway)'} after ${secs(settled.waitedMs)}`);

    // ------------------------------------------------------------------ (a)
    say(
      `(a) one period run: ${VIA === 'schedules' ? 'triggering the Schedules' : 'starting the period workflows'} of ${CONTRACTS} contracts…`,
    );
    const run = await temporalRun(temporal, pg, a, vigilPid, devServer?.pid);
    say(
      `    all ${CONTRACTS} statements drafted in ${secs(run.wallMs)}; Vigil process CPU ${run.cpuQuiet.toFixed(1)} s (quiet ${secs(run.quietAfterMs)} later)`,
    );
    const settled2 = await waitUntilQuiet(busy);
    say(`    ${settled2.quiet ? 'quiet' : 'still busy (measuring anyway)'} after ${secs(settled2.waitedMs)}`);
    say(`    baseline: draftStatement directly for the second organization, ${DIRECT_CONCURRENCY} at once…`);
    const direct = await directRun(
      orm,
      signer,
      b,
      (c) => dueAt(c, run.startedAt),
      Array.from({ length: CONTRACTS }, (_, i) => i),
    );
    say(`    ${CONTRACTS} statements drafted in ${secs(direct.wallMs)}; CPU ${direct.cpu.toFixed(1)} s`);

    const drafted = (
      await pg.query<{ lo: string; hi: string; credited: string; bytes: string }>(
        `select min(attainment_min::numeric)::text as lo, max(attainment_min::numeric)::text as hi, count(*) filter (where credit_amount_minor > 0) as credited, avg(length(document))::int as bytes
           from sla_statements where organization_id = $1 and created_at >= $2`,
        [a.id, new Date(run.startedAt)],
      )
    ).rows[0]!;

    // ------------------------------------------------------------------ (b)
    const fillT0 = Date.now();
    const fill = await fillStatements(pg, a.id, new Date(run.startedAt), STATEMENTS);
    const extraCustomers = Math.max(0, STATEMENTS - CONTRACT_CUSTOMERS);
    await pg.query(
      `insert into customers (id, organization_id, name, external_id, contact_email, created_at, updated_at, deleted_at)
       select gen_random_uuid(), $1, 'Customer ' || n || ' <GmbH>', 'ext-' || n, 'ops+' || n || '@customer.test', c.at, c.at, null
         from generate_series(1, $2::int) n, lateral (select now() - n * interval '47 minutes' as at) c`,
      [a.id, extraCustomers],
    );
    await pg.query('analyze sla_statements');
    await pg.query('analyze customers');
    const counts = (
      await pg.query<{ s: string; c: string }>(
        `select (select count(*) from sla_statements where organization_id = $1) as s, (select count(*) from customers where organization_id = $1) as c`,
        [a.id],
      )
    ).rows[0]!;
    const periods = (
      await pg.query<{ p: string }>(
        `select distinct period_label as p from sla_statements where organization_id = $1 order by 1 desc`,
        [a.id],
      )
    ).rows.map((r) => r.p);
    say(
      `(b) ${counts.s} statements in the organization (${fill.copied} SQL copies into ${fill.periods} earlier periods), ${counts.c} customers (${extraCustomers} inserted with SQL); ${secs(Date.now() - fillT0)}`,
    );
    const settled3 = await waitUntilQuiet(busy);
    say(
      `    ${settled3.quiet ? 'quiet' : 'still busy (measuring anyway)'} after ${secs(settled3.waitedMs)}; ${REQUESTS} + ${REQUESTS} requests one at a time (after ${LIST_WARMUP} + ${LIST_WARMUP} unmeasured)…`,
    );
    listApi = apiClient(baseUrl, a.key, 1);
    const list = await listLatency(listApi, periods);

    // ------------------------------------------------------------------ report
    const perStatement = (cpuS: number) => (cpuS * 1000) / CONTRACTS;
    // Net of what the processes use idle over as long (pollers, timers): the run's own work.
    const wfCpu = perStatement(run.cpuQuiet - run.vigilIdle);
    const serverCpu = run.serverCpu !== null ? perStatement(run.serverCpu - (run.serverIdle ?? 0)) : null;
    const directCpu = perStatement(direct.cpu);
    const listMet = list.statements.p99 < LIST_TARGET_MS;
    const kinds: Kind[] = ['first page', 'cursor page', 'period=', 'state=', 'period= & state='];
    const lines = [
      '',
      '================ bench/sla summary ================',
      `setup: 2 identical organizations, each ${SERVICES} services (a manual metric each, ${a.flips} status flips over ${HISTORY_MONTHS} months, ${a.maintenances} maintenances), ${CONTRACTS} contracts of 1–3 services in ${TIMEZONES.length} timezones`,
      VIA === 'schedules'
        ? `(a) one period run: ${CONTRACTS} statements, each contract's Temporal Schedule triggered (${secs(run.triggerMs)} to trigger all, ${TRIGGER_CONCURRENCY} at once; SLA_BENCH_VIA=schedules)`
        : `(a) one period run: ${CONTRACTS} statements, each contract's slaPeriodWorkflow started as its Schedule's action would (${secs(run.triggerMs)} to start all, ${TRIGGER_CONCURRENCY} at once; SLA_BENCH_VIA=workflows)`,
      `    slaPeriodWorkflow → slaPeriodDue → slaStatementWorkflow (child) → draft-and-sign activity, worker in the Vigil process (pool ${POOL_MAX})`,
      `    the statements: attainment ${drafted.lo}%..${drafted.hi}%, ${drafted.credited} of ${CONTRACTS} with a credit, signed documents of ${drafted.bytes} bytes on average`,
      `    wall time until all ${CONTRACTS} statements existed: ${secs(run.wallMs)} (${((CONTRACTS * 1000) / run.wallMs).toFixed(1)} statements/s); per contract:`,
      `      ${VIA === 'schedules' ? 'trigger' : 'start call'} → slaPeriodWorkflow started (Temporal${VIA === 'schedules' ? "'s scheduler" : ''}): ${fmtS(run.toPeriodStart)}`,
      `      slaPeriodWorkflow started → drafting began (Vigil's worker, queued behind the other contracts): ${fmtS(run.toDraft)}`,
      `    Vigil process CPU per statement: ${wfCpu.toFixed(2)} ms (${perStatement(run.cpuQuiet).toFixed(2)} ms counted until the process was quiet again, ${secs(run.quietAfterMs)} after the last row,`,
      `      less its idle use over as long, measured just before: ${perStatement(run.vigilIdle).toFixed(2)} ms)`,
      ...(serverCpu !== null
        ? [
            `    Temporal dev server CPU per statement: ${serverCpu.toFixed(2)} ms net of its idle use (${perStatement(run.serverCpu!).toFixed(2)} ms gross; in the ratio below only where said)`,
          ]
        : []),
      `    baseline, draftStatement called directly in the bench process, same data in the second organization, ${DIRECT_CONCURRENCY} at once (pool ${POOL_MAX}):`,
      `      wall ${secs(direct.wallMs)} (${((CONTRACTS * 1000) / direct.wallMs).toFixed(1)} statements/s), CPU per statement ${directCpu.toFixed(2)} ms`,
      `    Temporal orchestration overhead, workflow run / direct: wall ${ratio(run.wallMs, direct.wallMs)}, CPU per statement ${ratio(wfCpu, directCpu)}` +
        (serverCpu !== null ? ` (${ratio(wfCpu + serverCpu, directCpu)} with the Temporal server's CPU)` : ''),
      `    (the wall time includes ${VIA === 'schedules' ? "Temporal's scheduler starting the period workflows" : 'this process starting the period workflows'}: see per contract above; PostgreSQL's CPU is in neither figure;`,
      `     ${os.cpus().length} cores shared by the bench, Vigil, Temporal and PostgreSQL)`,
      `(b) list latency with ${counts.s} statements in the organization, page of ${PAGE}, ${REQUESTS} requests each, one at a time over HTTP`,
      `    GET /v1/sla/statements: ${fmt(list.statements)}`,
      ...kinds.filter((k) => list.byKind.has(k)).map((k) => `      ${k.padEnd(17)} ${fmt(list.byKind.get(k)!)}`),
      `      (cursor pages down to page ${list.deepestStatementPage}; periods ${periods.at(-1)}..${periods[0]}; states cycled: delivered, in_review, draft, approved, void)`,
      `    baseline GET /v1/customers, ${counts.c} customers: ${fmt(list.customers)}`,
      ...(['first page', 'cursor page'] as Kind[])
        .filter((k) => list.customerKinds.has(k))
        .map((k) => `      ${k.padEnd(17)} ${fmt(list.customerKinds.get(k)!)}`),
      `      (cursor pages down to page ${list.deepestCustomerPage})`,
      `    ratio statements / customers: p50 ${ratio(list.statements.p50, list.customers.p50)}, p99 ${ratio(list.statements.p99, list.customers.p99)}`,
      `    target p99 < ${LIST_TARGET_MS} ms: ${listMet ? 'PASS' : 'FAIL'} (${list.statements.p99.toFixed(1)} ms)`,
      '',
      `reproduce: npm run build --silent && SLA_BENCH_CONTRACTS=${CONTRACTS} SLA_BENCH_STATEMENTS=${STATEMENTS} SLA_BENCH_REQUESTS=${REQUESTS} SLA_BENCH_VIA=${VIA} WARMUP=${WARMUP} DIRECT_CONCURRENCY=${DIRECT_CONCURRENCY} POOL_MAX=${POOL_MAX}${config.TEMPORAL_ADDRESS ? ` TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}` : ''} node dist/bench/sla.js`,
      `(${os.cpus().length} CPUs, Node ${process.version}, ${(await pg.query<{ v: string }>('select version() as v')).rows[0]!.v.split(' on ')[0]}, database ${db.source}, Temporal ${devServer ? `dev server started by the bench at ${address}` : address})`,
      listMet ? 'TARGET MET' : 'TARGET MISSED',
      '===================================================',
    ];
    say(lines.join('\n'));
  } finally {
    if (temporal && config.TEMPORAL_ADDRESS)
      await cleanTemporal(
        temporal,
        orgs.flatMap((o) => o.contracts.filter(Boolean).map((c) => c.id)),
      ).catch((err) => say(`cleanup failed: ${(err as Error).message}`));
    if (vigil) await stopChild(vigil);
    await listApi?.close();
    for (const o of orgs) await o.api.close();
    await temporal?.close();
    if (pgConnected) await pg.end();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
    await devServer?.stop();
  }
}

runMain(main);
