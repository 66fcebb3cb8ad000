/**
 * What the benchmarks measure: percentiles of latencies (nearest rank, so every figure is one
 * that was observed) and the CPU time of processes, read from /proc.
 */
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

/** The value at nearest rank `p` (0..1) of ascending `sorted`; NaN when empty. */
function nearestRank(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

/** The middle value of `xs` (the upper of the two middle ones when their count is even). */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** One nearest-rank percentile (0..1) of `xs`. */
export function percentile(xs: number[], p: number): number {
  return nearestRank(
    [...xs].sort((a, b) => a - b),
    p,
  );
}

export interface Stats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles. */
export function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: nearestRank(s, 0.5), p99: nearestRank(s, 0.99), max: s.at(-1) ?? NaN };
}

export interface Spread extends Stats {
  p95: number;
}

/** Nearest-rank percentiles, with p95. */
export function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => nearestRank(s, p);
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s.at(-1) ?? NaN };
}
