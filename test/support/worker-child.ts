/**
 * A Temporal worker in a process of its own, so a test can kill it (SIGKILL) the way a crash
 * would. Usage: node --import tsx test/support/worker-child.ts <task queue>. Prints "ready".
 */
import { createOrm } from '../../src/db/orm';
import { DEFAULT_RETRY_POLICY } from '../../src/domain/webhook-retry';
import { connectTemporal } from '../../src/temporal/connection';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { installTemporalRuntime } from '../../src/temporal/runtime';
import { temporalOutboxWorkflowStarter } from '../../src/temporal/outbox-workflow-starter';
import { startWorker } from '../../src/composition/worker';
import { testDatabaseUrl, testSecretBox, testTemporalAddress } from './env';

async function main(): Promise<void> {
  const taskQueue = process.argv[2];
  if (!taskQueue) throw new Error('usage: worker-child.ts <task queue>');
  installTemporalRuntime('WARN');
  const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 4 });
  const temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue });
  const starter = temporalOutboxWorkflowStarter(temporal, DEFAULT_RETRY_POLICY);
  await startWorker({
    address: testTemporalAddress(),
    namespace: 'default',
    taskQueue,
    deps: { orm, maintenanceScheduler: temporalMaintenanceScheduler(temporal), webhooks: { box: testSecretBox(), starter, timeoutMs: 5_000 } },
  });
  process.stdout.write('ready\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
