import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/api/app';
import { loadConfig } from '../src/config';
import { createOrm, migrate } from '../src/db/orm';
import { SecretBox } from '../src/crypto/secret-box';
import { dropDatabase } from '../src/launchers/postgres';
import { consumeSignIn, issueSignInLink } from '../src/usecases/console/sign-in';
import { createConsoleUser } from '../src/usecases/console/users';
import { commitSamples } from '../src/usecases/metrics/ingest';
import { createOrganization } from '../src/usecases/organizations/organizations';
import { stats } from './support/measure';
import { benchDatabase } from './support/processes';
import { withoutTemporal } from '../test/support/app-deps';

/**
 * bench/console-overview: GET /console for an organization of 200 services (190 with a metric and
 * two months of status history) and 50 open incidents, against GET /console/agents (an almost
 * empty console page: the session, the layout, one small query) in the same run and process.
 * Requests go through Fastify's inject (no sockets), one at a time, alternating the two pages;
 * medians are reported, with the overview's size and its ratio to the baseline.
 * Targets: overview server time < 100 ms and size < 150 kB.
 *
 *   npm run bench:console        (REQUESTS=60 per page, WARMUP=10)
 */
const REQUESTS = Number(process.env.REQUESTS ?? 60);
const WARMUP = Number(process.env.WARMUP ?? 10);
const DAY = 86_400_000;

async function seed(app: FastifyInstance, em: () => EntityManager): Promise<{ orgId: string; cookie: string }> {
  const { organization, key } = await createOrganization(
    em(),
    { name: 'Bench console', plan: 'enterprise' },
    new Date(),
  );
  const call = async (method: 'POST', url: string, payload: object) => {
    const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${key.plaintext}` } });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { id: string };
  };
  const services: string[] = [];
  for (let i = 0; i < 200; i++)
    services.push((await call('POST', '/v1/services', { name: `Service ${String(i).padStart(3, '0')}` })).id);
  const thresholds = {
    healthy_operation: 'under',
    healthy_value: 120,
    unhealthy_operation: 'over',
    unhealthy_value: 600,
  };
  const metrics: string[] = [];
  for (const s of services.slice(0, 190))
    metrics.push(
      (
        await call('POST', '/v1/metrics', {
          service_id: s,
          name: 'heartbeat',
          source_type: 'heartbeat',
          source_config: {},
          thresholds,
        })
      ).id,
    );
  const now = Date.now();
  const rounds: [number, (i: number) => string | null][] = [
    [60 * DAY, () => 'healthy'],
    [30 * DAY, (i) => (i % 5 === 0 ? 'unhealthy' : null)],
    [30 * DAY - 7_200_000, (i) => (i % 5 === 0 ? 'healthy' : null)],
    [300_000, (i) => (i % 19 === 0 ? 'unhealthy' : i % 7 === 0 ? 'degraded' : 'healthy')],
  ];
  for (const [ago, statusOf] of rounds) {
    const rows = metrics.flatMap((metricId, i) => {
      const status = statusOf(i);
      return status ? [{ metricId, sampledAt: new Date(now - ago), value: 60, status, reason: null }] : [];
    });
    await commitSamples(em(), organization.id, rows, new Date());
  }
  for (let i = 0; i < 50; i++)
    await call('POST', '/v1/incidents', {
      title: `Incident ${i}: errors on the checkout path`,
      severity: i % 3 === 0 ? 'critical' : 'major',
      affected_services: services.slice(i, i + 4),
      publish: i % 5 !== 0,
    });
  const user = await createConsoleUser(
    em(),
    { organizationId: organization.id, email: 'bench@console.test', role: 'operator' },
    new Date(),
  );
  const link = await issueSignInLink(em(), user, 'http://bench.test/console', new Date());
  const session = await consumeSignIn(em(), link.url.split('/').pop()!, new Date());
  if (!session) throw new Error('sign-in failed');
  return { orgId: organization.id, cookie: `vigil_console=${session.sessionToken}` };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await benchDatabase(config);
  const orm = await createOrm({ url: db.url });
  try {
    await migrate(orm);
    const app = await buildApp({
      ...withoutTemporal(config.publicBaseUrl),
      linkKey: randomBytes(32),
      orm,
      config: { ...config, BODY_LIMIT_BYTES: 1_048_576 },
      secretBox: new SecretBox(randomBytes(32)),
      console: { mail: { send: async () => undefined } },
    });
    await app.ready();
    const { cookie } = await seed(app, () => orm.em.fork() as EntityManager);
    const timed = async (url: string) => {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      return { ms, bytes: res.rawPayload.length };
    };
    for (let i = 0; i < WARMUP; i++) {
      await timed('/console');
      await timed('/console/agents');
    }
    const overview: number[] = [];
    const baseline: number[] = [];
    let bytes = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const o = await timed('/console');
      overview.push(o.ms);
      bytes = o.bytes;
      baseline.push((await timed('/console/agents')).ms);
    }
    const o = stats(overview);
    const b = stats(baseline);
    const met = (ok: boolean) => (ok ? 'MET' : 'MISSED');
    console.log(`GET /console/agents (baseline): median ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms`);
    console.log(
      `GET /console (200 services, 50 open incidents): median ${o.p50.toFixed(1)} ms, p99 ${o.p99.toFixed(1)} ms, ${(bytes / 1024).toFixed(1)} kB; ${(o.p50 / b.p50).toFixed(1)}x the baseline`,
    );
    console.log(`target server time < 100 ms (median): ${met(o.p50 < 100)}`);
    console.log(`target size < 150 kB: ${met(bytes < 150 * 1024)}`);
    await app.close();
  } finally {
    await orm.close();
    await dropDatabase(db.url).catch(() => undefined);
    await db.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
