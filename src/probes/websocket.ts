/**
 * WebSocket probe (agent only): handshake_latency (default) is the ms until the socket is open;
 * round_trip_latency the ms from sending `send` to the first message back (which must contain
 * `expect` when set); connection_success 1 when the socket opened, else a measured 0 (an open
 * failure or handshake timeout is the value, not an error). Secret headers come from `header_refs`.
 * Decisions (spec silent): `send`/`expect` are used by round_trip_latency only; redirects are not
 * followed; a reply is read up to 1 MiB.
 */
import type { SourceConfigOf } from '../domain/source-config';
import { reasonForError } from './errors';
import { resolveWebsocketHeaders } from './websocket-headers';
import { runSession } from './websocket-session';
import { measured, noValue, ProbeFailure, type Probe } from './types';

type WebsocketConfig = SourceConfigOf<'websocket'>;

export const websocketProbe: Probe<WebsocketConfig> = async (config, ctx) => {
  if (ctx.mode === 'cloud') return noValue('source_not_allowed_in_prober');
  let headers: Record<string, string>;
  try {
    headers = resolveWebsocketHeaders(config.headers, config.header_refs, (name) => ctx.env(name));
  } catch (err) {
    return failure(err);
  }
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(config.timeout_ms ?? ctx.defaultTimeoutMs)]);
  const roundTrip = config.interpretation === 'round_trip_latency';
  const exchange =
    roundTrip && config.send !== undefined
      ? { send: config.send, ...(config.expect !== undefined ? { expect: config.expect } : {}) }
      : undefined;
  try {
    const times = await runSession(config.url, headers, signal, exchange);
    if (config.interpretation === 'connection_success') return measured(1, null, 'WebSocket opened (1) or not (0)');
    if (roundTrip) {
      if (times.roundTripMs === undefined) return noValue('invalid_config', { field: 'send' });
      return measured(times.roundTripMs, 'ms', 'WebSocket message round trip');
    }
    return measured(times.handshakeMs, 'ms', 'WebSocket handshake time');
  } catch (err) {
    if (
      config.interpretation === 'connection_success' &&
      err instanceof ProbeFailure &&
      OPEN_FAILURES.has(err.reason)
    ) {
      return measured(0, null, 'WebSocket opened (1) or not (0)');
    }
    return failure(err);
  }
};

const OPEN_FAILURES = new Set(['ws_open_failed', 'ws_handshake_timeout']);

function failure(err: unknown) {
  if (err instanceof ProbeFailure) return noValue(err.reason, err.metadata);
  return noValue(reasonForError(err, 'ws_open_failed'));
}
