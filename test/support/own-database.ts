import { randomBytes } from 'node:crypto';
import { createOrm, migrate } from '../../src/db/orm';
import { dropDatabase, ensureDatabaseExists, withDatabase } from '../../src/launchers/postgres';
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
  const url = withDatabase(shared, `vigil_own_${randomBytes(4).toString('hex')}`);
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
