import fs from 'node:fs';
import path from 'node:path';

/** What the launchers that build a Go binary on first use (the Temporal CLI, the Temporal server) share. */

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `go` on PATH, else the Go distribution's usual place. */
export function findGo(): string | null {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return [...dirs.map((d) => path.join(d, 'go')), '/usr/local/go/bin/go'].find(isExecutable) ?? null;
}

/** Whether process `pid` is alive (one we may not signal is alive too). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process whose pid is in `file` is alive; null when the file is gone. */
function holderAlive(file: string): boolean | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return false;
  }
  const pid = Number.parseInt(text, 10);
  return pid > 0 && pidAlive(pid);
}

/**
 * Removes the work folders (`.build-<pid>-<hex>`) of builders that died mid-build: a killed
 * process never reaches its cleanup, and its half-built Go tree would otherwise stay beside the
 * binary for good. A live builder's folder is left alone.
 */
export function removeAbandonedBuilds(dir: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const m = /^\.build-(\d+)-[0-9a-f]+$/.exec(name);
    if (m && !pidAlive(Number(m[1]))) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Takes `lockFile` (O_EXCL), breaking it when its holder is dead. Answers false when `done()`
 * became true while waiting (another process finished the build).
 */
export async function acquireBuildLock(
  lockFile: string,
  done: () => boolean,
  what: string,
  log: (l: string) => void,
): Promise<boolean> {
  let announced = false;
  for (;;) {
    if (done()) return false;
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const alive = holderAlive(lockFile);
    if (alive === false) fs.rmSync(lockFile, { force: true }); // stale; should two processes both break it, each still builds into its own GOBIN
    if (alive !== true) continue;
    if (!announced) log(`waiting for another process that is building ${what}`);
    announced = true;
    await sleep(1000);
  }
}
