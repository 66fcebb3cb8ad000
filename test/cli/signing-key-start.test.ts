import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { runApi } from '../../src/composition/api-process';
import { ensureStatementSigningKey } from '../../src/composition/signing-key';
import { loadConfig } from '../../src/config';
import { StatementSigningKeySchema } from '../../src/db/entities';
import { createOrm, migrate } from '../../src/db/orm';
import { ensureDatabaseExists, withDatabase } from '../../src/launchers/postgres';
import { testDatabaseUrl, testTemporalAddress } from '../support/env';

/**
 * On a fresh install the API publishes a statement-signing key at start, before any
 * statement is signed, so customers can pin it; two processes starting at once agree on one key.
 */
const log = pino({ level: 'silent' });

it('publishes a non-empty JWKS on a fresh install before any statement, one key for concurrent starts', async () => {
  const name = `vigil_fresh_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const url = withDatabase(testDatabaseUrl(), name);
  await ensureDatabaseExists(url);
  const orm = await createOrm({ url, poolMax: 4 });
  const other = await createOrm({ url, poolMax: 2 });
  try {
    await migrate(orm);
    expect(await orm.em.fork().count(StatementSigningKeySchema, {})).toBe(0);
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: url,
      PORT: '0',
      TEMPORAL_ADDRESS: testTemporalAddress(),
    });
    // Two API processes starting at the same moment.
    const [a, b] = await Promise.all([
      ensureStatementSigningKey(orm, config, log),
      ensureStatementSigningKey(other, config, log),
    ]);
    expect(a).toBe(b);
    expect(await orm.em.fork().count(StatementSigningKeySchema, {})).toBe(1);

    // The real API process start (composition), on the fresh database: the JWKS answers the key.
    const api = await runApi(config, orm, url, testTemporalAddress(), log);
    try {
      const address = api.app.server.address() as { port: number };
      const jwks = (await (await fetch(`http://127.0.0.1:${address.port}/.well-known/jwks.json`)).json()) as {
        keys: { kid: string }[];
      };
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([a]);
    } finally {
      await api.close();
    }
    expect(await orm.em.fork().count(StatementSigningKeySchema, {})).toBe(1);
  } finally {
    await other.close();
    await orm.close();
    const admin = await createOrm({ url: testDatabaseUrl(), poolMax: 1 });
    await admin.em.getConnection().execute(`drop database if exists "${name}"`);
    await admin.close();
  }
}, 60_000);
