import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * What every test that runs a real peer binary (Prometheus, Alertmanager, MariaDB…) needs: wait
 * until it answers, say why when it does not, and stop it.
 */

/** The last lines of a peer's log, for error messages. */
export function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-10).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Polls `ready` until it answers true; fails early when the process exits, or after `timeoutMs`. */
export async function waitFor(
  name: string,
  child: ChildProcess,
  logFile: string,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${tail(logFile)}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${name} was not ready within ${timeoutMs} ms: ${tail(logFile)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the process has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
