import { execFile } from 'node:child_process';
import type { SourceConfigOf } from '../domain/source-config';
import { checkedAddress } from './checked-address';
import { parsePingSummary, pingFailure } from './ping-output';
import { probeDeadline } from './probe-deadline';
import { type Probe, type ProbeOutcome, ProbeFailure, measured, noValue } from './types';

type Interpretation = SourceConfigOf<'icmp'>['interpretation'];

interface PingRun {
  stdout: string;
  stderr: string;
  /** ENOENT or EACCES when the binary could not be started. */
  spawnError: string | null;
  exitCode: number | null;
  timedOut: boolean;
}

/**
 * Ping through the system binary (Linux iputils or BusyBox): `ping -n -c <count> -W <s> <host>`,
 * count default 3, killed with SIGINT at the timeout so it still prints its statistics.
 * latency: average round trip in ms (icmp_all_timeout when nothing came back); packet_loss: %
 * lost 0..100 (100 when nothing came back, not a failure); reachability: 1 if any reply, else 0
 * (0 is a measurement too). Failures: icmp_unavailable (no binary), icmp_privilege_denied,
 * icmp_dns_failed, ETIMEDOUT (killed before any statistics), icmp_error (other; first line of
 * ping's message in metadata). Cloud mode pings the checked address, and a missing binary or
 * privilege is icmp_unavailable_on_prober.
 */
export function pingWith(binary: string): Probe<SourceConfigOf<'icmp'>> {
  return async (config, ctx) => {
    const timeoutMs = config.timeout_ms ?? ctx.defaultTimeoutMs;
    const cloud = ctx.mode === 'cloud';
    const deadline = probeDeadline(ctx, timeoutMs);
    try {
      let target = config.host;
      if (cloud) {
        try {
          target = await deadline.race(checkedAddress(config.host, ctx));
        } catch (err) {
          // A name that does not resolve is ping's own icmp_dns_failed, in the cloud as on an agent.
          if (err instanceof ProbeFailure && !['dns_failed', 'dns_no_answer'].includes(err.reason))
            return noValue(err.reason, err.metadata);
          return noValue('icmp_dns_failed');
        }
      }
      if (target.startsWith('-')) return noValue('invalid_config', { field: 'host' });
      const waitSeconds = Math.max(1, Math.ceil(timeoutMs / 1000));
      const run = await runPing(
        binary,
        ['-n', '-c', String(config.count ?? 3), '-W', String(waitSeconds), target],
        deadline.signal,
      );
      return interpret(run, config.interpretation, cloud);
    } finally {
      deadline.done();
    }
  };
}

export const icmpProbe: Probe<SourceConfigOf<'icmp'>> = pingWith('ping');

function interpret(run: PingRun, interpretation: Interpretation, cloud: boolean): ProbeOutcome {
  if (run.spawnError)
    return noValue(cloud ? 'icmp_unavailable_on_prober' : 'icmp_unavailable', { code: run.spawnError });
  const summary = parsePingSummary(run.stdout);
  if (summary && summary.transmitted > 0) {
    if (interpretation === 'packet_loss') return measured(summary.lossPercent, '%', 'Ping packet loss');
    if (interpretation === 'reachability')
      return measured(summary.received > 0 ? 1 : 0, null, 'Ping reachability (1 if any reply)');
    if (summary.received === 0) return noValue('icmp_all_timeout', { transmitted: summary.transmitted });
    if (summary.avgMs !== null) return measured(summary.avgMs, 'ms', 'Ping average round trip');
  }
  const failure = pingFailure(`${run.stderr}\n${run.stdout}`);
  if (failure === 'icmp_privilege_denied' && cloud) return noValue('icmp_unavailable_on_prober');
  if (failure) return noValue(failure);
  if (run.timedOut) return noValue('ETIMEDOUT');
  const message = (run.stderr.trim() || run.stdout.trim()).split('\n')[0]?.slice(0, 200) ?? '';
  return noValue('icmp_error', { exit_code: run.exitCode, message });
}

function runPing(binary: string, args: string[], signal: AbortSignal): Promise<PingRun> {
  return new Promise((resolve) => {
    let hardKill: NodeJS.Timeout | undefined;
    // Not execFile's own `signal`: on abort it drops the output, and with it the statistics.
    const child = execFile(
      binary,
      args,
      { encoding: 'utf8', maxBuffer: 256 * 1024, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout, stderr) => {
        clearTimeout(hardKill);
        signal.removeEventListener('abort', onAbort);
        const code = (error as { code?: unknown } | null)?.code;
        resolve({
          stdout,
          stderr,
          spawnError: code === 'ENOENT' || code === 'EACCES' ? code : null,
          exitCode: child.exitCode,
          timedOut: signal.aborted,
        });
      },
    );
    // SIGINT makes ping print its statistics and exit; SIGKILL if it has not within a second.
    const onAbort = () => {
      child.kill('SIGINT');
      hardKill = setTimeout(() => child.kill('SIGKILL'), 1000);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
