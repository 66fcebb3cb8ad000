import { randomBytes } from 'node:crypto';
import { createOrm, migrate } from '../../src/db/orm';
import { Client as PgClient } from 'pg';
import { databaseNameOf, dropDatabase, ensureDatabaseExists, withDatabase } from '../../src/launchers/postgres';
import { testDatabaseUrl } from './env';

/**
 * A migrated database of the file's own on the suite's PostgreSQL server, made the file's
 * VIGIL_TEST_DATABASE_URL until `restore()`. For suites whose relay must see only their own
 * outbox: a relay that recovers from a failed drain starts every unstarted delivery it finds, and
 * in the shared database that includes what other files left unstarted (thousands from the
 * fan-out tests), which then crowd out the file's own deliveries.
 */
export async function useOwnDatabase(): Promise<{ url: string; restore(): Promise<void> }> {
  const shared = testDatabaseUrl();
  const url = withDatabase(shared, `${ownPrefix(shared)}${randomBytes(4).toString('hex')}`);
  await ensureDatabaseExists(url);
  const orm = await createOrm({ url });
  await migrate(orm);
  await orm.close();
  process.env.VIGIL_TEST_DATABASE_URL = url;
  return {
    url,
    async restore() {
      process.env.VIGIL_TEST_DATABASE_URL = shared;
      await dropDatabase(url).catch(() => undefined);
    },
  };
}

/** Own databases are named after the suite's, so the global teardown finds those a file left. */
const ownPrefix = (sharedUrl: string) => `${databaseNameOf(sharedUrl).slice(0, 40)}_own_`;

/** The suite's shared database, as the global setup left it for every file (read when a file loads). */
const SUITE_DATABASE_URL = process.env.VIGIL_TEST_DATABASE_URL;

/** Whether this file already works in a database of its own (made here, or on a server of its own). */
export const inOwnDatabase = (): boolean => testDatabaseUrl() !== SUITE_DATABASE_URL;

/** Drops every own database of the suite whose database is `sharedUrl` (the global teardown). */
export async function dropOwnDatabases(sharedUrl: string): Promise<void> {
  const pg = new PgClient({ connectionString: withDatabase(sharedUrl, 'postgres') });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [ownPrefix(sharedUrl)],
    );
    for (const { datname } of rows) await dropDatabase(withDatabase(sharedUrl, datname)).catch(() => undefined);
  } finally {
    await pg.end();
  }
}
