import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { Client as PgClient } from 'pg';
import { registerSearchAttributes, VIGIL_SEARCH_ATTRIBUTES } from '../temporal/search-attributes';
import { captureOutput, stopChild } from './child-process';
import { getFreePort, isPortOpen } from './free-port';
import { acquireBuildLock, findGo, isExecutable, removeAbandonedBuilds } from './go-build';
import { LOCAL_SERVER_URL } from './postgres';

/**
 * The production layout of Temporal on one machine: the full Temporal server (frontend, history,
 * matching and worker services in one process, as `temporalio/server` runs them) persisting to
 * PostgreSQL (the `postgres12` plugin, SQL visibility), instead of the CLI dev server on SQLite.
 *
 * The server and its schema tool are built from the Go module go.temporal.io/server (the version
 * the Temporal CLI dev server embeds) into `<cacheDir>/temporal-server/v<version>/`, once, under
 * a lock: `temporal-server`, `temporal-sql-tool`, and the PostgreSQL schema (`schema/`) copied
 * from the module. Each start creates (or reuses) two databases, `<database>` and
 * `<database>_visibility`, brings their schemas up to date with the schema tool, writes a
 * config, starts the server on free ports, creates the namespace and registers Vigil's search
 * attributes, and resolves once a visibility query by those attributes is answered.
 */
export const TEMPORAL_SERVER_VERSION = '1.29.1';

const SERVER_MODULE = 'go.temporal.io/server';
const run = promisify(execFile);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  /** schema/postgresql/v12 (its `temporal` and `visibility` directories). */
  schemaDir: string;
}

export function temporalServerPaths(cacheDir: string): TemporalServerBinaries {
  const dir = path.join(cacheDir, 'temporal-server', `v${TEMPORAL_SERVER_VERSION}`);
  return {
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
  };
}

const isBuilt = (b: TemporalServerBinaries): boolean =>
  isExecutable(b.server) &&
  isExecutable(b.sqlTool) &&
  fs.existsSync(path.join(b.schemaDir, 'temporal', 'versioned')) &&
  fs.existsSync(path.join(b.schemaDir, 'visibility', 'versioned'));

function goInstall(go: string, gobin: string, log: (line: string) => void): Promise<void> {
  const pkgs = ['cmd/server', 'cmd/tools/sql'].map((p) => `${SERVER_MODULE}/${p}@v${TEMPORAL_SERVER_VERSION}`);
  const child = spawn(go, ['install', ...pkgs], {
    env: { ...process.env, CGO_ENABLED: '0', GOBIN: gobin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail = captureOutput(child, undefined, log);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`go install ${pkgs.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`)),
    );
  });
}

/**
 * The server, its schema tool and schema, built with Go on first use (minutes; CGO_ENABLED=0).
 * Throws when Go is missing or the build fails.
 */
export async function ensureTemporalServer(
  cacheDir: string,
  log: (line: string) => void = () => undefined,
): Promise<TemporalServerBinaries> {
  const paths = temporalServerPaths(cacheDir);
  removeAbandonedBuilds(path.dirname(paths.server));
  if (isBuilt(paths)) return paths;
  const go = findGo();
  if (!go)
    throw new Error(
      `Go is needed to build the Temporal server v${TEMPORAL_SERVER_VERSION} (not on PATH, nor at /usr/local/go/bin/go)`,
    );
  const dir = path.dirname(paths.server);
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '.build.lock');
  if (!(await acquireBuildLock(lockFile, () => isBuilt(paths), 'the Temporal server', log))) return paths;
  const gobin = path.join(dir, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    if (isBuilt(paths)) return paths;
    const started = Date.now();
    log(
      `building Temporal server v${TEMPORAL_SERVER_VERSION} and temporal-sql-tool with ${go} (the first build takes several minutes)`,
    );
    await goInstall(go, gobin, log);
    // The schema files ship in the module, which `go install` has just put in the module cache.
    const { stdout } = await run(go, ['mod', 'download', '-json', `${SERVER_MODULE}@v${TEMPORAL_SERVER_VERSION}`], {
      env: process.env,
      maxBuffer: 1 << 20,
    });
    const moduleDir = (JSON.parse(stdout) as { Dir?: string }).Dir;
    if (!moduleDir)
      throw new Error(`go mod download did not report the directory of ${SERVER_MODULE}@v${TEMPORAL_SERVER_VERSION}`);
    const schemaTmp = path.join(gobin, 'schema', 'postgresql', 'v12');
    fs.cpSync(path.join(moduleDir, 'schema', 'postgresql', 'v12'), schemaTmp, { recursive: true });
    for (const f of walk(path.join(gobin, 'schema'))) fs.chmodSync(f, fs.statSync(f).isDirectory() ? 0o755 : 0o644); // the module cache is read-only
    fs.rmSync(path.join(dir, 'schema'), { recursive: true, force: true });
    fs.renameSync(path.join(gobin, 'schema'), path.join(dir, 'schema'));
    fs.renameSync(path.join(gobin, 'sql'), paths.sqlTool);
    fs.renameSync(path.join(gobin, 'server'), paths.server); // last: isBuilt() checks it
    log(`Temporal server ready at ${paths.server} (built in ${((Date.now() - started) / 1000).toFixed(0)} s)`);
    return paths;
  } finally {
    fs.rmSync(gobin, { recursive: true, force: true });
    fs.rmSync(lockFile, { force: true });
  }
}

function* walk(p: string): Generator<string> {
  yield p;
  if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) yield* walk(path.join(p, e));
}

// ---------------------------------------------------------------------------------------------

export interface PostgresTemporalOptions {
  cacheDir: string;
  /** Any database URL on the PostgreSQL server to use (its role needs CREATEDB); default postgres://postgres@127.0.0.1:5432/postgres. */
  postgresUrl?: string;
  /** Database for history; `<database>_visibility` holds visibility. Default `temporal_<random>`. */
  database?: string;
  /** Drop both databases when stopped (for throw-away servers such as benchmarks). Default false. */
  dropOnStop?: boolean;
  ip?: string /* default 127.0.0.1 */;
  port?: number /* frontend gRPC; 0 or omitted = free port */;
  namespace?: string /* default 'default' */;
  numHistoryShards?: number /* default 4, as temporalio/server's config template */;
  /** Extra dynamic config, key → value (every constraint); none by default, i.e. the server's defaults. */
  dynamicConfig?: Record<string, unknown>;
  /** Where the config, the dynamic config and (unless logFile says otherwise) the server log go; default a directory in the cache. */
  workDir?: string;
  logFile?: string;
  log?: (line: string) => void;
  startTimeoutMs?: number /* default 120000 */;
}

export interface RunningPostgresTemporal {
  address: string /* host:port */;
  pid?: number;
  databases: { main: string; visibility: string };
  binaries: TemporalServerBinaries;
  configFile: string;
  stop(): Promise<void>;
}

async function withPg<T>(url: string, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface PgTarget {
  host: string;
  port: string;
  user: string;
  password: string;
}

function pgTarget(url: string): PgTarget {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname).replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: u.port || '5432',
    user: decodeURIComponent(u.username) || 'postgres',
    password: decodeURIComponent(u.password),
  };
}

/** Creates `database` if missing and brings its schema to the newest version in `schemaDir` (setup-schema 0.0, then update-schema). */
async function prepareSchema(
  sqlTool: string,
  pg: PgTarget,
  database: string,
  schemaDir: string,
  log: (l: string) => void,
): Promise<void> {
  const base = [
    '--plugin',
    'postgres12',
    '--endpoint',
    pg.host,
    '--port',
    pg.port,
    '--user',
    pg.user,
    '--database',
    database,
  ];
  const tool = async (args: string[]): Promise<void> => {
    try {
      // The password through the environment (the tool's SQL_PASSWORD), not on a command line others can list.
      await run(sqlTool, [...base, ...args], {
        maxBuffer: 16 << 20,
        env: { ...process.env, SQL_PASSWORD: pg.password },
      });
      log(`temporal-sql-tool ${args.join(' ')} on ${database}: done`);
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `temporal-sql-tool ${args[0]} on ${database} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`,
      );
    }
  };
  const exists = await withPg(pgUrl(pg, 'postgres'), (c) =>
    c.query('select 1 from pg_database where datname = $1', [database]).then((r) => (r.rowCount ?? 0) > 0),
  );
  if (!exists) await tool(['create-database']);
  // setup-schema -v 0.0 only creates the version tables (a no-op when they exist); update-schema applies what is missing.
  const versioned = await withPg(pgUrl(pg, database), (c) =>
    c
      .query(`select 1 from information_schema.tables where table_schema = 'public' and table_name = 'schema_version'`)
      .then((r) => (r.rowCount ?? 0) > 0),
  );
  if (!versioned) await tool(['setup-schema', '--version', '0.0']);
  await tool(['update-schema', '--schema-dir', path.join(schemaDir, 'versioned')]);
}

const pgUrl = (pg: PgTarget, database: string): string =>
  `postgres://${encodeURIComponent(pg.user)}${pg.password ? `:${encodeURIComponent(pg.password)}` : ''}@${pg.host.includes(':') ? `[${pg.host}]` : pg.host}:${pg.port}/${encodeURIComponent(database)}`;

/**
 * `n` distinct free ports below 32768: the server stores membership ports in a smallint column
 * (`cluster_membership.rpc_port`), so the OS's ephemeral ports (32768 and up on Linux) fail.
 */
async function lowFreePorts(host: string, n: number): Promise<number[]> {
  const ports = new Set<number>();
  for (let attempt = 0; ports.size < n; attempt++) {
    if (attempt > 1000) throw new Error(`no ${n} free ports below 32768 on ${host}`);
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (ports.has(port) || !(await canListen(host, port))) continue;
    ports.add(port);
  }
  return [...ports];
}

function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Whether the frontend answers for `namespace` and a visibility query by every Vigil search attribute works. */
async function probeReady(
  address: string,
  namespace: string,
  created: { namespace: boolean; attributes: boolean },
  log: (l: string) => void,
): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    const c = (connection = await Connection.connect({ address, connectTimeout: 2000 }));
    return await c.withDeadline(Date.now() + 10_000, async () => {
      await c.workflowService.getSystemInfo({});
      if (!created.namespace) {
        try {
          await c.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
          log(`namespace ${namespace} registered`);
        } catch (err) {
          // gRPC ALREADY_EXISTS (6): a reused database already has it.
          if ((err as { code?: number }).code !== 6 && !/already exists/i.test(String(err))) throw err;
        }
        created.namespace = true;
      }
      // The namespace registry of every service refreshes every few seconds: until then this throws NotFound.
      await c.workflowService.describeNamespace({ namespace });
      if (!created.attributes) {
        await registerSearchAttributes(address, namespace);
        created.attributes = true;
      }
      const query = Object.entries(VIGIL_SEARCH_ATTRIBUTES)
        .map(([name, type]) => `${name} = ${type === 'Keyword' ? `'vigil-readiness'` : '0'}`)
        .join(' AND ');
      await c.workflowService.listWorkflowExecutions({ namespace, pageSize: 1, query });
      return true;
    });
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

export async function startTemporalPostgresServer(opts: PostgresTemporalOptions): Promise<RunningPostgresTemporal> {
  const log = opts.log ?? (() => undefined);
  const ip = opts.ip ?? '127.0.0.1';
  const namespace = opts.namespace ?? 'default';
  const database = opts.database ?? `temporal_${randomBytes(4).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(database))
    throw new Error(`invalid Temporal database name ${JSON.stringify(database)}: lower-case letters, digits and _`);
  const databases = { main: database, visibility: `${database}_visibility` };
  const pg = pgTarget(opts.postgresUrl ?? LOCAL_SERVER_URL);
  const binaries = await ensureTemporalServer(opts.cacheDir, log);

  await prepareSchema(binaries.sqlTool, pg, databases.main, path.join(binaries.schemaDir, 'temporal'), log);
  await prepareSchema(binaries.sqlTool, pg, databases.visibility, path.join(binaries.schemaDir, 'visibility'), log);

  const port = opts.port || (await getFreePort(ip));
  if (await isPortOpen(ip, port)) throw new Error(`cannot start the Temporal server: ${ip}:${port} is already in use`);
  const [httpPort, ...servicePorts] = await lowFreePorts(ip, 8);
  const [fm, hg, hm, mg, mm, wg, wm] = servicePorts as [number, number, number, number, number, number, number];
  const address = `${ip.includes(':') ? `[${ip}]` : ip}:${port}`;

  const workDir = opts.workDir ?? path.join(path.dirname(binaries.server), 'run', database);
  const configDir = path.join(workDir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  const datastore = (name: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName: name,
      connectAddr: `${pg.host.includes(':') ? `[${pg.host}]` : pg.host}:${pg.port}`,
      connectProtocol: 'tcp',
      user: pg.user,
      password: pg.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const rpc = (grpcPort: number, membershipPort: number, extra: object = {}) => ({
    rpc: { grpcPort, membershipPort, bindOnIP: ip, ...extra },
  });
  let dynamicConfigClient: object | undefined;
  if (opts.dynamicConfig && Object.keys(opts.dynamicConfig).length) {
    const file = path.join(configDir, 'dynamicconfig.yaml');
    fs.writeFileSync(
      file,
      JSON.stringify(
        Object.fromEntries(Object.entries(opts.dynamicConfig).map(([k, value]) => [k, [{ value, constraints: {} }]])),
        null,
        2,
      ),
    );
    dynamicConfigClient = { filepath: file, pollInterval: '10s' };
  }
  // YAML is a superset of JSON: the server's YAML loader reads this as is.
  const config = {
    log: { stdout: true, level: 'warn', format: 'json' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: opts.numHistoryShards ?? 4,
      // Pools are per service (four in this process): 4 × (10 + 4) connections at most, well under
      // a default max_connections of 100 that Vigil and its tests share (temporalio/server: 20 + 10).
      datastores: {
        'postgres-default': datastore(databases.main, 10),
        'postgres-visibility': datastore(databases.visibility, 4),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: ip.includes(':') ? '::1' : ip } },
    services: {
      frontend: rpc(port, fm, { httpPort }),
      history: rpc(hg, hm),
      matching: rpc(mg, mm),
      worker: rpc(wg, wm),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: address,
          httpAddress: `${ip.includes(':') ? `[${ip}]` : ip}:${httpPort}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    ...(dynamicConfigClient ? { dynamicConfigClient } : {}),
  };
  const configFile = path.join(configDir, 'vigil.yaml');
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 }); // it holds the database password

  const args = ['--root', workDir, '--config', 'config', '--env', 'vigil', '--allow-no-auth', 'start'];
  log(
    `starting ${binaries.server} ${args.join(' ')} (PostgreSQL ${pg.host}:${pg.port}, databases ${databases.main} and ${databases.visibility})`,
  );
  const child = spawn(binaries.server, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = captureOutput(child, opts.logFile ?? path.join(workDir, 'server.log'), log);
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = signal ?? `exit code ${code}`));
  child.once('error', (err) => (exited = err.message));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await stopChild(child, 15_000);
      process.removeListener('exit', killOnExit);
      if (opts.dropOnStop) {
        await withPg(pgUrl(pg, 'postgres'), async (c) => {
          for (const name of [databases.main, databases.visibility])
            await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`);
        });
        fs.rmSync(workDir, { recursive: true, force: true });
      }
    })());

  const timeoutMs = opts.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  const created = { namespace: false, attributes: false };
  for (;;) {
    if (exited !== undefined) break;
    if ((await probeReady(address, namespace, created, log)) && exited === undefined)
      return { address, pid: child.pid, databases, binaries, configFile, stop };
    if (Date.now() > deadline) break;
    await sleep(250);
  }
  await stop().catch(() => undefined);
  const why = exited !== undefined ? `exited (${exited})` : `did not answer within ${timeoutMs} ms`;
  throw new Error(
    `Temporal server (PostgreSQL) at ${address} ${why}. Last server output:\n${tail.join('\n') || '(none)'}`,
  );
}
