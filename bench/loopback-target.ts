import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackTarget {
  origin: string;
  /** Requests answered so far. */
  hits(): number;
  /** Requests by client address: each probe location, bound to its own loopback source address, counted apart. */
  hitsByAddress(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * A loopback HTTP target for the benches' probes: answers 200 `{}` to anything, counting requests.
 *
 * `closeConnections`: it answers `Connection: close` and closes first, so each connection's
 * TIME_WAIT stays on its side. A location bound to a source address (VIGIL_PROBE_SOURCE_ADDRESS)
 * takes its port at bind(), before the kernel knows the destination: had the probers closed first,
 * each source address would hold 20,000 sockets in TIME_WAIT at 333 checks/s (of its 28,232 ports),
 * and the search for a free port on every bind() became most of a prober's CPU (bench/prober-cpu.ts
 * shows it). A production location binds no source address, and its targets are many.
 */
export async function startTarget(opts: { closeConnections?: boolean } = {}): Promise<LoopbackTarget> {
  const byAddress = new Map<string, number>();
  const headers = {
    'content-type': 'application/json',
    'content-length': '2',
    ...(opts.closeConnections ? { connection: 'close' } : {}),
  };
  const server = http.createServer((req, res) => {
    const from = req.socket.remoteAddress ?? '';
    byAddress.set(from, (byAddress.get(from) ?? 0) + 1);
    req.resume();
    res.writeHead(200, headers);
    res.end('{}');
  });
  // Many probers connect at once: a roomy backlog.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits: () => [...byAddress.values()].reduce((a, b) => a + b, 0),
    hitsByAddress: () => new Map(byAddress),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
