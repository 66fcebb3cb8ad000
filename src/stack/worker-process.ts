import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import { registerSearchAttributes } from '../infra/temporal-dev-server';
import { connectTemporal } from '../temporal/connection';
import { temporalMaintenanceScheduler } from '../temporal/maintenance-scheduler';
import { installTemporalRuntime, temporalLogLevel } from '../temporal/runtime';
import { ensureHousekeepingSchedule } from '../temporal/schedules';
import { type WorkerHandle, startWorker } from '../worker/worker';

/** Starts the Temporal worker on the configured task queue and makes sure the housekeeping schedule exists. */
export async function runWorker(config: Config, orm: Orm, address: string, log: Logger): Promise<WorkerHandle> {
  installTemporalRuntime(temporalLogLevel(config.LOG_LEVEL));
  // Idempotent: lets runs be filtered per organization in the Temporal UI on any server.
  await registerSearchAttributes(address, config.TEMPORAL_NAMESPACE);
  const temporal = await connectTemporal({ address, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE });
  const worker = await startWorker({
    address,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deps: { orm, maintenanceScheduler: temporalMaintenanceScheduler(temporal) },
    workflowBundlePath: process.env.VIGIL_WORKFLOW_BUNDLE,
  });
  await ensureHousekeepingSchedule(temporal.client, config.TEMPORAL_TASK_QUEUE);
  log.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker running');
  return {
    ...worker,
    async shutdown() {
      await worker.shutdown();
      await temporal.close();
    },
  };
}
