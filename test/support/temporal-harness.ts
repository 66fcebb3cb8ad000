import { randomUUID } from 'node:crypto';
import { createOrm, type Orm } from '../../src/db/orm';
import { type TemporalHandle, connectTemporal } from '../../src/temporal/connection';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { type WorkerHandle, startWorker } from '../../src/worker/worker';
import { testDatabaseUrl, testTemporalAddress } from './env';

export interface TemporalHarness {
  orm: Orm;
  temporal: TemporalHandle;
  worker: WorkerHandle;
  taskQueue: string;
  close(): Promise<void>;
}

/** A real worker on the suite's Temporal dev server, on a task queue of its own so suites never steal each other's tasks. */
export async function startTemporalHarness(): Promise<TemporalHarness> {
  installTemporalRuntime('WARN');
  const taskQueue = `test-${randomUUID()}`;
  const address = testTemporalAddress();
  const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 4 });
  const temporal = await connectTemporal({ address, namespace: 'default', taskQueue });
  const worker = await startWorker({ address, namespace: 'default', taskQueue, deps: { orm, maintenanceScheduler: temporalMaintenanceScheduler(temporal) } });
  return {
    orm,
    temporal,
    worker,
    taskQueue,
    async close() {
      await worker.shutdown();
      await temporal.close();
      await orm.close();
    },
  };
}
