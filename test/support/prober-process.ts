import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { compiledBuildEnv, testTemporalAddress } from './env';

export interface ProberOptions {
  /** The installation: the main task queue (a Temporal harness's) the prober heartbeats to. */
  taskQueue: string;
  /** VIGIL_LOCATION. Suites share one Temporal server: make it unique (e.g. `eu-<8 hex>`). */
  location: string;
  label?: string;
  /** VIGIL_PROBE_SOURCE_ADDRESS, e.g. 127.0.0.12. */
  sourceAddress?: string;
  /** LOCATION_HEARTBEAT_SECONDS (default 1 here, so offline shows within 3 s). */
  heartbeatSeconds?: number;
  /** More environment (CLOUD_PROBE_TIMEOUT_MS…). */
  env?: Record<string, string>;
}

export interface ProberProcess {
  readonly location: string;
  /** The running child (the newest after a restart). */
  child(): ChildProcess;
  /** Everything it printed, across restarts. */
  output(): string;
  /** SIGKILL, as a crash: no last heartbeat; resolves once it exited. */
  kill(): Promise<void>;
  /** SIGTERM: it sends its last (stopping) heartbeat and exits; resolves once it exited. */
  stop(): Promise<void>;
  /** Starts it again with the same settings (after kill or stop); resolves once it is registered. */
  restart(): Promise<void>;
}

const BIN = path.join(__dirname, '..', '..', 'bin', 'vigil-prober.js');

/**
 * The real `vigil-prober` bin in a process of its own, as an operator runs it: Temporal only (no
 * DATABASE_URL in its environment), loopback probe targets allowed. Resolves once it logged
 * "prober running", i.e. its first heartbeat was accepted.
 */
export async function startProberProcess(opts: ProberOptions): Promise<ProberProcess> {
  let out = '';
  let child: ChildProcess;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    ...compiledBuildEnv(),
    LOG_LEVEL: 'info',
    TEMPORAL_ADDRESS: testTemporalAddress(),
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: opts.taskQueue,
    VIGIL_LOCATION: opts.location,
    ...(opts.label ? { VIGIL_LOCATION_LABEL: opts.label } : {}),
    ...(opts.sourceAddress ? { VIGIL_PROBE_SOURCE_ADDRESS: opts.sourceAddress } : {}),
    LOCATION_HEARTBEAT_SECONDS: String(opts.heartbeatSeconds ?? 1),
    CLOUD_PROBE_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    CLOUD_PROBE_TIMEOUT_MS: '2000',
    ...opts.env,
  };
  const spawnOne = async () => {
    child = spawn(process.execPath, [BIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = out.length;
    const c = child;
    c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve, reject) => {
      // 60 s: without the suite's compiled build the bin compiles through tsx, which on a loaded 2-core machine took over 30 s.
      // A prober that did not start is killed, never left polling after the test gave up on it.
      const timer = setTimeout(() => {
        c.off('exit', onExit);
        c.kill('SIGKILL');
        reject(new Error(`prober ${opts.location} did not start within 60 s:\n${out.slice(started)}`));
      }, 60_000);
      const onData = () => {
        if (out.slice(started).includes('prober running')) {
          clearTimeout(timer);
          c.stdout!.off('data', onData);
          c.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`prober ${opts.location} exited with ${code} before it was running:\n${out.slice(started)}`));
      };
      c.stdout!.on('data', onData);
      c.once('exit', onExit);
    });
  };
  const end = async (signal: NodeJS.Signals) => {
    const c = child;
    if (c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  await spawnOne();
  return {
    location: opts.location,
    child: () => child,
    output: () => out,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    async restart() {
      await end('SIGKILL');
      await spawnOne();
    },
  };
}

/** Probers a suite starts, all killed by `closeAll` (afterAll). */
export function proberProcesses() {
  const all: ProberProcess[] = [];
  return {
    async start(opts: ProberOptions): Promise<ProberProcess> {
      const p = await startProberProcess(opts);
      all.push(p);
      return p;
    },
    async closeAll(): Promise<void> {
      await Promise.all(all.map((p) => p.kill()));
    },
  };
}
