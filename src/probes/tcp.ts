import { connect } from 'node:net';
import type { SourceConfigOf } from '../domain/source-config';
import { checkedAddress } from './checked-address';
import { elapsedMs } from './errors';
import { failureOutcome } from './failure-outcome';
import { probeDeadline } from './probe-deadline';
import { sourceAddressFor } from './source-address';
import { type Probe, measured } from './types';

/**
 * TCP connect time in ms: from the first connection attempt (after name resolution) to the
 * established connection, which is closed at once. Failures: ECONNREFUSED, ETIMEDOUT, ENOTFOUND,
 * EHOSTUNREACH, ECONNRESET…, else tcp_error. Cloud mode connects to the checked address.
 */
export const tcpProbe: Probe<SourceConfigOf<'tcp'>> = async (config, ctx) => {
  const deadline = probeDeadline(ctx, config.timeout_ms ?? ctx.defaultTimeoutMs);
  try {
    const host = ctx.mode === 'cloud' ? await deadline.race(checkedAddress(config.host, ctx)) : config.host;
    return measured(
      await connectTime(host, config.port, deadline.signal, sourceAddressFor(host, ctx.localAddress)),
      'ms',
      'TCP connect time',
    );
  } catch (err) {
    return failureOutcome(err, 'tcp_error');
  } finally {
    deadline.done();
  }
};

function connectTime(
  host: string,
  port: number,
  signal: AbortSignal,
  localAddress: string | undefined,
): Promise<number> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let startedAt = performance.now();
    const socket = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    const finish = (settle: () => void) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      settle();
    };
    const onAbort = () => finish(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connectionAttempt', () => (startedAt = performance.now()));
    socket.once('connect', () => {
      const ms = elapsedMs(startedAt);
      finish(() => resolve(ms));
    });
    socket.once('error', (err) => finish(() => reject(err)));
  });
}
