import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { compiledBuildEnv } from './env';

export interface AgentProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGKILLs the process (no goodbye to the API, jobs in hand are lost with it); resolves once it exited. */
  stop(): Promise<void>;
  /** The same as stop(): a crash, named for fault tests. */
  kill(): Promise<void>;
  /** The `session` the process named itself with (from its "agent connected" log line). */
  session(): string | null;
}

/**
 * The real `vigil-agent` bin in a process of its own, as a customer runs it. Resolves once it has
 * connected. `env` adds to its environment (e.g. the test-only VIGIL_AGENT_CLOCK_OFFSET_MS).
 */
export async function startAgentProcess(
  apiUrl: string,
  token: string,
  env: Record<string, string> = {},
): Promise<AgentProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'vigil-agent.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...compiledBuildEnv(),
      VIGIL_API_URL: apiUrl,
      VIGIL_AGENT_TOKEN: token,
      VIGIL_OTLP_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent did not connect within 20 s:\n${out}`)), 20_000);
    child.stdout!.on('data', () => {
      if (out.includes('running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`agent exited with ${code}:\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  return {
    child,
    output: () => out,
    stop,
    kill: stop,
    session: () => /"session":"([^"]+)"/.exec(out)?.[1] ?? null,
  };
}
