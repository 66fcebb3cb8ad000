import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** What the receiver answered; 0 when it held the request without answering (`hang`). */
  status: number;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Read the request, then never answer it (until the sender gives up or the receiver closes); recorded with status 0. */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Requests of one webhook-id, in arrival order. */
  byId(id: string): ReceivedRequest[];
  /** Webhook-ids answered 2xx, with how often each was. */
  accepted(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback that records every webhook POST. `answer` decides the status
 * from the request's webhook-id and how many times that id arrived before (0 for the first).
 */
export async function startReceiver(
  answer: (id: string, seenBefore: number) => Answer = () => ({ status: 200 }),
  port = 0,
  host = '127.0.0.1',
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      const seenBefore = received.filter((r) => r.id === id).length;
      const a = answer(id, seenBefore);
      received.push({
        id,
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
        status: a.hang ? 0 : a.status,
        at: Date.now(),
      });
      if (a.hang) return;
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    byId: (id) => received.filter((r) => r.id === id),
    accepted() {
      const out = new Map<string, number>();
      for (const r of received) if (r.status >= 200 && r.status < 300) out.set(r.id, (out.get(r.id) ?? 0) + 1);
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released). */
export { closedPort as unusedPort } from './probe-net-kit';
