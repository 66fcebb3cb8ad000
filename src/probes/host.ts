/**
 * Host probe (agent only): a metric of the agent's own host. cpu (default) % busy and network B/s
 * are sampled over a short window (CPU_SAMPLE_MS, NETWORK_SAMPLE_MS); memory is % used from
 * MemAvailable (os.freemem elsewhere); filesystem % used of the filesystem holding `mountpoint`;
 * load is the 1-minute load average per CPU. Network is Linux only (/proc/net/dev); load is
 * unsupported on Windows, where Node reports it as 0.
 */
import os from 'node:os';
import type { SourceConfigOf } from '../domain/source-config';
import { reasonForError } from './errors';
import { cpuBusyPercent } from './host-cpu';
import { filesystemUsedPercent } from './host-filesystem';
import { memoryUsedPercent } from './host-memory';
import { networkBytesPerSecond } from './host-network';
import { measured, noValue, ProbeFailure, type Probe, type ProbeContext, type ProbeOutcome } from './types';

type HostConfig = SourceConfigOf<'host'>;

export const CPU_SAMPLE_MS = 250;
export const NETWORK_SAMPLE_MS = 500;

export const hostProbe: Probe<HostConfig> = async (config, ctx) => {
  if (ctx.mode === 'cloud') return noValue('source_not_allowed_in_prober');
  try {
    return await measure(config, ctx);
  } catch (err) {
    if (err instanceof ProbeFailure) return noValue(err.reason, err.metadata);
    return noValue(reasonForError(err, 'host_read_error'), { metric: config.metric });
  }
};

async function measure(config: HostConfig, ctx: ProbeContext): Promise<ProbeOutcome> {
  const metric: string = config.metric;
  switch (metric) {
    case 'cpu':
      return measured(await cpuBusyPercent(CPU_SAMPLE_MS, ctx.signal), '%', 'CPU busy');
    case 'memory':
      return measured(await memoryUsedPercent(), '%', 'Memory used');
    case 'filesystem':
      if (config.mountpoint === undefined) return noValue('invalid_config', { field: 'mountpoint' });
      return measured(await filesystemUsedPercent(config.mountpoint), '%', `Filesystem used at ${config.mountpoint}`);
    case 'network':
      if (process.platform !== 'linux')
        return noValue('host_metric_unsupported_platform', { metric, platform: process.platform });
      return measured(
        await networkBytesPerSecond(config.interface, NETWORK_SAMPLE_MS, ctx.signal),
        'B/s',
        'Network bytes received plus sent per second',
      );
    case 'load':
      return loadPerCpu();
    default:
      return noValue('host_unknown_metric', { metric });
  }
}

function loadPerCpu(): ProbeOutcome {
  if (process.platform === 'win32')
    return noValue('host_metric_unsupported_platform', { metric: 'load', platform: process.platform });
  const cpus = os.cpus().length;
  if (cpus === 0) return noValue('host_cpu_unavailable', { metric: 'load', cause: 'no_cpus' });
  const perCpu = (os.loadavg()[0] ?? NaN) / cpus;
  if (!Number.isFinite(perCpu)) return noValue('non_finite_value');
  return measured(Math.round(perCpu * 1000) / 1000, null, '1-minute load average per CPU');
}
