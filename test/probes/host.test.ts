import net from 'node:net';
import type { SourceConfigOf } from '../../src/domain/source-config';
import { hostProbe } from '../../src/probes/host';
import { agentContext, probeConfig } from '../support/probe-net-kit';

const config = (raw: Record<string, unknown>) => probeConfig('host', raw);

const context = agentContext;

/** Streams bytes over loopback until stopped: a real TCP server on 127.0.0.1 and a client writing to it. */
async function loopbackTraffic(): Promise<{ stop(): Promise<void> }> {
  const server = net.createServer((socket) => socket.resume());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  const chunk = Buffer.alloc(64 * 1024, 1);
  let running = true;
  const pump = () => {
    while (running && client.write(chunk));
    if (running) client.once('drain', pump);
  };
  pump();
  return {
    stop: async () => {
      running = false;
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const inPercentRange = (value: number | null) => {
  expect(value).not.toBeNull();
  expect(value).toBeGreaterThanOrEqual(0);
  expect(value).toBeLessThanOrEqual(100);
};

describe('host probe', () => {
  it('measures cpu % busy by default', async () => {
    const out = await hostProbe(config({}), context());
    expect(out).toMatchObject({ unit: '%', reason: null });
    inPercentRange(out.value);
  });

  it('measures memory % used', async () => {
    const out = await hostProbe(config({ metric: 'memory' }), context());
    expect(out).toMatchObject({ unit: '%', reason: null });
    inPercentRange(out.value);
    expect(out.value).toBeGreaterThan(0);
  });

  it('measures filesystem % used of a mountpoint', async () => {
    const out = await hostProbe(config({ metric: 'filesystem', mountpoint: '/' }), context());
    expect(out).toMatchObject({ unit: '%', reason: null });
    inPercentRange(out.value);
  });

  it('answers host_filesystem_unavailable for a missing mountpoint', async () => {
    const out = await hostProbe(config({ metric: 'filesystem', mountpoint: '/no/such/mount/vigil' }), context());
    expect(out).toEqual({
      value: null,
      unit: null,
      value_description: null,
      reason: 'host_filesystem_unavailable',
      metadata: { mountpoint: '/no/such/mount/vigil', cause: 'ENOENT' },
    });
  });

  it('answers host_filesystem_unavailable for a filesystem without blocks (/proc)', async () => {
    const out = await hostProbe(config({ metric: 'filesystem', mountpoint: '/proc' }), context());
    expect(out).toMatchObject({ value: null, reason: 'host_filesystem_unavailable', metadata: { cause: 'no_blocks' } });
  });

  it('measures the 1-minute load per CPU', async () => {
    const out = await hostProbe(config({ metric: 'load' }), context());
    expect(out).toMatchObject({ unit: null, reason: null });
    expect(out.value).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(out.value)).toBe(true);
  });

  it('measures network B/s on every interface but lo by default', async () => {
    const out = await hostProbe(config({ metric: 'network' }), context());
    expect(out).toMatchObject({ unit: 'B/s', reason: null });
    expect(out.value).toBeGreaterThanOrEqual(0);
  });

  it('counts bytes pushed over loopback when interface is lo', async () => {
    const traffic = await loopbackTraffic();
    try {
      const out = await hostProbe(config({ metric: 'network', interface: 'lo' }), context());
      expect(out).toMatchObject({ unit: 'B/s', reason: null });
      // Both directions of a local stream pass lo; at least 64 KB went through in the 500 ms sample.
      expect(out.value).toBeGreaterThan(128 * 1024);
    } finally {
      await traffic.stop();
    }
  });

  it('answers host_network_unavailable for an interface the host does not have', async () => {
    const out = await hostProbe(config({ metric: 'network', interface: 'vigil-none0' }), context());
    expect(out).toEqual({
      value: null,
      unit: null,
      value_description: null,
      reason: 'host_network_unavailable',
      metadata: { interface: 'vigil-none0', cause: 'no_such_interface' },
    });
  });

  it('answers host_unknown_metric for a metric it does not know', async () => {
    const out = await hostProbe({ metric: 'gpu' } as unknown as SourceConfigOf<'host'>, context());
    expect(out).toMatchObject({ value: null, reason: 'host_unknown_metric', metadata: { metric: 'gpu' } });
  });

  it('answers ETIMEDOUT when the probe deadline passes during a sample', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await hostProbe(config({ metric: 'cpu' }), context({ signal: controller.signal }))).toMatchObject({
      value: null,
      reason: 'ETIMEDOUT',
    });
    expect(await hostProbe(config({ metric: 'network' }), context({ signal: AbortSignal.timeout(50) }))).toMatchObject({
      value: null,
      reason: 'ETIMEDOUT',
    });
  });

  it('does not run in cloud mode', async () => {
    expect(await hostProbe(config({}), context({ mode: 'cloud' }))).toMatchObject({
      value: null,
      reason: 'source_not_allowed_in_prober',
    });
  });
});
