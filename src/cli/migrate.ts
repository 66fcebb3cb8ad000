import { loadConfig } from '../config';
import { openDatabase } from '../composition/database';
import { createLogger } from '../composition/logger';

/** Production entry: create the database if missing and apply committed migrations, then exit. */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, 'vigil-migrate');
  const db = await openDatabase(config, log, { migrate: true });
  await db.close();
  log.info('database is up to date');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
