import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import type { Config } from '../../src/config';
import { resolveDatabase, withDatabase } from '../../src/launchers/postgres';
import { type RunningTemporal, startTemporalDevServer } from '../../src/launchers/temporal-dev-server';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';

/**
 * Starts a benchmark's Vigil server process (`script`, compiled into dist/bench) with `env`,
 * and resolves with its port once it prints "listening <port>" (see child-server.ts).
 * VIGIL_NODE_ARGS adds node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
export async function startVigilProcess(
  script: string,
  env: object,
  timeoutMs = 120_000,
): Promise<{ child: ChildProcess; port: number }> {
  const nodeArgs = (process.env.VIGIL_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(__dirname, '..', script)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`the Vigil process did not listen within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const m = /listening (\d+)/.exec(buffered);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Vigil process exited with ${code} before listening`));
    });
  });
  return { child, port };
}

/** SIGTERM, SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopChild(child: ChildProcess, graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A fresh database for one benchmark run (dropped at its end by the caller): on DATABASE_URL's server, else the local or embedded one. */
export function benchDatabase(config: Config): ReturnType<typeof resolveDatabase> {
  const databaseName = `vigil_bench_${Date.now()}`;
  return resolveDatabase({
    databaseUrl: config.DATABASE_URL ? withDatabase(config.DATABASE_URL, databaseName) : undefined,
    databaseName,
    dataDir: config.dataDir,
  });
}

/**
 * The Temporal a benchmark runs against: TEMPORAL_ADDRESS when set, otherwise the cached dev
 * server binary started on a free port (the caller stops `devServer`); Vigil's search attributes
 * registered in the default namespace either way.
 */
export async function benchTemporal(
  config: Config,
  say: (line: string) => void,
): Promise<{ address: string; devServer: RunningTemporal | null }> {
  let devServer: RunningTemporal | null = null;
  let address = config.TEMPORAL_ADDRESS;
  try {
    if (!address) {
      say('TEMPORAL_ADDRESS not set: starting the Temporal dev server…');
      devServer = await startTemporalDevServer({
        cacheDir: config.VIGIL_CACHE_DIR,
        logFile: path.join(os.tmpdir(), `vigil-bench-temporal-${process.pid}.log`),
      });
      address = devServer.address;
    }
    await registerSearchAttributes(address, 'default');
  } catch (err) {
    await devServer?.stop();
    throw err;
  }
  return { address, devServer };
}
