import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { withDatabase } from '../../src/launchers/postgres';
import {
  TEMPORAL_SERVER_VERSION,
  startTemporalPostgresServer,
  temporalServerPaths,
  type RunningPostgresTemporal,
} from '../../src/launchers/temporal-postgres-server';
import { VIGIL_SEARCH_ATTRIBUTES, searchAttributes } from '../../src/temporal/search-attributes';

/**
 * The production layout's Temporal on one machine: the full server on the test PostgreSQL. The
 * first run builds the server with Go (minutes when nothing is cached; seconds once the Temporal
 * CLI's build has filled Go's build cache); with the binaries cached a start takes seconds.
 */
const cacheDir = process.env.VIGIL_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'vigil');
jest.setTimeout(fs.existsSync(temporalServerPaths(cacheDir).server) ? 120_000 : 900_000);

const serverUrl = () => withDatabase(process.env.VIGIL_TEST_DATABASE_URL!, 'postgres');

async function databasesLike(prefix: string): Promise<string[]> {
  const c = new PgClient({ connectionString: serverUrl() });
  await c.connect();
  try {
    const r = await c.query<{ datname: string }>('select datname from pg_database where datname like $1 order by 1', [
      `${prefix}%`,
    ]);
    return r.rows.map((row) => row.datname);
  } finally {
    await c.end();
  }
}

describe('temporalServerPaths', () => {
  it('puts the server, its schema tool and schema under temporal-server/v<version>', () => {
    expect(temporalServerPaths('/c')).toEqual({
      server: `/c/temporal-server/v${TEMPORAL_SERVER_VERSION}/temporal-server`,
      sqlTool: `/c/temporal-server/v${TEMPORAL_SERVER_VERSION}/temporal-sql-tool`,
      schemaDir: `/c/temporal-server/v${TEMPORAL_SERVER_VERSION}/schema/postgresql/v12`,
    });
  });
});

describe('startTemporalPostgresServer', () => {
  const database = `temporal_test_${randomBytes(4).toString('hex')}`;
  let server: RunningPostgresTemporal | undefined;
  afterAll(async () => {
    await server?.stop();
    // Whatever a failed run left behind.
    const c = new PgClient({ connectionString: serverUrl() });
    await c.connect();
    try {
      for (const name of await databasesLike(database))
        await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`);
    } finally {
      await c.end();
    }
  });

  it('serves the namespace with every Vigil search attribute, persists runs in PostgreSQL across a restart, and drops its databases', async () => {
    server = await startTemporalPostgresServer({ cacheDir, postgresUrl: serverUrl(), database });
    expect(server.databases).toEqual({ main: database, visibility: `${database}_visibility` });
    expect(await databasesLike(database)).toEqual([database, `${database}_visibility`]);

    const workflowId = `pg-layout-${randomBytes(4).toString('hex')}`;
    const organizationId = `org-${randomBytes(4).toString('hex')}`;
    let connection = await Connection.connect({ address: server.address });
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
      expect(Object.keys(customAttributes ?? {}).sort()).toEqual(
        expect.arrayContaining(Object.keys(VIGIL_SEARCH_ATTRIBUTES).sort()),
      );
      const client = new Client({ connection, namespace: 'default' });
      // No worker: the run just waits for its first task, which is enough to be stored and listed.
      await client.workflow.start('nothing', {
        workflowId,
        taskQueue: `pg-layout-${workflowId}`,
        typedSearchAttributes: searchAttributes(organizationId, 'test', workflowId),
      });
      let listed: string[] = [];
      for (
        const deadline = Date.now() + 15_000;
        Date.now() < deadline && listed.length === 0;
        await new Promise((r) => setTimeout(r, 200))
      ) {
        listed = [];
        for await (const wf of client.workflow.list({ query: `VigilOrganizationId = '${organizationId}'` }))
          listed.push(wf.workflowId);
      }
      expect(listed).toEqual([workflowId]);
    } finally {
      await connection.close();
    }
    await server.stop();

    // The same databases again: the schema step is a no-op, the namespace is already there, the run survived.
    server = await startTemporalPostgresServer({ cacheDir, postgresUrl: serverUrl(), database, dropOnStop: true });
    connection = await Connection.connect({ address: server.address });
    try {
      const description = await new Client({ connection, namespace: 'default' }).workflow
        .getHandle(workflowId)
        .describe();
      expect(description.status.name).toBe('RUNNING');
      await new Client({ connection, namespace: 'default' }).workflow.getHandle(workflowId).terminate('test done');
    } finally {
      await connection.close();
    }
    await server.stop();
    server = undefined;
    expect(await databasesLike(database)).toEqual([]);
  });
});
