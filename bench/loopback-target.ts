import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP target for the benches' probes: answers 200 `{}` to anything, counting requests. */
export async function startTarget(): Promise<{ origin: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
