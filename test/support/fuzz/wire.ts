/**
 * The wire: requests sent through undici, or as bytes on a socket of their own for what a client
 * library will not write (oversized or broken headers).
 */
import net from 'node:net';
import { Agent, request } from 'undici';

export interface Shot {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Answer {
  status: number;
  type: string;
  text: string;
}

const dispatcher = new Agent({ connections: 8, headersTimeout: 60_000, bodyTimeout: 60_000 });

/** null: the client refused to send it (a header undici will not write), or the connection broke with no answer. */
export async function send(baseUrl: string, shot: Shot): Promise<Answer | { error: string }> {
  try {
    const res = await request(`${baseUrl}${shot.path}`, {
      method: shot.method as never,
      headers: shot.headers,
      body: shot.body,
      dispatcher,
    });
    const text = await res.body.text();
    const type = res.headers['content-type'];
    return { status: res.statusCode, type: String(Array.isArray(type) ? type[0] : (type ?? '')), text };
  } catch (err) {
    return { error: `${(err as { code?: string }).code ?? ''} ${(err as Error).message}` };
  }
}

/** Bytes on a socket of their own, for what a client library will not write (oversized or broken headers). */
export function sendRaw(port: number, bytes: string | Buffer): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const done = () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString('utf8');
      const head = all.slice(0, Math.max(0, all.indexOf('\r\n\r\n')));
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      if (!status) return resolve({ error: `no answer (${all.slice(0, 80)})` });
      resolve({
        status: Number(status),
        type: /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '',
        text: all.slice(all.indexOf('\r\n\r\n') + 4),
      });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, 10_000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

/** A shot as the bytes of one HTTP/1.1 request (for sendRaw), its body as is. */
export function rawRequest(shot: Shot, host: string): string {
  const lines = [
    `${shot.method} ${shot.path} HTTP/1.1`,
    `Host: ${host}`,
    ...Object.entries(shot.headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${shot.body?.length ?? 0}`,
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${shot.body?.toString('latin1') ?? ''}`;
}

/** Closes the connections of send(). */
export function closeWire(): Promise<void> {
  return dispatcher.close();
}
