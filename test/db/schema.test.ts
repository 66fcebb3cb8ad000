import { createOrm } from '../../src/db/orm';
import { testDatabaseUrl } from '../support/env';

describe('database schema', () => {
  it('is exactly what the committed migrations create: entities and migrations never drift', async () => {
    const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 1 });
    try {
      const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim()).toBe('');
      expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
    } finally {
      await orm.close();
    }
  });

  it('keeps rate-limit counters in an unlogged table', async () => {
    const orm = await createOrm({ url: testDatabaseUrl(), poolMax: 1 });
    try {
      const rows = await orm.em
        .getConnection()
        .execute(`select relpersistence from pg_class where relname = 'rate_limit_counters'`);
      expect(rows).toEqual([{ relpersistence: 'u' }]);
    } finally {
      await orm.close();
    }
  });
});
