import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import {
  type TemporalProcessEnv,
  benchAppDeps,
  exitWhenWorkerFails,
  startTemporalProcess,
} from './support/vigil-process';
import { buildApp } from '../src/api/app';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { tzDataVersion } from '../src/domain/sla/period';
import { connectTemporal } from '../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../src/temporal/maintenance-scheduler';
import { temporalSlaWorkflows } from '../src/temporal/sla-workflows';
import { startWorker } from '../src/composition/worker';

/**
 * The Vigil process of the SLA statements benchmark: the real API (contracts, statements,
 * customers) and the real Temporal worker with SLA signing, in one Node process sharing one ORM,
 * as `vigil start` runs them (without request logging, the outbox relay and the PDF printer,
 * which drafting does not use), on a task queue of its own. bench/sla.ts measures this process's
 * CPU while the worker drafts a period's statements; it signs its baseline statements with the
 * same sealed key (BENCH_MASTER_KEY). Prints "listening <port>" when ready; closes everything on
 * SIGTERM/SIGINT.
 *
 *   node dist/bench/sla-support.js   (configured by bench/sla.ts through the environment)
 */
export interface SlaProcessEnv extends TemporalProcessEnv {
  /** The shared PostgreSQL pool (DATABASE_POOL_MAX in production, default 10). */
  BENCH_POOL_MAX: string;
}

const env = (name: keyof SlaProcessEnv) => requiredEnv(name, 'bench/sla.ts');

async function main(): Promise<void> {
  const { databaseUrl, address, taskQueue, box } = startTemporalProcess(env);

  const orm = await createOrm({ url: databaseUrl, poolMax: Number(env('BENCH_POOL_MAX')) });
  const temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const maintenanceScheduler = temporalMaintenanceScheduler(temporal);
  const workflows = temporalSlaWorkflows(temporal);
  const worker = await startWorker({
    address,
    namespace: 'default',
    taskQueue,
    deps: {
      orm,
      maintenanceScheduler,
      sla: { signer: { box, tzDataVersion: tzDataVersion(process.versions.tz) }, workflows },
    },
  });
  exitWhenWorkerFails(worker);
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const app = await buildApp({
    ...benchAppDeps(orm, changeFeed, box),
    maintenanceScheduler,
    sla: {
      workflows,
      printer: null,
      links: {
        jwksUrl: 'http://127.0.0.1/.well-known/jwks.json',
        verifyDocsUrl: 'https://docs.vigil.invalid/sla-verification',
      },
    },
  });
  await serveUntilSignalled(app, [
    () => worker.shutdown(),
    () => changeFeed.close(),
    () => temporal.close(),
    () => orm.close(),
  ]);
}

runMain(main);
