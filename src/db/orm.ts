import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  poolMax?: number;
  debug?: boolean;
}

export async function createOrm(opts: OrmOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: opts.url,
    entities: ENTITIES,
    discovery: { warnWhenNoEntities: true },
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    forceUtcTimezone: true,
    // Samples and their rollups are written with plain SQL (partitioned, bulk): no entities.
    schemaGenerator: { skipTables: [/^metric_samples/, 'metric_daily_rollups'] },
    pool: { min: 0, max: opts.poolMax ?? 10 },
    debug: opts.debug ?? false,
    allowGlobalContext: false,
  });
}

/** Applies committed migrations (never schema sync). Returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
