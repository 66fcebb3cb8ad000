import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import {
  canConnect,
  dropDatabase,
  ensureDatabaseExists,
  LOCAL_SERVER_URL,
  resolveDatabase,
  startEmbeddedPostgres,
  withDatabase,
} from '../../src/launchers/postgres';
import { getFreePort } from '../../src/launchers/free-port';

const randomDbName = (): string => `vigil_test_${randomBytes(6).toString('hex')}`;

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: LOCAL_SERVER_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('postgres infra', () => {
  let tmp: string;
  const created: string[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-pg-'));
    fs.chmodSync(tmp, 0o755); // as root, embedded PostgreSQL runs as user "postgres", who must be able to traverse it
    // The local server is a required peer: under CI its absence fails the suite instead of skipping.
    if (!(await canConnect(LOCAL_SERVER_URL, 3000))) {
      throw new Error(`PostgreSQL must be running at ${LOCAL_SERVER_URL} for these tests`);
    }
  });

  afterAll(async () => {
    for (const name of created) await dropDatabase(withDatabase(LOCAL_SERVER_URL, name)).catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('creates the database named in databaseUrl and drops it again', async () => {
    const name = randomDbName();
    created.push(name);
    const url = withDatabase(LOCAL_SERVER_URL, name);
    const db = await resolveDatabase({ databaseUrl: url, databaseName: 'ignored', dataDir: tmp });
    expect(db.source).toBe('env');
    expect(db.url).toBe(url);
    expect(await databaseExists(name)).toBe(true);
    expect(await canConnect(db.url, 2000)).toBe(true);
    await db.stop();

    await dropDatabase(url);
    expect(await databaseExists(name)).toBe(false);
    await dropDatabase(url); // dropping a missing database is fine
  });

  it('picks the local server when no databaseUrl is given', async () => {
    const name = randomDbName();
    created.push(name);
    const db = await resolveDatabase({ databaseName: name, dataDir: tmp });
    expect(db.source).toBe('local');
    expect(db.url).toBe(`postgres://postgres@127.0.0.1:5432/${name}`);
    expect(await databaseExists(name)).toBe(true);
    await db.stop();
  });

  it('is safe when two callers create the same database concurrently', async () => {
    const name = randomDbName();
    created.push(name);
    const url = withDatabase(LOCAL_SERVER_URL, name);
    await Promise.all([ensureDatabaseExists(url), ensureDatabaseExists(url), ensureDatabaseExists(url)]);
    expect(await databaseExists(name)).toBe(true);
    await ensureDatabaseExists(url);
  });

  it('rejects database names that are not plain identifiers', async () => {
    await expect(ensureDatabaseExists('postgres://postgres@127.0.0.1:5432/x%22%3Bdrop')).rejects.toThrow(
      /invalid database name/,
    );
    await expect(resolveDatabase({ databaseName: 'a b', dataDir: tmp })).rejects.toThrow(/invalid database name/);
  });

  it('canConnect is false for a closed port', async () => {
    const port = await getFreePort();
    // Refused, so false (a connection attempt that hung would end at its 1.5 s timeout, also false, or at the test's limit).
    expect(await canConnect(`postgres://postgres@127.0.0.1:${port}/postgres`, 1500)).toBe(false);
  });

  it('boots embedded PostgreSQL in a fresh data directory, then reuses it', async () => {
    const dataDir = path.join(tmp, 'embedded', 'postgres');
    const port = await getFreePort();
    const first = await startEmbeddedPostgres({ dataDir, port });
    try {
      const client = new Client({ connectionString: first.url });
      await client.connect();
      const { rows } = await client.query<{ one: number }>('select 1 as one');
      expect(rows[0]?.one).toBe(1);
      await client.end();
      const appDb = withDatabase(first.url, 'vigil_embedded');
      await ensureDatabaseExists(appDb);
      expect(await canConnect(appDb, 2000)).toBe(true);
    } finally {
      await first.stop();
      await first.stop(); // idempotent
    }
    expect(await canConnect(first.url, 1000)).toBe(false);

    const second = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(await canConnect(withDatabase(second.url, 'vigil_embedded'), 2000)).toBe(true);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
