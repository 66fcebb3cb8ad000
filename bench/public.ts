import { runMain } from './child-server';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { procCpu, median } from './support/measure';
import os from 'node:os';
import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { dropDatabase } from '../src/launchers/postgres';
import type { PublicProcessEnv } from './public-support';
import { benchOrganization } from './support/seed';
import { benchDatabase, startVigilProcess, stopChild } from './support/processes';

/**
 * bench/public: the public status page under load, against a bare Fastify route, in one run.
 * One page (50 services, each with a manual metric and 90 days of uptime rollups and status flips) whose
 * organization has 1,000 published, resolved incidents of 10 messages each (10,000 feed entries;
 * ~14 resolved in the last 7 days, so on the page). At CONNECTIONS connections:
 *   (a) baseline: a bare Fastify route answering {} in a sibling Node process (as bench/api-overhead);
 *   (b) GET /                         (the HTML page);
 *   (c) GET /feed.atom?limit=200      (200, the newest 200 entries);
 *   (d) GET /feed.atom?limit=200 with the feed's ETag in If-None-Match (304);
 * (b)-(d) on the real API with its change feed (caches live), selected by the Host header
 * `bench.<STATUS_HOST>:<port>`. Rounds alternate a, b, c, d for DURATION s each; medians are reported.
 * Targets: (d) >= 50% of (a)'s req/s; (c) p99 < 50 ms; (b) p99 < 50 ms.
 *
 *   npm run bench:public
 *   (DURATION=10 ROUNDS=3 CONNECTIONS=50 WARMUP=3 POOL_MAX=10 STATUS_HOST=status.localhost;
 *    VIGIL_NODE_ARGS adds node flags to the API process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
 */
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const WARMUP = Number(process.env.WARMUP ?? 3);
const POOL_MAX = Number(process.env.POOL_MAX ?? 10);
const STATUS_HOST = process.env.STATUS_HOST ?? 'status.localhost';
const SERVICES = 50;
const INCIDENTS = 1_000;
const MESSAGES_PER_INCIDENT = 10;
const FEED_LIMIT = 200;
const RATIO_304_TARGET = 0.5;
const P99_TARGET_MS = 50;

const say = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  status: number;
  /** The process serving it, for its CPU use. */
  pid: number;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU of the serving process, in % of one core. */
  cpu: number;
}

async function load(t: Target, duration: number): Promise<Run> {
  const cpu0 = procCpu(t.pid) ?? 0;
  const r = await autocannon({ url: t.url, connections: CONNECTIONS, duration, headers: t.headers, pipelining: 1 });
  const cpu = (((procCpu(t.pid) ?? 0) - cpu0) / r.duration) * 100;
  const byStatus = Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0] as const);
  const wrong = byStatus.filter(([code, n]) => code !== String(t.status) && n > 0);
  if (r.errors > 0 || wrong.length)
    throw new Error(`${t.label}: ${r.errors} errors, unexpected statuses ${JSON.stringify(Object.fromEntries(wrong))}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, cpu };
}

async function get(url: string, headers: Record<string, string>) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/** 1,000 published, resolved incidents 12 h apart (newest 12 h ago), each on one service, with 10 messages over its 2 hours. */
const SEED_INCIDENTS = `
  with svc as (select array_agg(id order by name) as ids from services where organization_id = $1),
  inc as (
    insert into incidents (id, organization_id, title, severity, affected_services, visible_to_customer_ids, published_at, resolved_at, canceled_at, deleted_at, created_at, updated_at)
    select gen_random_uuid(), $1, 'Elevated error rates on ' || svc.ids[1 + n % array_length(svc.ids, 1)]::text || ' (#' || n || ')',
           (array['minor', 'major', 'critical'])[1 + n % 3], array[svc.ids[1 + n % array_length(svc.ids, 1)]], '{}',
           t, t + interval '2 hours', null, null, t, t + interval '2 hours'
      from svc, generate_series(1, $2::int) n, lateral (select now() - n * interval '12 hours' - interval '2 hours' as t) x
    returning id, published_at
  )
  insert into incident_messages (id, organization_id, incident_id, type, body, posted_at)
  select gen_random_uuid(), $1, inc.id,
         case when m = 1 then 'Investigating' when m = $3::int then 'Resolved' else 'Update' end,
         'Message ' || m || ': we are seeing elevated error rates & slow responses for some requests. ' ||
           'Engineers are looking into it <and> will post again within 30 minutes; thank you for your patience.',
         inc.published_at + (m - 1) * (interval '2 hours' / ($3::int - 1))
    from inc, generate_series(1, $3::int) m`;

/** 90 days of daily rollups per metric: mostly healthy, a few unhealthy samples. */
const SEED_ROLLUPS = `
  insert into metric_daily_rollups (metric_id, organization_id, day, samples, healthy, degraded, unhealthy, no_data)
  select m.id, m.organization_id, current_date - d, 1440, 1440 - u, 0, u, 0
    from metrics m, generate_series(0, 89) d, lateral (select abs(hashtext(m.id::text || d)) % 4 as u) x
   where m.organization_id = $1`;

/**
 * The status flips that uptime is measured from: per metric and day, healthy from
 * midnight and, on the days with unhealthy minutes, down for that many minutes from noon (about
 * 200 flips per metric over the 90 days), some of them no_data with a target reason.
 */
const SEED_FLIPS = `
  insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, at)
  select gen_random_uuid(), m.organization_id, m.id, f.from_status, f.to_status, f.value, f.reason, f.at
    from metrics m, generate_series(0, 89) d, lateral (select abs(hashtext(m.id::text || d)) % 4 as u) x,
    lateral (values
      ('no_data', 'healthy', 1.0::float8, null::text, (current_date - d)::timestamptz),
      ('healthy', case when x.u = 1 then 'no_data' else 'unhealthy' end, null, case when x.u = 1 then 'ECONNREFUSED' end, (current_date - d)::timestamptz + interval '12 hours'),
      (case when x.u = 1 then 'no_data' else 'unhealthy' end, 'healthy', 1.0, null, (current_date - d)::timestamptz + interval '12 hours' + x.u * interval '1 minute')
    ) as f(from_status, to_status, value, reason, at)
   where m.organization_id = $1 and (x.u > 0 or f.to_status = 'healthy' and f.from_status = 'no_data')`;

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url, poolMax: 2 });
  const pg = new PgClient({ connectionString: db.url });
  const children: ChildProcess[] = [];
  let pgConnected = false;
  try {
    await migrate(orm);
    await pg.connect();
    pgConnected = true;
    const now = new Date();
    const { organization, key } = await benchOrganization(orm, 'Bench public', now);

    const bare = await startVigilProcess('public-support.js', { BENCH_MODE: 'bare' } satisfies PublicProcessEnv);
    children.push(bare.child);
    const vigil = await startVigilProcess('public-support.js', {
      BENCH_MODE: 'vigil',
      BENCH_DATABASE_URL: db.url,
      BENCH_POOL_MAX: String(POOL_MAX),
      BENCH_MASTER_KEY: randomBytes(32).toString('hex'),
      BENCH_STATUS_HOST: STATUS_HOST,
    } satisfies PublicProcessEnv);
    children.push(vigil.child);
    const base = `http://127.0.0.1:${vigil.port}`;
    say(
      `Vigil API on ${base} (pool ${POOL_MAX}, STATUS_HOST ${STATUS_HOST}), bare Fastify on 127.0.0.1:${bare.port}; database ${db.url}`,
    );

    const call = async <T>(p: string, body: unknown): Promise<T> => {
      const res = await request(`${base}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.plaintext}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`POST ${p}: ${res.statusCode} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    };
    const serviceIds: string[] = [];
    for (let i = 0; i < SERVICES; i++) {
      const s = await call<{ id: string }>('/v1/services', {
        name: `service-${String(i).padStart(2, '0')}`,
        description: `Bench service ${i}`,
      });
      await call('/v1/metrics', { service_id: s.id, name: `manual-${i}`, source_type: 'manual', source_config: {} });
      serviceIds.push(s.id);
    }
    await call('/v1/status-pages', {
      subdomain: 'bench',
      title: 'Bench Status',
      groups: [{ name: 'All', components: serviceIds.map((id) => ({ kind: 'service', id })) }],
    });
    const t0 = performance.now();
    await pg.query(SEED_INCIDENTS, [organization.id, INCIDENTS, MESSAGES_PER_INCIDENT]);
    await pg.query(SEED_ROLLUPS, [organization.id]);
    await pg.query(SEED_FLIPS, [organization.id]);
    const [counts] = (
      await pg.query<{ i: string; m: string }>(
        `select (select count(*) from incidents) as i, (select count(*) from incident_messages) as m`,
      )
    ).rows;
    say(
      `${SERVICES} services with a manual metric and a status page created over the API; ${counts!.i} incidents with ${counts!.m} messages and 90 days of rollups and status flips inserted in ${(performance.now() - t0).toFixed(0)} ms`,
    );

    // Check every path answers what it should before loading it.
    const host = { host: `bench.${STATUS_HOST}:${vigil.port}` };
    // Browsers and feed readers send this; the checks below do not, so they see the plain body.
    const client = { ...host, 'accept-encoding': 'gzip, deflate, br' };
    const feedUrl = `${base}/feed.atom?limit=${FEED_LIMIT}`;
    const page = await get(`${base}/`, host);
    if (page.status !== 200 || !page.body.includes('Bench Status') || !page.body.includes(`service-${SERVICES - 1}`))
      throw new Error(`GET /: ${page.status} ${page.body.slice(0, 300)}`);
    const feed = await get(feedUrl, host);
    const entries = feed.body.match(/<entry>/g)?.length ?? 0;
    const etag = feed.headers.etag;
    if (feed.status !== 200 || entries !== FEED_LIMIT || typeof etag !== 'string')
      throw new Error(`GET /feed.atom: ${feed.status}, ${entries} entries, etag ${etag}`);
    const notModified = await get(feedUrl, { ...host, 'if-none-match': etag });
    if (notModified.status !== 304) throw new Error(`GET /feed.atom with If-None-Match: ${notModified.status}`);
    say(
      `GET / ${(page.body.length / 1024).toFixed(0)} kB; GET /feed.atom?limit=${FEED_LIMIT} ${(feed.body.length / 1024).toFixed(0)} kB, ${entries} entries, ETag ${etag}`,
    );

    const targets: Target[] = [
      {
        label: '(a) bare Fastify {}',
        url: `http://127.0.0.1:${bare.port}/`,
        headers: { 'accept-encoding': client['accept-encoding'] },
        status: 200,
        pid: bare.child.pid!,
      },
      { label: '(b) GET / (page)', url: `${base}/`, headers: client, status: 200, pid: vigil.child.pid! },
      {
        label: `(c) GET /feed.atom?limit=${FEED_LIMIT} 200`,
        url: feedUrl,
        headers: client,
        status: 200,
        pid: vigil.child.pid!,
      },
      {
        label: `(d) GET /feed.atom?limit=${FEED_LIMIT} 304`,
        url: feedUrl,
        headers: { ...client, 'if-none-match': etag },
        status: 304,
        pid: vigil.child.pid!,
      },
    ];
    if (WARMUP > 0) {
      for (const t of targets) await load(t, WARMUP);
      say(`warm-up: ${WARMUP} s of each`);
    }
    const runs: Run[][] = targets.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, t] of targets.entries()) runs[i]!.push(await load(t, DURATION));
      say(
        `round ${r + 1}: ${targets.map((t, i) => `${t.label.slice(0, 3)} ${runs[i]![r]!.rps.toFixed(0)} req/s p99 ${runs[i]![r]!.p99} ms`).join(' | ')}`,
      );
    }

    // What a cache miss costs: the page's row changing drops its cached views (change feed); then one request at a time.
    const [pageRow] = (await pg.query<{ id: string }>(`select id from status_pages where subdomain = 'bench'`)).rows;
    const serial = async (url: string, headers: Record<string, string>, n: number, miss: boolean) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        if (miss) {
          await pg.query(`update status_pages set updated_at = updated_at where id = $1`, [pageRow!.id]);
          await sleep(100);
        }
        const t = performance.now();
        await get(url, headers);
        ms.push(performance.now() - t);
      }
      return median(ms);
    };
    const single = async (url: string, headers: Record<string, string>) => ({
      miss: await serial(url, headers, 15, true),
      hit: await serial(url, headers, 50, false),
    });
    const lone = { page: await single(`${base}/`, host), feed: await single(feedUrl, host) };

    const m = runs.map((rs) => ({
      rps: median(rs.map((x) => x.rps)),
      p50: median(rs.map((x) => x.p50)),
      p99: median(rs.map((x) => x.p99)),
      max: Math.max(...rs.map((x) => x.max)),
      cpu: median(rs.map((x) => x.cpu)),
    }));
    const [a, b, c, d] = m as [Run, Run, Run, Run];
    const row = (cells: string[]) =>
      `${cells[0]!.padEnd(36)}${cells
        .slice(1)
        .map((x) => x.padStart(10))
        .join('')}`;
    const checks = [
      {
        name: '304 path >= 50% of bare req/s',
        met: d.rps / a.rps >= RATIO_304_TARGET,
        got: `${((d.rps / a.rps) * 100).toFixed(1)}%`,
      },
      { name: `feed 200 p99 < ${P99_TARGET_MS} ms`, met: c.p99 < P99_TARGET_MS, got: `${c.p99} ms` },
      { name: `page p99 < ${P99_TARGET_MS} ms`, met: b.p99 < P99_TARGET_MS, got: `${b.p99} ms` },
    ];
    const lines = [
      '',
      '================ bench/public summary ================',
      `one page: ${SERVICES} services, ${INCIDENTS} incidents x ${MESSAGES_PER_INCIDENT} messages; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${DURATION} s per path, alternating; medians (max: over all rounds)`,
      row(['', 'req/s', 'vs bare', 'p50 ms', 'p99 ms', 'max ms', 'CPU %']),
      ...targets.map((t, i) =>
        row([
          t.label,
          m[i]!.rps.toFixed(0),
          `${((m[i]!.rps / a.rps) * 100).toFixed(1)}%`,
          String(m[i]!.p50),
          String(m[i]!.p99),
          String(m[i]!.max),
          m[i]!.cpu.toFixed(0),
        ]),
      ),
      '(CPU %: the serving process, % of one core; the load generator shares the machine)',
      `one request at a time, median: GET / ${lone.page.miss.toFixed(1)} ms uncached, ${lone.page.hit.toFixed(1)} ms cached (${(page.body.length / 1024).toFixed(0)} kB); ` +
        `feed 200 ${lone.feed.miss.toFixed(1)} ms uncached, ${lone.feed.hit.toFixed(1)} ms cached (${(feed.body.length / 1024).toFixed(0)} kB)`,
      ...checks.map((x) => `${x.met ? 'MET   ' : 'MISSED'} ${x.name}: ${x.got}`),
      '',
      `reproduce: npm run build --silent && DURATION=${DURATION} ROUNDS=${ROUNDS} CONNECTIONS=${CONNECTIONS} WARMUP=${WARMUP} POOL_MAX=${POOL_MAX} node dist/bench/public.js`,
      `(${os.cpus().length} CPUs, Node ${process.version}, ${(await pg.query<{ v: string }>('select version() as v')).rows[0]!.v.split(' on ')[0]}, database ${db.source})`,
      checks.every((x) => x.met)
        ? 'TARGETS MET'
        : `TARGETS MISSED (${checks
            .filter((x) => !x.met)
            .map((x) => x.name)
            .join('; ')})`,
      '======================================================',
    ];
    say(lines.join('\n'));
  } finally {
    for (const c of children) await stopChild(c);
    if (pgConnected) await pg.end();
    await orm.close();
    await dropDatabase(db.url);
    await db.stop();
  }
}

runMain(main);
