import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProbeFailure } from './types';

interface CpuTimes {
  idle: number;
  total: number;
}

/** Aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal (guest is inside user). */
async function procStat(): Promise<CpuTimes | null> {
  let text: string;
  try {
    text = await readFile('/proc/stat', 'utf8');
  } catch {
    return null; // not Linux, or /proc hidden: os.cpus() instead
  }
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  const f = line?.trim().split(/\s+/).slice(1, 9).map(Number) ?? [];
  if (f.length < 4 || f.some((n) => !Number.isFinite(n)))
    throw new ProbeFailure('host_cpu_unavailable', { source: '/proc/stat' });
  const idle = f[3]! + (f[4] ?? 0);
  return { idle, total: f.reduce((a, b) => a + b, 0) };
}

function osCpus(): CpuTimes {
  const cpus = os.cpus();
  if (cpus.length === 0) throw new ProbeFailure('host_cpu_unavailable', { source: 'os.cpus' });
  let idle = 0;
  let total = 0;
  for (const { times } of cpus) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

const sample = async (): Promise<CpuTimes> => (await procStat()) ?? osCpus();

/** % of CPU time busy (not idle or iowait) over `sampleMs`, 0..100. */
export async function cpuBusyPercent(sampleMs: number, signal: AbortSignal): Promise<number> {
  const first = await sample();
  await sleep(sampleMs, undefined, { signal });
  const second = await sample();
  const total = second.total - first.total;
  if (total <= 0) throw new ProbeFailure('host_cpu_unavailable', { cause: 'no_ticks_in_sample' });
  const busy = 1 - (second.idle - first.idle) / total;
  return Math.min(100, Math.max(0, Math.round(busy * 1000) / 10));
}
