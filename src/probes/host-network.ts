import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProbeFailure } from './types';

/** Bytes received plus sent per interface, from /proc/net/dev. */
async function counters(): Promise<Map<string, number>> {
  let text: string;
  try {
    text = await readFile('/proc/net/dev', 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ProbeFailure('host_network_unavailable', { cause: typeof code === 'string' ? code : 'read_failed' });
  }
  const out = new Map<string, number>();
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const f = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    const rx = f[0];
    const tx = f[8];
    if (rx === undefined || tx === undefined || !Number.isFinite(rx) || !Number.isFinite(tx)) continue;
    out.set(line.slice(0, colon).trim(), rx + tx);
  }
  return out;
}

/**
 * B/s received plus sent over `sampleMs` (Linux only): on `iface` when named (lo included), else
 * on every interface but lo. A counter that went backwards (interface reset) counts 0.
 */
export async function networkBytesPerSecond(
  iface: string | undefined,
  sampleMs: number,
  signal: AbortSignal,
): Promise<number> {
  const counted = (name: string) => (iface === undefined ? name !== 'lo' : name === iface);
  const first = await counters();
  if (iface !== undefined && !first.has(iface))
    throw new ProbeFailure('host_network_unavailable', { interface: iface, cause: 'no_such_interface' });
  const startedAt = performance.now();
  await sleep(sampleMs, undefined, { signal });
  const second = await counters();
  const seconds = (performance.now() - startedAt) / 1000;
  let bytes = 0;
  for (const [name, after] of second) {
    const before = first.get(name);
    if (counted(name) && before !== undefined && after >= before) bytes += after - before;
  }
  return Math.round((bytes / seconds) * 10) / 10;
}
