import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { type SourceConfigOf, validateSourceConfig } from '../../src/domain/source-config';
import type { ProbeContext } from '../../src/probes/types';

/** Real targets for the HTTP probe tests, all on 127.0.0.1 with port 0. */
export type Server = http.Server | https.Server | net.Server;

export { close, closedPort, listen } from './probe-net-kit';

/** A TCP server that resets every connection once the request arrives. */
export function resettingServer(): net.Server {
  return net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
}

/** A TCP server that answers every request with bytes that are not HTTP. */
export function garbageServer(): net.Server {
  return net.createServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6 not http\r\n\r\n')));
}

/** The config exactly as the API would hand it to the probe: validated and defaulted. */
export function httpConfig(raw: Record<string, unknown>): SourceConfigOf<'http'> {
  const parsed = validateSourceConfig('http', raw);
  if (!parsed.ok) throw new Error(`test config invalid: ${JSON.stringify(parsed.errors)}`);
  return parsed.config;
}

/**
 * An agent-mode probe context. The default deadline is generous (30 s): success-path tests share a
 * 2-core CI machine with Chromium, Temporal and the fuzzer, and a loopback mTLS handshake once took
 * over 15 s there; tests of timeouts set their own (`timeout_ms` or `defaultTimeoutMs`).
 */
export function probeContext(over: Partial<ProbeContext> & { vars?: Record<string, string> } = {}): ProbeContext {
  const { vars = {}, ...rest } = over;
  return {
    env: (name) => vars[name],
    mode: 'agent',
    signal: new AbortController().signal,
    defaultTimeoutMs: 30_000,
    ...rest,
  };
}

/**
 * `openssl s_server -www` on 127.0.0.1 (port 0): a TLS server that answers a refused client
 * certificate with a real TLS alert, where Node's https server only closes the connection.
 */
export async function startOpensslServer(args: string[]): Promise<{ port: number; stop(): void }> {
  const child = spawn('openssl', ['s_server', '-accept', '127.0.0.1:0', '-www', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`openssl s_server did not start: ${output}`)), 10_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(
        new Error(`openssl s_server could not run (${err.message}): install openssl (scripts/install-test-peers.sh)`),
      );
    });
    child.once('exit', (code) => reject(new Error(`openssl s_server exited with ${code}: ${output}`)));
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /ACCEPT .*:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  child.stdout.resume();
  child.stderr.resume();
  return { port, stop: () => void child.kill() };
}
