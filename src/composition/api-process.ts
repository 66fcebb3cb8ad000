import type { FastifyInstance } from 'fastify';
import { slackReplySender } from '../usecases/alerting/slack-replies';
import type { Logger } from 'pino';
import { buildApp } from '../api/app';
import { type Config } from '../config';
import {
  alertLinkKey,
  mailOutboxDir,
  secretBox,
  slaLinks,
  slaTimings,
  subscriberLinkKey,
  webhookRetryPolicy,
} from './adapters';
import { createMailer } from '../infra/mailer';
import { publicOnlyPoster } from '../infra/webhook-http';
import { createStatementPdfRenderer } from '../infra/statement-pdf';
import { temporalSlaWorkflows } from '../temporal/sla-workflows';
import { logStartErrors, temporalOutboxWorkflowStarter } from '../temporal/outbox-workflow-starter';
import { temporalProbeTestRunner } from '../temporal/probe-test-runner';
import { temporalMetricScheduler } from '../temporal/metric-schedules';
import { ChangeFeed } from '../db/change-feed';
import type { Orm } from '../db/orm';
import { type TemporalHandle, checkTemporal, connectTemporal } from '../temporal/connection';
import { temporalMaintenanceScheduler } from '../temporal/maintenance-scheduler';
import { retryingMaintenanceScheduler } from '../usecases/maintenances/retrying-scheduler';
import type { WorkerHandle } from './worker';
import { ensureStatementSigningKey } from './signing-key';
import { temporalAlertControl, temporalChannelTester } from '../temporal/alert-control';

export interface ApiProcess {
  app: FastifyInstance;
  temporal: TemporalHandle;
  close(): Promise<void>;
}

/**
 * A worker running in the API's process (`vigil start`): cloud probe tests start eagerly on it
 * through its client, hand it their jobs and take their results back without a database round trip.
 */
export type InProcessWorker = Pick<WorkerHandle, 'eagerClient' | 'localProbeJobs'>;

/** The API with its workflow client, listening on HOST:PORT. */
export async function runApi(
  config: Config,
  orm: Orm,
  databaseUrl: string,
  temporalAddress: string,
  log: Logger,
  worker?: InProcessWorker,
  opts: { temporalUiUrl?: string | null } = {},
): Promise<ApiProcess> {
  await ensureStatementSigningKey(orm, config, log);
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const probeJobFeed = new ChangeFeed(databaseUrl, 'vigil_probe_jobs');
  await probeJobFeed.start();
  const temporal = await connectTemporal({
    address: temporalAddress,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
  });
  const printer = createStatementPdfRenderer({ executablePath: config.CHROMIUM_PATH });
  // The console mails sign-in links itself (SMTP_URL, or the development outbox folder).
  const consoleMailer = createMailer({
    smtpUrl: config.SMTP_URL ?? null,
    from: config.MAIL_FROM,
    outboxDir: mailOutboxDir(config),
    log: (line) => log.info(line),
  });
  // A maintenance changed while Temporal is unreachable has its workflow told once Temporal is back.
  const maintenanceScheduler = retryingMaintenanceScheduler(temporalMaintenanceScheduler(temporal), {
    onRetryFailed: (err, id) =>
      log.warn({ err, maintenance_id: id }, 'the maintenance workflow is still unreachable; retrying'),
  });
  const app = await buildApp({
    orm,
    config,
    changeFeed,
    maintenanceScheduler,
    secretBox: secretBox(config),
    linkKey: subscriberLinkKey(config),
    subscribeLimits: {
      perIpPerHour: config.SUBSCRIBE_LIMIT_PER_IP_HOUR,
      perPagePerHour: config.SUBSCRIBE_LIMIT_PER_PAGE_HOUR,
    },
    signInLimits: {
      perAddress: config.CONSOLE_SIGN_IN_LIMIT_PER_ADDRESS,
      perClient: config.CONSOLE_SIGN_IN_LIMIT_PER_CLIENT,
    },
    webhookStarter: temporalOutboxWorkflowStarter(temporal, webhookRetryPolicy(config), {
      onStartError: logStartErrors(log),
    }),
    probeTestRunner: temporalProbeTestRunner(temporal, { eagerClient: worker?.eagerClient }),
    localProbeJobs: worker?.localProbeJobs,
    metricScheduler: temporalMetricScheduler(temporal),
    probeJobFeed,
    probeTestExpiryMs: config.PROBE_TEST_EXPIRY_MS,
    logger: log.child({ component: 'api' }),
    readiness: [{ name: 'temporal', check: () => checkTemporal(temporal) }],
    sla: { workflows: temporalSlaWorkflows(temporal, slaTimings(config)), printer, links: slaLinks(config) },
    alerts: {
      control: temporalAlertControl(temporal),
      tester: temporalChannelTester(temporal),
      linkKey: alertLinkKey(config),
      slackReplies: slackReplySender(publicOnlyPoster(config.WEBHOOK_ALLOW_CIDRS), config.WEBHOOK_TIMEOUT_MS),
    },
    console: { mail: consoleMailer, temporalUiUrl: opts.temporalUiUrl ?? config.TEMPORAL_UI_URL ?? null },
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  return {
    app,
    temporal,
    async close() {
      await app.close();
      maintenanceScheduler.close();
      await printer.close();
      await consoleMailer.close();
      await temporal.close();
      await changeFeed.close();
      await probeJobFeed.close();
    },
  };
}
