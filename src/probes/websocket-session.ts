import WebSocket from 'ws';
import { elapsedMs } from './errors';
import { ProbeFailure } from './types';

export interface Exchange {
  send: string;
  expect?: string;
}

export interface SessionTimes {
  handshakeMs: number;
  roundTripMs?: number;
}

/** Largest reply read; a bigger one closes the socket with 1009 (→ ws_closed_early). */
const MAX_PAYLOAD = 1024 * 1024;
/** How long a polite close may take before the socket is dropped. */
const CLOSE_GRACE_MS = 1_000;

const errorFact = (err: Error): string => {
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : err.message.slice(0, 200);
};

const toText = (data: WebSocket.RawData): string =>
  (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');

/**
 * One WebSocket session: open (redirects are not followed: a 3xx is an open failure), then, with
 * an exchange, send one message and wait for the first reply. Rejects with ProbeFailure
 * ws_open_failed (non-101 answer → `status`; network error → `error`), ws_handshake_timeout,
 * ws_reply_timeout, ws_closed_early (`close_code`) or ws_reply_mismatch when `signal` aborts or the
 * exchange fails. The socket is closed either way.
 */
export function runSession(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  exchange?: Exchange,
): Promise<SessionTimes> {
  return new Promise((resolve, reject) => {
    let phase: 'handshake' | 'reply' | 'done' = 'handshake';
    let handshakeMs = 0;
    let started = performance.now();
    let ws: WebSocket;

    const finish = (result: SessionTimes | ProbeFailure) => {
      if (phase === 'done') return;
      phase = 'done';
      signal.removeEventListener('abort', onAbort);
      if (result instanceof ProbeFailure) {
        ws?.terminate();
        reject(result);
      } else {
        closePolitely(ws);
        resolve(result);
      }
    };
    const onAbort = () => finish(new ProbeFailure(phase === 'handshake' ? 'ws_handshake_timeout' : 'ws_reply_timeout'));

    if (signal.aborted) return reject(new ProbeFailure('ws_handshake_timeout'));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      ws = new WebSocket(url, { headers, perMessageDeflate: false, followRedirects: false, maxPayload: MAX_PAYLOAD });
    } catch (err) {
      return finish(new ProbeFailure('ws_open_failed', { error: errorFact(err as Error) }));
    }
    ws.on('error', (err) => {
      if (phase === 'handshake') finish(new ProbeFailure('ws_open_failed', { error: errorFact(err) }));
      // After the open, a 'close' with its code always follows an error.
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      finish(new ProbeFailure('ws_open_failed', { status: res.statusCode ?? null }));
    });
    ws.once('open', () => {
      if (phase !== 'handshake') return;
      handshakeMs = elapsedMs(started);
      if (!exchange) return finish({ handshakeMs });
      phase = 'reply';
      started = performance.now();
      ws.send(exchange.send, () => {}); // a send error ends in 'close'
    });
    ws.once('message', (data) => {
      if (phase !== 'reply') return;
      const roundTripMs = elapsedMs(started);
      if (exchange?.expect !== undefined && !toText(data).includes(exchange.expect))
        return finish(new ProbeFailure('ws_reply_mismatch'));
      finish({ handshakeMs, roundTripMs });
    });
    ws.once('close', (code) => {
      if (phase === 'reply') finish(new ProbeFailure('ws_closed_early', { close_code: code }));
      else if (phase === 'handshake') finish(new ProbeFailure('ws_open_failed', { close_code: code }));
    });
  });
}

function closePolitely(ws: WebSocket): void {
  ws.close(1000);
  const timer = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
  timer.unref();
  ws.once('close', () => clearTimeout(timer));
}
