import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { VIGIL_SEARCH_ATTRIBUTES } from '../temporal/search-attributes';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../workflows/search-attribute-keys';
import { captureOutput, stopChild } from './child-process';
import { getFreePort, isPortOpen } from './free-port';
import { acquireBuildLock, findGo, isExecutable, removeAbandonedBuilds } from './go-build';

/** The Temporal CLI version the dev server is built from (`go build github.com/temporalio/cli/cmd/temporal`, v…). */
export const TEMPORAL_CLI_VERSION = '1.5.1';
/**
 * The SQLite driver the dev server is built with. CLI v1.5.1 pins modernc.org/sqlite v1.34.1, whose
 * connections can stay interrupted after a cancelled query (cznic/sqlite#241; Temporal moved to
 * v1.44.3 in temporalio/temporal#9198): under load the dev server then fails every request
 * ("interrupted (9)", "Namespace default is not found") until it is restarted, as bench:scale saw.
 */
export const TEMPORAL_CLI_SQLITE_VERSION = '1.44.3';

const CLI_MODULE = 'github.com/temporalio/cli';
const CLI_PACKAGE = `${CLI_MODULE}/cmd/temporal`;
const SQLITE_MODULE = 'modernc.org/sqlite';

/** The build's cache folder name: a CLI built with another driver is another binary. */
const CLI_BUILD = `v${TEMPORAL_CLI_VERSION}-sqlite${TEMPORAL_CLI_SQLITE_VERSION}`;

export function temporalCliPath(cacheDir: string): string {
  return path.join(cacheDir, 'temporal-cli', CLI_BUILD, 'temporal');
}

function runGo(go: string, args: string[], cwd: string, log: (line: string) => void): Promise<void> {
  const child = spawn(go, args, {
    cwd,
    env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod', GOWORK: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // `go get` names each of the few hundred modules it adds; the downloads and errors are what a reader needs.
  const tail = captureOutput(child, undefined, (line) => !line.startsWith('go: added ') && log(line));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`go ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`));
    });
  });
}

/**
 * `go install` of the CLI, but in a scratch module that also requires the SQLite driver's
 * TEMPORAL_CLI_SQLITE_VERSION (minimal version selection takes the newer one), built into `dir`.
 */
async function buildCli(go: string, dir: string, log: (line: string) => void): Promise<void> {
  await runGo(go, ['mod', 'init', 'vigil.local/temporal-cli-build'], dir, log);
  await runGo(
    go,
    ['get', `${CLI_PACKAGE}@v${TEMPORAL_CLI_VERSION}`, `${SQLITE_MODULE}@v${TEMPORAL_CLI_SQLITE_VERSION}`],
    dir,
    log,
  );
  await runGo(go, ['build', '-o', path.join(dir, 'temporal'), CLI_PACKAGE], dir, log);
}

export async function ensureTemporalCli(cacheDir: string, log: (line: string) => void): Promise<string | null> {
  const binary = temporalCliPath(cacheDir);
  removeAbandonedBuilds(path.dirname(binary));
  if (isExecutable(binary)) return binary;
  const go = findGo();
  if (!go) return null;

  const binDir = path.dirname(binary);
  fs.mkdirSync(binDir, { recursive: true });
  const lockFile = path.join(binDir, '.build.lock');
  if (!(await acquireBuildLock(lockFile, () => isExecutable(binary), 'the Temporal CLI', log))) return binary;
  // Each builder works in its own folder; the final rename is atomic, so readers never see a half-written binary.
  const work = path.join(binDir, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    if (isExecutable(binary)) return binary;
    log(
      `building Temporal CLI v${TEMPORAL_CLI_VERSION} (SQLite driver v${TEMPORAL_CLI_SQLITE_VERSION}) with ${go} (the first build takes a few minutes)`,
    );
    fs.mkdirSync(work, { recursive: true });
    await buildCli(go, work, log);
    fs.renameSync(path.join(work, 'temporal'), binary);
    log(`Temporal CLI ready at ${binary}`);
    return binary;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(lockFile, { force: true });
  }
}

export interface DevServerOptions {
  cacheDir: string;
  dbFile?: string /* SQLite file; omitted = in-memory */;
  ip?: string /* default 127.0.0.1 */;
  port?: number /* 0 or omitted = free port */;
  uiPort?: number /* 0 or omitted = free port */;
  namespace?: string /* default 'default' */;
  logFile?: string /* server stdout/stderr appended here */;
  log?: (line: string) => void;
  startTimeoutMs?: number /* default 120000 */;
}

export interface RunningTemporal {
  address: string /* host:port */;
  uiUrl: string;
  binary: string | 'sdk-download';
  /** The server's process, when Vigil spawned the binary itself. */
  pid?: number;
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const hostForUrl = (ip: string): string => (ip.includes(':') ? `[${ip}]` : ip);

/** Resolves once the frontend serves `namespace` with every Vigil search attribute registered. */
async function probeReady(address: string, namespace: string): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    const c = (connection = await Connection.connect({ address, connectTimeout: 2000 }));
    const { customAttributes } = await c.withDeadline(Date.now() + 5000, async () => {
      await c.workflowService.getSystemInfo({});
      await c.workflowService.describeNamespace({ namespace });
      return c.operatorService.listSearchAttributes({ namespace });
    });
    return Object.keys(VIGIL_SEARCH_ATTRIBUTES).every((name) => customAttributes?.[name] !== undefined);
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

export async function startTemporalDevServer(opts: DevServerOptions): Promise<RunningTemporal> {
  const log = opts.log ?? (() => undefined);
  const ip = opts.ip ?? '127.0.0.1';
  const namespace = opts.namespace ?? 'default';
  const port = opts.port || (await getFreePort(ip));
  const uiPort = opts.uiPort || (await getFreePort(ip));
  const address = `${hostForUrl(ip)}:${port}`;
  const uiUrl = `http://${hostForUrl(ip)}:${uiPort}`;
  if (opts.dbFile) fs.mkdirSync(path.dirname(path.resolve(opts.dbFile)), { recursive: true });

  // Otherwise the readiness probe would happily talk to whatever already listens there.
  for (const p of [port, uiPort]) {
    if (await isPortOpen(ip, p)) throw new Error(`cannot start the Temporal dev server: ${ip}:${p} is already in use`);
  }
  const binary = await ensureTemporalCli(opts.cacheDir, log);
  if (!binary) return startWithSdkDownload({ ...opts, ip, port, uiPort, namespace, uiUrl }, log);

  // The HTTP API port too: left to the CLI it is the frontend port + 1000, which another server
  // on this machine may hold ("bind: address already in use" in a CI run).
  const httpPort = await getFreePort(ip);
  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--http-port',
    String(httpPort),
  ];
  args.push('--namespace', namespace, '--log-level', 'warn', '--color', 'never');
  if (opts.dbFile) args.push('--db-filename', path.resolve(opts.dbFile));
  for (const [name, type] of Object.entries(VIGIL_SEARCH_ATTRIBUTES))
    args.push('--search-attribute', `${name}=${type}`);

  log(`starting ${binary} ${args.join(' ')}`);
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = captureOutput(child, opts.logFile, log);
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = signal ?? `exit code ${code}`));
  child.once('error', (err) => (exited = err.message));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= stopChild(child, 10_000).finally(() => process.removeListener('exit', killOnExit)));

  const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
  for (;;) {
    if (exited !== undefined) break;
    if ((await probeReady(address, namespace)) && exited === undefined)
      return { address, uiUrl, binary, pid: child.pid, stop };
    if (Date.now() > deadline) break;
    await sleep(250);
  }
  await stop();
  const why =
    exited !== undefined ? `exited (${exited})` : `did not answer within ${opts.startTimeoutMs ?? 120_000} ms`;
  throw new Error(`Temporal dev server at ${address} ${why}. Last server output:\n${tail.join('\n') || '(none)'}`);
}

type Resolved = DevServerOptions & { ip: string; port: number; uiPort: number; namespace: string; uiUrl: string };

async function startWithSdkDownload(opts: Resolved, log: (line: string) => void): Promise<RunningTemporal> {
  log('Go is not available: falling back to the Temporal SDK download of the dev server');
  // Lazy: @temporalio/testing pulls in the native worker bridge.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', downloadDir: path.join(opts.cacheDir, 'temporal-sdk-download') },
      ip: opts.ip,
      port: opts.port,
      ui: true,
      uiPort: opts.uiPort,
      namespace: opts.namespace,
      dbFilename: opts.dbFile ? path.resolve(opts.dbFile) : undefined,
      log: { format: 'pretty', level: 'warn' },
      searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
    },
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= env.teardown());
  return { address: env.address, uiUrl: opts.uiUrl, binary: 'sdk-download', stop };
}
