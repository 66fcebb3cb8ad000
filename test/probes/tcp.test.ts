import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { tcpProbe } from '../../src/probes/tcp';
import { agentContext, close, closedPort, cloudContext, listen, probeConfig } from '../support/probe-net-kit';

/**
 * Real targets on 127.0.0.1: a listening server, a released port, and a "blackhole" — a
 * listener with a backlog of 1 whose process is blocked so it never accepts; once its queue is
 * full the kernel drops further SYNs and a connect hangs until the probe's timeout.
 * EHOSTUNREACH and tcp_error are not covered: no local target produces them reliably.
 */
const config = (raw: Record<string, unknown>) => probeConfig('tcp', raw);

async function startBlackhole(): Promise<{ port: number; stop(): void }> {
  const code = `const s = require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
    process.stdout.write(s.address().port + '\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
  });`;
  const child: ChildProcess = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('error', reject);
  });
  // Fill the accept queue (backlog 1 holds two) so the next SYN is dropped.
  const held = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(port, '127.0.0.1', () => resolve(s));
          s.once('error', reject);
        }),
    ),
  );
  return {
    port,
    stop: () => {
      held.forEach((s) => s.destroy());
      child.kill('SIGKILL');
    },
  };
}

let server: net.Server;
let port: number;
let blackhole: Awaited<ReturnType<typeof startBlackhole>>;

beforeAll(async () => {
  server = net.createServer((socket) => socket.end());
  port = await listen(server);
  blackhole = await startBlackhole();
});

afterAll(async () => {
  blackhole?.stop();
  await close(server);
});

describe('tcp probe', () => {
  it('measures the connect time in ms to a listening port', async () => {
    const outcome = await tcpProbe(config({ host: '127.0.0.1', port }), agentContext());
    expect(outcome).toMatchObject({ unit: 'ms', reason: null, value_description: 'TCP connect time' });
    expect(outcome.value).toBeGreaterThanOrEqual(0);
    expect(outcome.value).toBeLessThan(1000);
  });

  it('resolves a hostname and measures only the connect', async () => {
    const ipv4Only = net.createServer((socket) => socket.end());
    const p = await listen(ipv4Only);
    try {
      const outcome = await tcpProbe(config({ host: 'localhost', port: p }), agentContext());
      expect(outcome).toMatchObject({ unit: 'ms', reason: null });
    } finally {
      await close(ipv4Only);
    }
  });

  it('answers ECONNREFUSED when nothing listens', async () => {
    const outcome = await tcpProbe(config({ host: '127.0.0.1', port: await closedPort() }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'ECONNREFUSED' });
  });

  it('answers ENOTFOUND for a name that does not resolve', async () => {
    const outcome = await tcpProbe(config({ host: 'no-such-host.invalid', port: 80 }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'ENOTFOUND' });
  });

  it('answers ETIMEDOUT when the SYN is dropped, after timeout_ms', async () => {
    const started = performance.now();
    const outcome = await tcpProbe(
      config({ host: '127.0.0.1', port: blackhole.port, timeout_ms: 300 }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
    // It waited its timeout (a lower bound); the blackhole never answers, so only the timeout can have ended it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers ETIMEDOUT when the runner aborts ctx.signal', async () => {
    const outcome = await tcpProbe(
      config({ host: '127.0.0.1', port: blackhole.port }),
      agentContext({ signal: AbortSignal.timeout(200) }),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
  });

  it('uses defaultTimeoutMs when the config names no timeout', async () => {
    const outcome = await tcpProbe(
      config({ host: '127.0.0.1', port: blackhole.port }),
      agentContext({ defaultTimeoutMs: 200 }),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
  });

  describe('in cloud mode', () => {
    it('refuses a loopback IP through checkAddress', async () => {
      const ctx = cloudContext();
      const outcome = await tcpProbe(config({ host: '127.0.0.1', port }), ctx);
      expect(outcome).toMatchObject({
        value: null,
        reason: 'target_not_public:loopback',
        metadata: { host: '127.0.0.1', address: '127.0.0.1' },
      });
    });

    it('refuses a hostname that resolves to loopback', async () => {
      const ctx = cloudContext();
      const outcome = await tcpProbe(config({ host: 'localhost', port }), ctx);
      expect(outcome).toMatchObject({ value: null, reason: 'target_not_public:loopback' });
      expect(ctx.checked[0]?.[0]).toBe('localhost');
    });

    it('connects to the checked address when checkAddress lets it pass', async () => {
      const ctx = cloudContext({ allowLoopback: true });
      const outcome = await tcpProbe(config({ host: '127.0.0.1', port }), ctx);
      expect(outcome).toMatchObject({ unit: 'ms', reason: null });
      expect(ctx.checked).toEqual([['127.0.0.1', '127.0.0.1']]);
    });

    it("answers the prober's dns_failed when the name does not resolve", async () => {
      const outcome = await tcpProbe(config({ host: 'no-such-host.invalid', port: 80 }), cloudContext());
      expect(outcome).toMatchObject({ value: null, reason: 'dns_failed' });
    });
  });
});
