import { type ChildProcess, spawn } from 'node:child_process';
import { nodeArgsFor } from './env';

/**
 * Workers in processes of their own (test/support/worker-child.ts), so a test can kill one with
 * SIGKILL the way a crash would. `closeAll` kills whatever is still running.
 */
export function workerProcesses(taskQueue: string, env: () => NodeJS.ProcessEnv = () => process.env) {
  const children: ChildProcess[] = [];
  const kill = async (child: ChildProcess): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  return {
    /** A worker on `taskQueue`, resolved once it polls. */
    async spawn(): Promise<ChildProcess> {
      const child = spawn(process.execPath, [...nodeArgsFor('test/support/worker-child.ts'), taskQueue], {
        env: env(),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
      });
      return child;
    },
    kill,
    async closeAll(): Promise<void> {
      for (const c of children) await kill(c);
    },
  };
}
