import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config';
import { getFreePort } from '../../src/launchers/free-port';
import { type RunningTemporal, startTemporalDevServer } from '../../src/launchers/temporal-dev-server';
import { nodeArgsFor } from './env';
import { eventually } from './eventually';
import { type OwnPostgres, startOwnPostgres } from './own-postgres';

const sh = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/**
 * A Vigil deployment the fault tests break and watch over HTTP only: API instances and a worker
 * in processes of their own, PostgreSQL and Temporal.
 *
 * By default the tests start it here: a PostgreSQL and a Temporal dev server of their own, the
 * production entry points `src/cli/api.ts` (twice) and `src/cli/worker.ts`. With
 * VIGIL_FAULT_API_URL set they use a running stack instead, e.g. `docker compose up --build
 * --wait` (docs/operations.md, "Production-like run"), and break it with commands from the
 * environment (VIGIL_FAULT_COMPOSE, or each VIGIL_FAULT_<ACTION> command).
 */
export interface FaultStack {
  /** The API as clients reach it (a balancer in front of the instances, or the first one). */
  apiUrl: string;
  /** Each API instance. */
  apiUrls: string[];
  /** Vigil's database, to make organizations and keys. */
  databaseUrl: string;
  /** Where servers the test starts must listen, and the name the stack reaches them by. */
  listenHost: string;
  hostFromStack: string;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  killTemporal(): Promise<void>;
  startTemporal(): Promise<void>;
  killApi(index: number): Promise<void>;
  startApi(index: number): Promise<void>;
  close(): Promise<void>;
}

async function untilHealthy(url: string, withinMs = 120_000): Promise<void> {
  await eventually(
    async () => {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status !== 200) throw new Error(`${url}/healthz answered ${res.status}`);
    },
    withinMs,
    500,
  );
}

/** A stack already running (docker compose or any other), driven by commands from the environment. */
function externalStack(env: NodeJS.ProcessEnv): FaultStack {
  const apiUrl = env.VIGIL_FAULT_API_URL!;
  const compose = env.VIGIL_FAULT_COMPOSE;
  const command = (name: string, composeArgs: string) => {
    const given = env[`VIGIL_FAULT_${name}`];
    const cmd = given ?? (compose ? `${compose} ${composeArgs}` : undefined);
    return async () => {
      if (!cmd) throw new Error(`set VIGIL_FAULT_${name} or VIGIL_FAULT_COMPOSE to run this fault against ${apiUrl}`);
      await sh('sh', ['-c', cmd], { timeout: 120_000 });
    };
  };
  const apiUrls = (env.VIGIL_FAULT_API_URLS ?? apiUrl).split(',').map((u) => u.trim());
  const databaseUrl = env.VIGIL_FAULT_DATABASE_URL;
  if (!databaseUrl) throw new Error('VIGIL_FAULT_DATABASE_URL is required with VIGIL_FAULT_API_URL');
  return {
    apiUrl,
    apiUrls,
    databaseUrl,
    listenHost: '0.0.0.0',
    hostFromStack: env.VIGIL_FAULT_HOST_FROM_STACK ?? 'host.docker.internal',
    stopPostgres: command('STOP_POSTGRES', 'stop postgres'),
    startPostgres: command('START_POSTGRES', 'start postgres'),
    killTemporal: command('KILL_TEMPORAL', 'kill -s SIGKILL temporal'),
    startTemporal: command('START_TEMPORAL', 'start temporal'),
    killApi: (i) => command(`KILL_API_${i + 1}`, `kill -s SIGKILL api-${i + 1}`)(),
    async startApi(i) {
      await command(`START_API_${i + 1}`, `start api-${i + 1}`)();
      await untilHealthy(apiUrls[i]!);
    },
    async close() {},
  };
}

/** The same layout started here: own PostgreSQL and Temporal, two API processes and a worker process. */
async function localStack(): Promise<FaultStack> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-fault-stack-'));
  const cacheDir = loadConfig().VIGIL_CACHE_DIR;
  const pg: OwnPostgres = await startOwnPostgres();
  const temporalPorts = { port: await getFreePort(), uiPort: await getFreePort() };
  const startServer = () =>
    startTemporalDevServer({
      cacheDir,
      dbFile: path.join(tmp, 'temporal.db'),
      ...temporalPorts,
      logFile: path.join(tmp, 'temporal.log'),
    });
  let temporal: RunningTemporal | null = await startServer();
  const apiPorts = [await getFreePort(), await getFreePort()];
  const apiUrls = apiPorts.map((p) => `http://127.0.0.1:${p}`);
  const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: pg.url,
    TEMPORAL_ADDRESS: temporal!.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    VIGIL_MASTER_KEY: process.env.VIGIL_MASTER_KEY!,
    VIGIL_CACHE_DIR: cacheDir,
    HOST: '127.0.0.1',
    // The test's receivers are on loopback; retries are quick so the tests stay short.
    WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    WEBHOOK_RETRY_INITIAL_MS: '500',
    WEBHOOK_RETRY_MAX_MS: '2000',
    MAIL_OUTBOX_DIR: path.join(tmp, 'mail'),
    ...extra,
  });
  const taskQueue = `fault-stack-${randomUUID()}`;
  const children = new Map<string, ChildProcess>();
  const output = new Map<string, string>();
  const launch = (name: string, entry: string, extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, nodeArgsFor(`src/cli/${entry}`), {
      cwd: ROOT,
      env: env(extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    output.set(name, '');
    const keep = (d: Buffer) => output.set(name, `${output.get(name)}${d.toString()}`.slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    children.set(name, child);
    return child;
  };
  const kill = async (name: string) => {
    const child = children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  const startApiProcess = async (i: number) => {
    launch(`api-${i + 1}`, 'api.ts', { PORT: String(apiPorts[i]) });
    try {
      await untilHealthy(apiUrls[i]!);
    } catch (err) {
      throw new Error(`api-${i + 1} did not come up: ${String(err)}\n${output.get(`api-${i + 1}`)}`);
    }
  };
  const closeAll = async () => {
    for (const name of children.keys()) await kill(name);
    await temporal?.stop();
    await pg.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    // At info it says "worker running" once it polls.
    const worker = launch('worker', 'worker.ts', { LOG_LEVEL: 'info' });
    await eventually(
      async () => {
        if (worker.exitCode !== null) throw new Error(`the worker exited:\n${output.get('worker')}`);
        if (!/worker running/.test(output.get('worker') ?? ''))
          throw new Error(`the worker is not running yet:\n${output.get('worker')}`);
      },
      180_000,
      500,
    );
    await Promise.all([startApiProcess(0), startApiProcess(1)]);
  } catch (err) {
    // A stack that did not come up leaves nothing running behind the failed test.
    await closeAll().catch(() => undefined);
    throw err;
  }

  return {
    apiUrl: apiUrls[0]!,
    apiUrls,
    databaseUrl: pg.url,
    listenHost: '127.0.0.1',
    hostFromStack: '127.0.0.1',
    stopPostgres: () => pg.stop(),
    startPostgres: () => pg.start(),
    async killTemporal() {
      const pid = temporal!.pid!;
      process.kill(pid, 'SIGKILL');
      await eventually(async () => expect(() => process.kill(pid, 0)).toThrow(), 10_000);
      temporal = null;
    },
    async startTemporal() {
      temporal = await startServer();
    },
    killApi: (i) => kill(`api-${i + 1}`),
    startApi: startApiProcess,
    close: closeAll,
  };
}

export async function startFaultStack(env: NodeJS.ProcessEnv = process.env): Promise<FaultStack> {
  return env.VIGIL_FAULT_API_URL ? externalStack(env) : localStack();
}
