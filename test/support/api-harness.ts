import type { AlertRouteDeps } from '../../src/api/routes/alerts';
import type { SignInLimits } from '../../src/domain/sign-in-limits';
import { appendFileSync } from 'node:fs';
import type { SlaRouteDeps } from '../../src/api/routes/sla';
import type { FastifyBaseLogger, FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../src/api/app';
import type { ReadinessProbe } from '../../src/api/routes/health';
import { loadConfig } from '../../src/config';
import { ChangeFeed } from '../../src/db/change-feed';
import { createOrm, type Orm } from '../../src/db/orm';
import type { PlanId } from '../../src/domain/plans';
import type { Scope } from '../../src/domain/scopes';
import { mintApiKey } from '../../src/usecases/organizations/api-keys';
import {
  createOrganization,
  type OrganizationPatch,
  updateOrganization,
} from '../../src/usecases/organizations/organizations';
import type { MaintenanceScheduler } from '../../src/usecases/maintenances/ports';
import { testDatabaseUrl, testLinkKey, testSecretBox } from './env';
import { withoutTemporal } from './app-deps';
import { OpenApiConformance } from './openapi-conformance';
import type { SubscribeLimits } from '../../src/usecases/status-pages/subscribers';
import type { OutboxWorkflowStarter } from '../../src/usecases/events/ports';
import type { ProbeTestRunner } from '../../src/usecases/probe-tests/ports';
import type { LocalProbeJobs } from '../../src/usecases/probe-tests/local-jobs';
import type { MetricScheduler } from '../../src/usecases/metrics/ports';
import type { ConsoleMail } from '../../src/usecases/console/ports';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestOrg {
  id: string;
  /** A key with every scope. */
  key: string;
}

export interface ApiHarness {
  baseUrl: string;
  orm: Orm;
  app: FastifyInstance;
  changeFeed: ChangeFeed;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<HttpResult<T>>;
  createOrg(plan?: PlanId, name?: string): Promise<TestOrg>;
  mintKey(orgId: string, scopes: Scope[]): Promise<string>;
  updateOrg(orgId: string, patch: OrganizationPatch): Promise<void>;
  close(): Promise<void>;
}

/** The real API on a loopback port, over real HTTP, against the suite's PostgreSQL database. */
export async function startApi(
  opts: {
    readiness?: ReadinessProbe[];
    beforeListen?: (app: FastifyInstance) => void;
    bodyLimit?: number;
    onRoute?: (route: RouteOptions) => void;
    maintenanceScheduler?: MaintenanceScheduler;
    webhookStarter?: OutboxWorkflowStarter;
    probeTestRunner?: ProbeTestRunner;
    probeTestExpiryMs?: number;
    localProbeJobs?: LocalProbeJobs;
    metricScheduler?: MetricScheduler;
    configLockTimeoutMs?: number;
    console?: { mail: ConsoleMail; temporalUiUrl?: string | null };
    subscribeLimits?: SubscribeLimits;
    sla?: SlaRouteDeps;
    signInLimits?: SignInLimits;
    /** The app's logger (default: none), e.g. createLogger with a capturing destination. */
    logger?: FastifyBaseLogger;
    /** Alert workflows, channel tests and the one-click link key. */
    alerts?: AlertRouteDeps;
    /** The installation whose cloud locations GET /v1/locations lists (a Temporal harness's task queue); default `vigil`. */
    taskQueue?: string;
  } = {},
): Promise<ApiHarness> {
  const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 5 });
  const config = {
    ...loadConfig({ DOCS_URL: 'https://docs.vigil.test' }),
    BODY_LIMIT_BYTES: opts.bodyLimit ?? 1_048_576,
    ...(opts.taskQueue ? { TEMPORAL_TASK_QUEUE: opts.taskQueue } : {}),
  };
  const changeFeed = new ChangeFeed(testDatabaseUrl());
  await changeFeed.start();
  const probeJobFeed = new ChangeFeed(testDatabaseUrl(), 'vigil_probe_jobs');
  await probeJobFeed.start();
  // What the test leaves out runs on named doubles that refuse loudly or record (app-deps.ts).
  const offline = withoutTemporal(config.publicBaseUrl);
  const app = await buildApp({
    orm,
    config,
    readiness: opts.readiness,
    onRoute: opts.onRoute,
    sla: opts.sla ?? offline.sla,
    changeFeed,
    maintenanceScheduler: opts.maintenanceScheduler ?? offline.maintenanceScheduler,
    secretBox: testSecretBox(),
    linkKey: testLinkKey(),
    // Suites share one database, and with it the hourly subscribe counters of 127.0.0.1: only the
    // tests of those limits set low ones.
    subscribeLimits: opts.subscribeLimits ?? { perIpPerHour: 10_000, perPagePerHour: 10_000 },
    // Likewise the console sign-in counters of 127.0.0.1 and of addresses other suites reuse.
    signInLimits: opts.signInLimits ?? { perAddress: 10_000, perClient: 10_000 },
    webhookStarter: opts.webhookStarter ?? null,
    probeTestRunner: opts.probeTestRunner ?? offline.probeTestRunner,
    probeJobFeed,
    probeTestExpiryMs: opts.probeTestExpiryMs,
    localProbeJobs: opts.localProbeJobs,
    metricScheduler: opts.metricScheduler ?? offline.metricScheduler,
    configLockTimeoutMs: opts.configLockTimeoutMs,
    console: opts.console ?? offline.console,
    logger: opts.logger,
    alerts: opts.alerts ?? offline.alerts,
  });
  opts.beforeListen?.(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  // Every exchange through request() is checked against the document this very app serves, so a
  // route whose runtime and OpenAPI description disagree fails the test that exercised it.
  let conformance: Promise<OpenApiConformance> | undefined;

  return {
    baseUrl,
    orm,
    app,
    changeFeed,
    async request(method, path, ro = {}) {
      const headers: Record<string, string> = { ...ro.headers };
      if (ro.key) headers.authorization = `Bearer ${ro.key}`;
      let body: string | undefined = ro.rawBody;
      if (ro.body !== undefined) {
        body = JSON.stringify(ro.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      if (/json/.test(res.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
      conformance ??= OpenApiConformance.create(JSON.parse(JSON.stringify(app.swagger())));
      const violations = (await conformance).check({
        method,
        url: path,
        requestHeaders: headers,
        requestBody: ro.body,
        rawRequestBody: ro.rawBody !== undefined,
        status: res.status,
        responseHeaders: res.headers,
        responseBody: parsed,
        responseText: text,
      });
      // VIGIL_CONFORMANCE_LOG=<file> collects every mismatch of a run instead of failing on the first (for fixing many at once).
      if (violations.length && process.env.VIGIL_CONFORMANCE_LOG && process.env.CI !== 'true')
        appendFileSync(process.env.VIGIL_CONFORMANCE_LOG, `${violations.join('\n')}\n`);
      else if (violations.length)
        throw new Error(`The answer does not match the served OpenAPI document:\n- ${violations.join('\n- ')}`);
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
    async createOrg(plan = 'business', name = 'Test org') {
      const { organization, key } = await createOrganization(orm.em.fork(), { name, plan }, new Date());
      return { id: organization.id, key: key.plaintext };
    },
    async mintKey(orgId, scopes) {
      return (await mintApiKey(orm.em.fork(), { organizationId: orgId, scopes }, new Date())).plaintext;
    },
    async updateOrg(orgId, patch) {
      // The API caches keys and plans until the change notification arrives; wait for it (the
      // app's own listener was registered first, so it has run by then).
      // A feed that lost its connection meanwhile (another suite's test ends every feed's session)
      // never hears it, but then the caches read PostgreSQL until it is back: that is as good.
      const seen = new Promise<void>((resolve) => {
        const done = () => {
          changeFeed.off('change', onChange);
          changeFeed.off('reset', done);
          changeFeed.off('live', done);
          resolve();
        };
        const onChange = (c: { t: string; o?: string }) => {
          if (c.t === 'organizations' && c.o === orgId) done();
        };
        changeFeed.on('change', onChange);
        changeFeed.on('reset', done);
        changeFeed.on('live', done);
        if (!changeFeed.live) done();
      });
      await updateOrganization(orm.em.fork(), orgId, patch, new Date());
      await seen;
    },
    async close() {
      await app.close();
      await changeFeed.close();
      await probeJobFeed.close();
      await orm.close();
    },
  };
}
