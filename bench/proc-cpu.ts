import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client as PgClient } from 'pg';

const TICK = 100; // getconf CLK_TCK on Linux

/** utime + stime of a process in seconds, or null where /proc is not there (or the process is gone). */
export function procCpu(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // After the command name (which may hold spaces and parentheses), utime and stime are the 12th and 13th fields.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK;
  } catch {
    return null;
  }
}

/**
 * Waits until `pids` together use less than `maxCores` of CPU over `windowMs`, twice in a row,
 * so one measurement does not start while the previous one's work is still being done (timers
 * fired, workflows finishing, visibility written). Answers how long it waited; `timeoutMs`
 * bounds the wait. Without /proc it waits one window.
 */
export async function waitUntilQuiet(
  pids: number[],
  opts: { maxCores?: number; windowMs?: number; timeoutMs?: number } = {},
): Promise<{ waitedMs: number; quiet: boolean }> {
  const { maxCores = 0.1, windowMs = 1_000, timeoutMs = 60_000 } = opts;
  const started = Date.now();
  const total = () => {
    const each = pids.map(procCpu);
    return each.some((s) => s === null) ? null : (each as number[]).reduce((a, b) => a + b, 0);
  };
  let before = total();
  if (before === null) {
    await sleep(windowMs);
    return { waitedMs: Date.now() - started, quiet: false };
  }
  let calm = 0;
  while (Date.now() - started < timeoutMs) {
    await sleep(windowMs);
    const now = total();
    if (now === null) break;
    calm = now - before < (maxCores * windowMs) / 1000 ? calm + 1 : 0;
    before = now;
    if (calm >= 2) return { waitedMs: Date.now() - started, quiet: true };
  }
  return { waitedMs: Date.now() - started, quiet: false };
}

/** CPU seconds of this database's PostgreSQL backends and the server's background processes (empty when PostgreSQL is not local). */
export async function postgresCpu(monitor: PgClient): Promise<Map<number, number>> {
  const { rows } = await monitor.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = current_database() or backend_type <> 'client backend'`,
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const cpu = procCpu(pid);
    if (cpu !== null) out.set(pid, cpu);
  }
  return out;
}

/** fn(0..n-1), at most `concurrency` at once; the first failure fails the whole. */
export async function forEach(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
}
