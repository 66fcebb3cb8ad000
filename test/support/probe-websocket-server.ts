import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export const WS_BEARER = 'Bearer ws-secret-9c1e';

/**
 * One HTTP server on 127.0.0.1:0 whose upgrade handler picks a behaviour by path, with a real
 * `ws` WebSocketServer behind it:
 *   /echo       echoes every message
 *   /binary     answers every message with a binary frame "pong:<message>"
 *   /close      closes right after the open with code 4001
 *   /silent     accepts and never sends anything
 *   /auth       accepts only with `Authorization: <WS_BEARER>`, else answers 401
 *   /forbidden  plain HTTP 403 to the upgrade
 *   /hang       never answers the upgrade
 */
export interface TestWebsocketServer {
  url(path: string): string;
  close(): Promise<void>;
}

export async function startWebsocketServer(): Promise<TestWebsocketServer> {
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((_req, res) => res.writeHead(426).end());
  const sockets = new Set<Duplex>();
  const refuse = (socket: Duplex, status: string) =>
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  const accept = (req: http.IncomingMessage, socket: Duplex, head: Buffer, onOpen: (ws: WebSocket) => void) =>
    wss.handleUpgrade(req, socket, head, onOpen);

  server.on('upgrade', (req, socket, head) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    switch (req.url) {
      case '/echo':
        return accept(req, socket, head, (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
      case '/binary':
        return accept(req, socket, head, (ws) =>
          ws.on('message', (data) => ws.send(Buffer.from(`pong:${String(data)}`), { binary: true })),
        );
      case '/close':
        return accept(req, socket, head, (ws) => ws.close(4001, 'go away'));
      case '/silent':
        return accept(req, socket, head, () => {});
      case '/auth':
        if (req.headers.authorization !== WS_BEARER) return refuse(socket, '401 Unauthorized');
        return accept(req, socket, head, (ws) => ws.on('message', (data) => ws.send(data)));
      case '/forbidden':
        return refuse(socket, '403 Forbidden');
      case '/hang':
        return;
      default:
        return refuse(socket, '404 Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `ws://127.0.0.1:${port}${path}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      for (const socket of sockets) socket.destroy();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
