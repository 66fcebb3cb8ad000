import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

/** Keeps the last lines of a child's output, mirrors them to `logFile` and to `log`. */
export function captureOutput(child: ChildProcess, logFile: string | undefined, log: (line: string) => void): string[] {
  const tail: string[] = [];
  let file: fs.WriteStream | undefined;
  if (logFile) {
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    file = fs.createWriteStream(logFile, { flags: 'a' });
    child.once('close', () => file?.end());
  }
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      file?.write(`${line}\n`);
      log(line);
    });
  }
  return tail;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
