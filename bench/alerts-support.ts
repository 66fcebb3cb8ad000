import { randomBytes } from 'node:crypto';
import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import {
  type TemporalProcessEnv,
  benchAppDeps,
  exitWhenWorkerFails,
  startOutboxRelay,
  startTemporalProcess,
} from './support/vigil-process';
import { buildApp } from '../src/api/app';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { DEFAULT_VENDOR_ENDPOINTS } from '../src/domain/alerting/channel-formats';
import type { RetryPolicy } from '../src/domain/webhook-retry';
import { temporalAlertControl, temporalChannelTester } from '../src/temporal/alert-control';
import { connectTemporal } from '../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../src/temporal/maintenance-scheduler';
import { temporalOutboxWorkflowStarter } from '../src/temporal/outbox-workflow-starter';
import { startWorker } from '../src/composition/worker';
import { publicOnlyPoster } from '../src/infra/webhook-http';
import { testSlackReplies } from '../test/support/app-deps';

/**
 * The Vigil process of the alerting benchmark: the real API, the real Temporal worker with alert
 * notifications, and the outbox relay (webhook deliveries and alert signals, started eagerly on
 * this worker) in one Node process sharing one ORM, wired as src/composition/worker-process.ts
 * does, on a task queue of its own. The driver (load, receivers, clocks) is bench/alerts.ts.
 * Prints "listening <port>" when ready; closes everything on SIGTERM/SIGINT.
 *
 *   node dist/bench/alerts-support.js   (configured by bench/alerts.ts through the environment)
 */
export interface AlertsProcessEnv extends TemporalProcessEnv {
  /** JSON RetryPolicy of webhook deliveries. */
  BENCH_WEBHOOK_POLICY: string;
  BENCH_WEBHOOK_TIMEOUT_MS: string;
  /** ALERT_MINUTE_MS: the length of an escalation policy's minute. */
  BENCH_ALERT_MINUTE_MS: string;
  /** DATABASE_POOL_MAX. */
  BENCH_POOL_MAX: string;
}

const env = (name: keyof AlertsProcessEnv) => requiredEnv(name, 'bench/alerts.ts');

async function main(): Promise<void> {
  const { databaseUrl, address, taskQueue, box } = startTemporalProcess(env);
  const policy = JSON.parse(env('BENCH_WEBHOOK_POLICY')) as RetryPolicy;
  const timeoutMs = Number(env('BENCH_WEBHOOK_TIMEOUT_MS'));
  const linkKey = randomBytes(32);

  const orm = await createOrm({ url: databaseUrl, poolMax: Number(env('BENCH_POOL_MAX')) });
  const temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const maintenanceScheduler = temporalMaintenanceScheduler(temporal);
  const starter = temporalOutboxWorkflowStarter(temporal, policy);
  const worker = await startWorker({
    address,
    namespace: 'default',
    taskQueue,
    deps: {
      orm,
      maintenanceScheduler,
      webhooks: { box, starter, timeoutMs, poster: publicOnlyPoster('127.0.0.0/8') },
      alerts: {
        box,
        mailer: null,
        // No vendor channel is used; the defaults are never called.
        endpoints: { ...DEFAULT_VENDOR_ENDPOINTS },
        timeoutMs,
        poster: publicOnlyPoster('127.0.0.0/8'),
        publicBaseUrl: 'http://127.0.0.1',
        linkKey,
        minuteMs: Number(env('BENCH_ALERT_MINUTE_MS')),
        starter,
      },
    },
  });
  exitWhenWorkerFails(worker);
  // As in the worker process: the relay starts deliveries eagerly on this worker and signals alert workflows.
  const eager = temporalOutboxWorkflowStarter({ client: worker.eagerClient, taskQueue }, policy, {
    eager: true,
    onStartError: (err, workflowId) => console.error(`[vigil] could not start or signal ${workflowId}:`, err),
  });
  const relay = await startOutboxRelay(orm, databaseUrl, eager);
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const app = await buildApp({
    ...benchAppDeps(orm, changeFeed, box),
    maintenanceScheduler,
    webhookStarter: starter,
    alerts: {
      control: temporalAlertControl(temporal),
      tester: temporalChannelTester(temporal),
      linkKey,
      slackReplies: testSlackReplies(),
    },
  });
  await serveUntilSignalled(app, [
    () => relay.close(),
    () => worker.shutdown(),
    () => changeFeed.close(),
    () => temporal.close(),
    () => orm.close(),
  ]);
}

runMain(main);
