import type { Logger } from 'pino';
import { type Config } from '../config';
import {
  alertLinkKey,
  emailDeps,
  secretBox,
  slaLinks,
  slaTimings,
  statementSigner,
  webhookRetryPolicy,
} from './adapters';
import { temporalSlaWorkflows } from '../temporal/sla-workflows';
import { createStatementPdfRenderer } from '../infra/statement-pdf';
import { pdfSource } from '../usecases/sla/documents';
import type { Orm } from '../db/orm';
import { registerSearchAttributes } from '../temporal/search-attributes';
import { connectTemporal } from '../temporal/connection';
import { temporalMaintenanceScheduler } from '../temporal/maintenance-scheduler';
import { installTemporalRuntime, temporalLogLevel } from '../temporal/runtime';
import {
  ensureHousekeepingSchedule,
  ensureMetricSweepSchedule,
  ensureAlertSweepSchedule,
  ensureOutboxSweepSchedule,
} from '../temporal/schedules';
import { logStartErrors, temporalOutboxWorkflowStarter } from '../temporal/outbox-workflow-starter';
import { OutboxRelay } from '../usecases/events/outbox-relay';
import { PROBES } from '../probes/registry';
import { type WorkerHandle, startWorker } from './worker';
import type { LocationSettings } from './location';
import { DEFAULT_LOCATION_LABEL } from '../domain/locations';
import { ensureStatementSigningKey } from './signing-key';
import { publicOnlyPoster } from '../infra/webhook-http';

/**
 * The worker's built-in probe location: VIGIL_LOCATION (default `local`, labelled
 * "This machine"), unless VIGIL_WORKER_LOCATION=false or VIGIL_LOCATIONS has `npm start` run
 * prober processes instead.
 */
export function workerLocation(config: Config): LocationSettings | undefined {
  if (!config.VIGIL_WORKER_LOCATION || config.VIGIL_LOCATIONS.trim() !== '') return undefined;
  return {
    id: config.VIGIL_LOCATION,
    label: config.VIGIL_LOCATION_LABEL ?? DEFAULT_LOCATION_LABEL,
    heartbeatSeconds: config.LOCATION_HEARTBEAT_SECONDS,
    sourceAddress: config.VIGIL_PROBE_SOURCE_ADDRESS,
  };
}

/** Starts the Temporal worker on the configured task queue, the outbox relay, and makes sure the schedules exist. */
export async function runWorker(
  config: Config,
  orm: Orm,
  databaseUrl: string,
  address: string,
  log: Logger,
): Promise<WorkerHandle> {
  installTemporalRuntime(temporalLogLevel(config.LOG_LEVEL));
  await ensureStatementSigningKey(orm, config, log);
  // Idempotent: lets runs be filtered per organization in the Temporal UI on any server.
  await registerSearchAttributes(address, config.TEMPORAL_NAMESPACE);
  const temporal = await connectTemporal({
    address,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
  });
  const onStartError = logStartErrors(log);
  const starter = temporalOutboxWorkflowStarter(temporal, webhookRetryPolicy(config), { onStartError });
  // Without SMTP_URL, development mail lands in the outbox folder; the log names each file.
  const email = emailDeps(config, (line) => log.info(line));
  const printer = createStatementPdfRenderer({ executablePath: config.CHROMIUM_PATH });
  const links = slaLinks(config);
  const worker = await startWorker({
    address,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deps: {
      orm,
      maintenanceScheduler: temporalMaintenanceScheduler(temporal),
      webhooks: {
        box: secretBox(config),
        starter,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        poster: publicOnlyPoster(config.WEBHOOK_ALLOW_CIDRS),
      },
      sampleRetentionDays: config.METRIC_SAMPLE_RETENTION_DAYS,
      email,
      sla: {
        signer: statementSigner(config),
        workflows: temporalSlaWorkflows(temporal, slaTimings(config)),
        mail: { mailer: email.mailer, pdf: pdfSource(printer, links), ...links, consoleUrl: config.publicBaseUrl },
      },
      alerts: {
        box: secretBox(config),
        mailer: email.mailer,
        endpoints: {
          pagerdutyEventsUrl: config.PAGERDUTY_EVENTS_URL,
          opsgenieApiUrl: config.OPSGENIE_API_URL,
          opsgenieEuApiUrl: config.OPSGENIE_EU_API_URL,
        },
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        poster: publicOnlyPoster(config.WEBHOOK_ALLOW_CIDRS),
        publicBaseUrl: config.publicBaseUrl,
        linkKey: alertLinkKey(config),
        minuteMs: config.ALERT_MINUTE_MS,
        starter,
      },
      prober: {
        registry: PROBES,
        allowCidrs: config.CLOUD_PROBE_ALLOW_CIDRS,
        resolver: config.CLOUD_PROBE_RESOLVER,
        defaultTimeoutMs: config.CLOUD_PROBE_TIMEOUT_MS,
      },
    },
    workflowBundlePath: process.env.VIGIL_WORKFLOW_BUNDLE,
    deadlockTimeoutMs: config.WORKFLOW_DEADLOCK_TIMEOUT_MS,
    location: workerLocation(config),
    onLocationHeartbeatError: (err) =>
      log.warn({ err, location: config.VIGIL_LOCATION }, 'location heartbeat failed; the next one follows'),
  });
  await ensureHousekeepingSchedule(temporal.client, config.TEMPORAL_TASK_QUEUE);
  await ensureOutboxSweepSchedule(temporal.client, config.TEMPORAL_TASK_QUEUE);
  await ensureMetricSweepSchedule(temporal.client, config.TEMPORAL_TASK_QUEUE);
  await ensureAlertSweepSchedule(temporal.client, config.TEMPORAL_TASK_QUEUE);
  const relayStarter = temporalOutboxWorkflowStarter(
    { client: worker.eagerClient, taskQueue: config.TEMPORAL_TASK_QUEUE },
    webhookRetryPolicy(config),
    { eager: true, onStartError },
  );
  const relay = new OutboxRelay({
    orm,
    databaseUrl,
    starter: relayStarter,
    onError: (err) => log.error({ err }, 'outbox relay failed; the outbox sweep retries within a minute'),
  });
  await relay.start();
  log.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, location: worker.location?.id ?? null }, 'worker running');
  return {
    ...worker,
    async shutdown() {
      await relay.close();
      await worker.shutdown();
      await email.mailer.close();
      await printer.close();
      await temporal.close();
    },
  };
}
