import { loadConfig } from '../config';
import { runApi } from '../composition/api-process';
import { openDatabase } from '../composition/database';
import { createLogger } from '../composition/logger';
import { onShutdown } from '../composition/shutdown';

/** Production entry: the API alone (migrations run by `migrate`; TEMPORAL_ADDRESS required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, 'vigil-api');
  if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the API process');
  const closers: Array<() => Promise<void>> = [];
  onShutdown(closers, (m) => log.info(m));
  const db = await openDatabase(config, log, { migrate: false });
  closers.push(() => db.close());
  const api = await runApi(config, db.orm, db.resolved.url, config.TEMPORAL_ADDRESS, log);
  closers.push(() => api.close());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
