import { publicOnlyPoster } from '../src/infra/webhook-http';
import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import {
  type TemporalProcessEnv,
  benchAppDeps,
  exitWhenWorkerFails,
  startOutboxRelay,
  startTemporalProcess,
} from './support/vigil-process';
import { buildApp } from '../src/api/app';
import { DEFAULT_RETRY_POLICY } from '../src/domain/webhook-retry';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { PROBES } from '../src/probes/registry';
import { checkTemporal, connectTemporal } from '../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../src/temporal/maintenance-scheduler';
import { temporalProbeTestRunner } from '../src/temporal/probe-test-runner';
import { temporalOutboxWorkflowStarter } from '../src/temporal/outbox-workflow-starter';
import { startWorker } from '../src/composition/worker';

/**
 * The Vigil process of the probe-test benchmark: the real API and the real Temporal worker (with
 * the cloud prober) in one Node process, wired as `vigil start` wires them
 * (src/composition/worker-process.ts, src/composition/api-process.ts), on a task queue of its own. The
 * driver (target, clocks, agents) lives in bench/probe-test.ts. Prints "listening <port>" when
 * ready; closes everything on SIGTERM/SIGINT.
 *
 *   node dist/bench/probe-test-support.js   (configured by the driver through the environment)
 */
export interface ProbeVigilEnv extends TemporalProcessEnv {
  /** CLOUD_PROBE_ALLOW_CIDRS for the worker's cloud prober, e.g. 127.0.0.0/8. */
  BENCH_CLOUD_PROBE_ALLOW_CIDRS: string;
  /** CLOUD_PROBE_TIMEOUT_MS. */
  BENCH_CLOUD_PROBE_TIMEOUT_MS: string;
  /** PROBE_TEST_EXPIRY_MS. */
  BENCH_PROBE_TEST_EXPIRY_MS: string;
}

const env = (name: keyof ProbeVigilEnv) => requiredEnv(name, 'bench/probe-test.ts');

async function main(): Promise<void> {
  const { databaseUrl, address, taskQueue, box } = startTemporalProcess(env);

  const orm = await createOrm({ url: databaseUrl, poolMax: Number(process.env.DATABASE_POOL_MAX ?? 10) });

  // The worker, as runWorker does (without the shared housekeeping/outbox-sweep schedules, which
  // would be repointed at this bench's task queue).
  const workerTemporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const worker = await startWorker({
    address,
    namespace: 'default',
    taskQueue,
    deps: {
      orm,
      maintenanceScheduler: temporalMaintenanceScheduler(workerTemporal),
      webhooks: {
        box,
        starter: temporalOutboxWorkflowStarter(workerTemporal, DEFAULT_RETRY_POLICY),
        timeoutMs: 10_000,
        poster: publicOnlyPoster(),
      },
      prober: {
        registry: PROBES,
        allowCidrs: env('BENCH_CLOUD_PROBE_ALLOW_CIDRS'),
        defaultTimeoutMs: Number(env('BENCH_CLOUD_PROBE_TIMEOUT_MS')),
      },
    },
    workflowBundlePath: process.env.VIGIL_WORKFLOW_BUNDLE,
  });
  exitWhenWorkerFails(worker);
  const { eagerClient } = worker;
  const eager = temporalOutboxWorkflowStarter({ client: eagerClient, taskQueue }, DEFAULT_RETRY_POLICY, {
    eager: true,
  });
  const relay = await startOutboxRelay(orm, databaseUrl, eager);

  // The API, as runApi does: its own Temporal client, the change feed and the probe-job feed.
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const probeJobFeed = new ChangeFeed(databaseUrl, 'vigil_probe_jobs');
  await probeJobFeed.start();
  const temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const app = await buildApp({
    ...benchAppDeps(orm, changeFeed, box),
    maintenanceScheduler: temporalMaintenanceScheduler(temporal),
    webhookStarter: temporalOutboxWorkflowStarter(temporal, DEFAULT_RETRY_POLICY),
    probeTestRunner: temporalProbeTestRunner(temporal, { eagerClient }),
    localProbeJobs: worker.localProbeJobs,
    probeJobFeed,
    probeTestExpiryMs: Number(env('BENCH_PROBE_TEST_EXPIRY_MS')),
    readiness: [{ name: 'temporal', check: () => checkTemporal(temporal) }],
  });
  await serveUntilSignalled(app, [
    () => temporal.close(),
    () => changeFeed.close(),
    () => probeJobFeed.close(),
    () => relay.close(),
    () => worker.shutdown(),
    () => workerTemporal.close(),
    () => orm.close(),
  ]);
}

runMain(main);
