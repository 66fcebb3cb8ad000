import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { ProbeFailure } from './types';

/** MemTotal and MemAvailable (kB) from /proc/meminfo, or null where it is missing (not Linux, kernel < 3.14). */
async function procMeminfo(): Promise<{ total: number; available: number } | null> {
  let text: string;
  try {
    text = await readFile('/proc/meminfo', 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const total = field('MemTotal');
  const available = field('MemAvailable');
  return total !== undefined && available !== undefined ? { total, available } : null;
}

/** % of memory in use: 100 × (total − available) / total, 0..100. */
export async function memoryUsedPercent(): Promise<number> {
  const mem = (await procMeminfo()) ?? { total: os.totalmem(), available: os.freemem() };
  if (!(mem.total > 0)) throw new ProbeFailure('host_memory_unavailable', { cause: 'no_total' });
  const used = (mem.total - mem.available) / mem.total;
  return Math.min(100, Math.max(0, Math.round(used * 1000) / 10));
}
