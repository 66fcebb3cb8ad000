import type { Logger } from 'pino';
import type { Config } from '../config';
import { createOrm, migrate, type Orm } from '../db/orm';
import { type ResolvedDatabase, resolveDatabase } from '../launchers/postgres';

export interface Database {
  orm: Orm;
  resolved: ResolvedDatabase;
  close(): Promise<void>;
}

/** Resolves PostgreSQL (DATABASE_URL, the local server, or embedded), creates the database and applies migrations. */
export async function openDatabase(config: Config, log: Logger, opts: { migrate: boolean }): Promise<Database> {
  const resolved = await resolveDatabase({
    databaseUrl: config.DATABASE_URL,
    databaseName: config.DATABASE_NAME,
    dataDir: config.dataDir,
    log: (line) => log.info(line),
  });
  const orm = await createOrm({ url: resolved.url, poolMax: config.DATABASE_POOL_MAX });
  if (opts.migrate) {
    const applied = await migrate(orm);
    if (applied.length) log.info({ applied }, 'migrations applied');
  }
  return {
    orm,
    resolved,
    async close() {
      await orm.close();
      await resolved.stop();
    },
  };
}
