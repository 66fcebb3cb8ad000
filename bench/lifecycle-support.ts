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
import type { RetryPolicy } from '../src/domain/webhook-retry';
import { connectTemporal } from '../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../src/temporal/maintenance-scheduler';
import { temporalOutboxWorkflowStarter } from '../src/temporal/outbox-workflow-starter';
import { startWorker } from '../src/composition/worker';
import { publicOnlyPoster } from '../src/infra/webhook-http';

/**
 * The Vigil process of the lifecycle benchmark: the real API, the real Temporal worker and the
 * outbox relay in one Node process (as `vigil start` runs them), sharing one ORM, on a task
 * queue of its own. The driver (load, receiver, clocks) lives in bench/lifecycle.ts so its
 * timestamps never wait behind Vigil's own work. Prints "listening <port>" when ready; closes
 * everything on SIGTERM/SIGINT.
 *
 *   node dist/bench/lifecycle-support.js   (configured by the driver through the environment)
 */
export interface VigilProcessEnv extends TemporalProcessEnv {
  /** JSON RetryPolicy. */
  BENCH_WEBHOOK_POLICY: string;
  BENCH_WEBHOOK_TIMEOUT_MS: string;
}

const env = (name: keyof VigilProcessEnv) => requiredEnv(name, 'bench/lifecycle.ts');

async function main(): Promise<void> {
  const { databaseUrl, address, taskQueue, box } = startTemporalProcess(env);
  const policy = JSON.parse(env('BENCH_WEBHOOK_POLICY')) as RetryPolicy;
  const timeoutMs = Number(env('BENCH_WEBHOOK_TIMEOUT_MS'));

  const orm = await createOrm({ url: databaseUrl, poolMax: Number(process.env.DATABASE_POOL_MAX ?? 10) });
  const temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const maintenanceScheduler = temporalMaintenanceScheduler(temporal);
  const starter = temporalOutboxWorkflowStarter(temporal, policy);
  const worker = await startWorker({
    address,
    namespace: 'default',
    taskQueue,
    deps: { orm, maintenanceScheduler, webhooks: { box, starter, timeoutMs, poster: publicOnlyPoster('127.0.0.0/8') } },
  });
  exitWhenWorkerFails(worker);
  // Wired as src/composition/worker-process.ts does: the relay starts deliveries eagerly on this worker.
  const eager = temporalOutboxWorkflowStarter({ client: worker.eagerClient, taskQueue }, policy, { eager: true });
  const relay = await startOutboxRelay(orm, databaseUrl, eager);
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const app = await buildApp({
    ...benchAppDeps(orm, changeFeed, box),
    maintenanceScheduler,
    webhookStarter: starter,
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
