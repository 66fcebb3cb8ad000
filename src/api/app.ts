import type { SignInLimits } from '../domain/sign-in-limits';
import { createHmac, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyBaseLogger, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Config, trustProxy } from '../config';
import type { Orm } from '../db/orm';
import type { ChangeFeed } from '../db/change-feed';
import { registerOpenApi } from './openapi';
import { type Platform, createPlatform } from './platform';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, errorsPlugin, frameworkErrorHandler, shuttingDown } from './plugins/errors';
import { sendProblem } from './problem';
import { jsonBodyPlugin } from './plugins/json-body';
import { requestContextPlugin } from './plugins/request-context';
import { configRoutes } from './routes/config';
import { consolePlugin } from './console/plugin';
import type { ConsoleMail } from '../usecases/console/ports';
import { changeEventRoutes } from './routes/change-events';
import { customerRoutes } from './routes/customers';
import { incidentRoutes } from './routes/incidents';
import { incidentTemplateRoutes } from './routes/incident-templates';
import { maintenanceRoutes } from './routes/maintenances';
import type { MaintenanceScheduler } from '../usecases/maintenances/ports';
import { docsRoutes } from './routes/docs';
import { type ReadinessProbe, healthRoutes } from './routes/health';
import { serviceRoutes } from './routes/services';
import { webhookRoutes } from './routes/webhooks';
import { agentRoutes } from './routes/agents';
import { locationRoutes } from './routes/locations';
import { agentApiRoutes } from './routes/agent-api';
import { probeTestRoutes } from './routes/probe-tests';
import { metricRoutes } from './routes/metrics';
import { inboundRoutes } from './routes/inbound';
import { sloRoutes } from './routes/slos';
import { alertingConfigRoutes } from './routes/alerting-config';
import { type AlertRouteDeps, alertRoutes } from './routes/alerts';
import { slackInteractionRoutes } from './routes/slack-interactions';
import type { MetricScheduler } from '../usecases/metrics/ports';
import { JobWaiter } from './job-waiter';
import type { LocalProbeJobs } from '../usecases/probe-tests/local-jobs';
import type { ProbeTestRunner } from '../usecases/probe-tests/ports';
import type { SecretBox } from '../crypto/secret-box';
import type { OutboxWorkflowStarter } from '../usecases/events/ports';
import { statusPageRoutes } from './routes/status-pages';
import { PAGE_ROUTE_PREFIX, publicPageRoutes, publicSubscribeRoutes } from './routes/public-pages';
import { subdomainOfHost } from '../domain/status-page/subdomain';
import type { SubscribeLimits } from '../usecases/status-pages/subscribers';
import { type SlaRouteDeps, jwksRoutes, slaRoutes } from './routes/sla';

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
}

export interface AppDeps {
  orm: Orm;
  config: Pick<Config, 'docsUrl' | 'publicBaseUrl' | 'BODY_LIMIT_BYTES'> &
    Partial<
      Pick<
        Config,
        'STATUS_HOST' | 'TRUST_PROXY' | 'SAMPLE_MAX_AGE' | 'METRIC_SAMPLE_RETENTION_DAYS' | 'TEMPORAL_TASK_QUEUE'
      >
    >;
  /** Signs and checks subscribers' confirm/unsubscribe links (config: subscriberLinkKey) and keys the console's CSRF tokens. */
  linkKey: Buffer;
  /** Public subscribe abuse limits (SUBSCRIBE_LIMIT_*); generous defaults when absent. */
  subscribeLimits?: SubscribeLimits;
  /** Console sign-in limits (CONSOLE_SIGN_IN_LIMIT_*); DEFAULT_SIGN_IN_LIMITS when absent. */
  signInLimits?: SignInLimits;
  /** Extra readiness checks (Temporal); the database check is always there. */
  readiness?: ReadinessProbe[];
  logger?: FastifyBaseLogger;
  /** The change feed the API's caches follow; without one they are bypassed. */
  changeFeed?: ChangeFeed | null;
  /** Reaches maintenance workflows (their start and end timers). */
  maintenanceScheduler: MaintenanceScheduler;
  /** Seals secrets at rest (webhook signing secrets) with the master key. */
  secretBox: SecretBox;
  /** Starts webhook delivery workflows (redeliver); null: the outbox sweep starts them. */
  webhookStarter: OutboxWorkflowStarter | null;
  /** Runs probe tests as Temporal workflows. */
  probeTestRunner: ProbeTestRunner;
  /** Notifications of probe-test jobs (channel vigil_probe_jobs); without it waiters poll. */
  probeJobFeed?: ChangeFeed | null;
  /** How long an agent has to answer a probe test (spec: 2 minutes). */
  probeTestExpiryMs?: number;
  /** The probe-test jobs of a worker in this process (`vigil start`), with `probeTestRunner` starting cloud tests eagerly on it. */
  localProbeJobs?: LocalProbeJobs;
  /** Keeps cloud metrics' Temporal Schedules in step. */
  metricScheduler: MetricScheduler;
  /** The console: where its sign-in links are mailed, and the Temporal UI it links to. */
  console: { mail: ConsoleMail; temporalUiUrl?: string | null };
  /** How long a config apply waits for another one of the organization (default 30 s). */
  configLockTimeoutMs?: number;
  /** Contracts and SLA statements: their workflows, the PDF printer and the verification links. */
  sla: SlaRouteDeps;
  /** Alert workflows (acknowledge, resolve, snooze), channel tests, Slack follow-ups and the one-click links' key. */
  alerts: AlertRouteDeps;
  /** Observes every route as it is registered (the OpenAPI completeness test, docs generation). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * What the API cannot run without: production builds each of these in its composition root, and
 * a test passes them or named doubles (test/support/app-deps.ts). A missing one stops the process
 * at start, naming it, instead of leaving a feature quietly inert.
 */
const REQUIRED_DEPS = [
  'orm',
  'config',
  'secretBox',
  'linkKey',
  'maintenanceScheduler',
  'metricScheduler',
  'probeTestRunner',
  'console',
  'sla',
  'alerts',
] as const satisfies readonly (keyof AppDeps)[];

export function missingAppDeps(deps: Partial<AppDeps>): string[] {
  const missing: string[] = REQUIRED_DEPS.filter((name) => deps[name] === undefined || deps[name] === null);
  if (deps.webhookStarter === undefined) missing.push('webhookStarter');
  return missing;
}

/** The whole HTTP API as one Fastify instance; callers decide whether to listen or inject. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const missing = missingAppDeps(deps);
  if (missing.length) throw new Error(`buildApp: missing ${missing.map((m) => `deps.${m}`).join(', ')}`);
  const statusHost = deps.config.STATUS_HOST ?? 'status.localhost';
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.config.BODY_LIMIT_BYTES,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // Status pages: a request to <subdomain>.<STATUS_HOST> is served by the page routes, whatever its path.
    rewriteUrl: (req) =>
      subdomainOfHost(req.headers.host, statusHost) ? `${PAGE_ROUTE_PREFIX}${req.url ?? '/'}` : (req.url ?? '/'),
    // Behind a reverse proxy, client addresses (subscribe limits) and https (Secure cookies) come from X-Forwarded-*.
    trustProxy: trustProxy({ TRUST_PROXY: deps.config.TRUST_PROXY ?? '' }),
    routerOptions: { ignoreTrailingSlash: true },
    // Errors before routing (a URL that cannot be decoded) and those of Node's HTTP parser are problems too.
    frameworkErrors: frameworkErrorHandler(deps.config.docsUrl),
    clientErrorHandler: clientErrorHandler(deps.config.docsUrl),
    // Fastify's own answer while closing is plain JSON; ours (below) is a problem.
    return503OnClosing: false,
    // A request must arrive whole within 2 minutes (Fastify's default is no limit): a slow sender cannot hold a connection forever.
    requestTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Callback-style hooks (here and in the plugins): every request passes them, and they cost less than async ones.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // A request on a kept-alive connection while the instance drains: tell the client to go elsewhere.
    if (closing) return void sendProblem(reply.header('connection', 'close'), deps.config.docsUrl, shuttingDown());
    done();
  });

  await app.register(errorsPlugin, { docsUrl: deps.config.docsUrl });
  await app.register(jsonBodyPlugin);
  await app.register(requestContextPlugin, { orm: deps.orm });
  const platform = createPlatform(deps.orm, deps.changeFeed ?? null);
  app.decorate('platform', platform);
  await app.register(authPlugin, { pricingUrl: `${deps.config.docsUrl}/pricing`, platform });
  await registerOpenApi(app, { publicBaseUrl: deps.config.publicBaseUrl });

  const dbProbe: ReadinessProbe = {
    name: 'database',
    check: async () => void (await deps.orm.em.getConnection().execute('select 1')),
  };
  await app.register(healthRoutes, { probes: [dbProbe, ...(deps.readiness ?? [])] });
  await app.register(docsRoutes, { openapi: () => app.swagger() });
  const site = { statusHost, publicBaseUrl: deps.config.publicBaseUrl };
  const subscribeLimits = deps.subscribeLimits ?? { perIpPerHour: 20, perPagePerHour: 500 };
  await app.register(jwksRoutes, { path: '/.well-known/jwks.json', operationId: 'getJwks' });
  await app.register(publicPageRoutes, {
    prefix: PAGE_ROUTE_PREFIX,
    box: deps.secretBox,
    site,
    linkKey: deps.linkKey,
    limits: subscribeLimits,
  });
  const waiter = new JobWaiter(deps.probeJobFeed ?? null);
  const runner = deps.probeTestRunner;
  const probeTests = {
    runner,
    watches: waiter,
    expiryMs: deps.probeTestExpiryMs ?? 120_000,
    localJobs: deps.localProbeJobs,
  };
  const slaDeps = deps.sla;
  await app.register(consolePlugin, {
    prefix: '/console',
    csrfKey: createHmac('sha256', deps.linkKey).update('vigil/console-csrf/v1').digest(),
    consoleUrl: `${deps.config.publicBaseUrl}/console`,
    temporalUiUrl: deps.console.temporalUiUrl ?? null,
    publicBaseUrl: deps.config.publicBaseUrl,
    statusSite: site,
    pricingUrl: `${deps.config.docsUrl}/pricing`,
    secureCookie: deps.config.publicBaseUrl.startsWith('https:'),
    mail: deps.console.mail,
    signInLimits: deps.signInLimits,
    box: deps.secretBox,
    metricScheduler: deps.metricScheduler,
    maintenanceScheduler: deps.maintenanceScheduler,
    slaWorkflows: slaDeps.workflows,
    webhookStarter: deps.webhookStarter ?? undefined,
    probeTests,
    slaLinks: slaDeps.links,
    slaPrinter: slaDeps.printer,
    locationTaskQueue: deps.config.TEMPORAL_TASK_QUEUE ?? 'vigil',
    alerts: deps.alerts,
  });
  await app.register(
    async (v1) => {
      await v1.register(serviceRoutes, { scheduler: deps.metricScheduler });
      await v1.register(customerRoutes);
      await v1.register(changeEventRoutes);
      await v1.register(incidentRoutes);
      await v1.register(incidentTemplateRoutes);
      await v1.register(maintenanceRoutes, { ports: { scheduler: deps.maintenanceScheduler } });
      await v1.register(webhookRoutes, { box: deps.secretBox, starter: deps.webhookStarter ?? undefined });
      await v1.register(agentRoutes);
      await v1.register(locationRoutes, { taskQueue: deps.config.TEMPORAL_TASK_QUEUE ?? 'vigil' });
      await v1.register(metricRoutes, {
        ports: { scheduler: deps.metricScheduler },
        publicBaseUrl: deps.config.publicBaseUrl,
        sampleRetentionDays: deps.config.METRIC_SAMPLE_RETENTION_DAYS,
      });
      await v1.register(inboundRoutes);
      await v1.register(sloRoutes);
      await v1.register(alertingConfigRoutes, { box: deps.secretBox });
      await v1.register(alertRoutes, deps.alerts);
      await v1.register(slackInteractionRoutes, { box: deps.secretBox, alerts: deps.alerts });
      await v1.register(slaRoutes, slaDeps);
      await v1.register(jwksRoutes, { path: '/sla/jwks.json', operationId: 'getSlaJwks' });
      await v1.register(statusPageRoutes, { box: deps.secretBox, site });
      await v1.register(configRoutes, {
        ports: {
          box: deps.secretBox,
          metricScheduler: deps.metricScheduler,
          slaWorkflows: deps.sla.workflows,
          lockTimeoutMs: deps.configLockTimeoutMs,
        },
        publicBaseUrl: deps.config.publicBaseUrl,
      });
      await v1.register(publicSubscribeRoutes, { box: deps.secretBox, limits: subscribeLimits });
      await v1.register(probeTestRoutes, { deps: probeTests });
      await v1.register(agentApiRoutes, { runner, waiter, sampleMaxAgeMs: deps.config.SAMPLE_MAX_AGE });
    },
    { prefix: '/v1' },
  );
  app.addHook('onClose', async () => {
    // The ORM belongs to the caller (it may be shared with a worker); nothing to close here.
  });
  return app;
}
