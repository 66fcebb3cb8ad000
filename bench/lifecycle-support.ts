import { randomBytes } from 'node:crypto';
import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import { buildApp } from '../src/api/app';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import type { RetryPolicy } from '../src/domain/webhook-retry';
import { SecretBox } from '../src/crypto/secret-box';
import { connectTemporal } from '../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../src/temporal/maintenance-scheduler';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { temporalOutboxWorkflowStarter } from '../src/temporal/outbox-workflow-starter';
import { OutboxRelay } from '../src/usecases/events/outbox-relay';
import { startWorker } from '../src/composition/worker';
import { publicOnlyPoster } from '../src/infra/webhook-http';
import { withoutTemporal } from '../test/support/app-deps';

/**
 * The Vigil process of the lifecycle benchmark: the real API, the real Temporal worker and the
 * outbox relay in one Node process (as `vigil start` runs them), sharing one ORM, on a task
 * queue of its own. The driver (load, receiver, clocks) lives in bench/lifecycle.ts so its
 * timestamps never wait behind Vigil's own work. Prints "listening <port>" when ready; closes
 * everything on SIGTERM/SIGINT.
 *
 *   node dist/bench/lifecycle-support.js   (configured by the driver through the environment)
 */
export interface VigilProcessEnv {
  BENCH_DATABASE_URL: string;
  BENCH_TEMPORAL_ADDRESS: string;
  BENCH_TASK_QUEUE: string;
  /** 64 hex digits. */
  BENCH_MASTER_KEY: string;
  /** JSON RetryPolicy. */
  BENCH_WEBHOOK_POLICY: string;
  BENCH_WEBHOOK_TIMEOUT_MS: string;
}

const env = (name: keyof VigilProcessEnv) => requiredEnv(name, 'bench/lifecycle.ts');

async function main(): Promise<void> {
  const databaseUrl = env('BENCH_DATABASE_URL');
  const address = env('BENCH_TEMPORAL_ADDRESS');
  const taskQueue = env('BENCH_TASK_QUEUE');
  const box = new SecretBox(Buffer.from(env('BENCH_MASTER_KEY'), 'hex'));
  const policy = JSON.parse(env('BENCH_WEBHOOK_POLICY')) as RetryPolicy;
  const timeoutMs = Number(env('BENCH_WEBHOOK_TIMEOUT_MS'));

  installTemporalRuntime('WARN');
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
  worker.running.catch((err) => {
    console.error('[vigil] worker failed:', err);
    process.exit(1);
  });
  // Wired as src/composition/worker-process.ts does: the relay starts deliveries eagerly on this worker.
  const eager = temporalOutboxWorkflowStarter({ client: worker.eagerClient, taskQueue }, policy, { eager: true });
  const relay = new OutboxRelay({
    orm,
    databaseUrl,
    starter: eager,
    onError: (err) => console.error('[vigil] outbox relay failed:', err),
  });
  await relay.start();
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const app = await buildApp({
    ...withoutTemporal('http://127.0.0.1'),
    linkKey: randomBytes(32),
    orm,
    config: { docsUrl: 'https://docs.vigil.invalid', publicBaseUrl: 'http://127.0.0.1', BODY_LIMIT_BYTES: 1_048_576 },
    changeFeed,
    maintenanceScheduler,
    secretBox: box,
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
