import { loadConfig } from '../config';
import { type Database, openDatabase as openStackDatabase } from '../composition/database';
import { createLogger } from '../composition/logger';

/** The service's database, resolved exactly as the service resolves it, migrated to the latest schema. */
export async function openDatabase(): Promise<Database> {
  const config = loadConfig();
  return openStackDatabase(config, createLogger('warn', 'vigil-cli'), { migrate: true });
}
