import { loadConfig } from '../config';
import { openDatabase } from '../composition/database';
import { createLogger } from '../composition/logger';
import { onShutdown } from '../composition/shutdown';
import { runWorker } from '../composition/worker-process';

/** Production entry: the Temporal worker alone (TEMPORAL_ADDRESS required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, 'vigil-worker');
  if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the worker process');
  const closers: Array<() => Promise<void>> = [];
  onShutdown(closers, (m) => log.info(m));
  const db = await openDatabase(config, log, { migrate: false });
  closers.push(() => db.close());
  const worker = await runWorker(config, db.orm, db.resolved.url, config.TEMPORAL_ADDRESS, log);
  closers.push(() => worker.shutdown());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
