import net from 'node:net';
import { connectTemporal, checkTemporal } from '../../src/temporal/connection';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testTemporalAddress } from '../support/env';

/** A TCP relay to the suite's Temporal server, so a test can make Temporal vanish under a connected client. */
async function startTemporalRelay(): Promise<{
  address: string;
  listening(): boolean;
  cut(): Promise<void>;
  resume(): Promise<void>;
}> {
  const [host, port] = testTemporalAddress().split(':') as [string, string];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayPort = (server.address() as net.AddressInfo).port;
  return {
    address: `127.0.0.1:${relayPort}`,
    listening: () => server.listening,
    // Stops listening and drops every open connection: afterwards nothing answers on the address.
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    resume: () => new Promise<void>((resolve) => server.listen(relayPort, '127.0.0.1', resolve)),
  };
}

describe('/healthz and /readyz', () => {
  it('answers ready when PostgreSQL and Temporal answer', async () => {
    const temporal = await connectTemporal({
      address: testTemporalAddress(),
      namespace: 'default',
      taskQueue: 'unused',
    });
    const api = await startApi({ readiness: [{ name: 'temporal', check: () => checkTemporal(temporal) }] });
    try {
      expect((await api.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
      const ready = await api.request('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({
        status: 'ready',
        checks: { database: { status: 'ok' }, temporal: { status: 'ok' } },
      });
    } finally {
      await api.close();
      await temporal.close();
    }
  });

  it('answers 503 naming Temporal when the Temporal server it connected to stops answering', async () => {
    const relay = await startTemporalRelay();
    const temporal = await connectTemporal({ address: relay.address, namespace: 'default', taskQueue: 'unused' });
    // The client keeps retrying a call readiness gave up on; closing the connection under it would throw from a timer.
    const checks: Promise<unknown>[] = [];
    const check = () => {
      const call = checkTemporal(temporal);
      checks.push(call.catch(() => undefined));
      return call;
    };
    let api: ApiHarness | undefined;
    try {
      api = await startApi({ readiness: [{ name: 'temporal', check }] });
      // Reachable first, so the 503 below is the server going away and nothing else.
      expect((await api.request('GET', '/readyz')).body).toEqual({
        status: 'ready',
        checks: { database: { status: 'ok' }, temporal: { status: 'ok' } },
      });
      await relay.cut();
      const ready = await api.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: 'not_ready',
        checks: { database: { status: 'ok' }, temporal: { status: 'failing', error: expect.any(String) } },
      });
      expect(ready.body.checks.temporal.error).toMatch(/UNAVAILABLE|ECONNREFUSED|no answer within/);
      expect((await api.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await api?.close();
      // Back up, so the calls still retrying end now rather than after the client's whole retry budget.
      if (!relay.listening()) await relay.resume();
      await Promise.all(checks);
      await temporal.close();
      await relay.cut();
    }
  });

  it('answers 503 naming Temporal when the server answers but the namespace does not exist', async () => {
    const temporal = await connectTemporal({
      address: testTemporalAddress(),
      namespace: 'no-such-namespace',
      taskQueue: 'unused',
    });
    let api: ApiHarness | undefined;
    try {
      api = await startApi({ readiness: [{ name: 'temporal', check: () => checkTemporal(temporal) }] });
      const ready = await api.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: 'not_ready',
        checks: {
          database: { status: 'ok' },
          temporal: { status: 'failing', error: expect.stringMatching(/no-such-namespace/) },
        },
      });
      expect((await api.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await api?.close();
      await temporal.close();
    }
  });
});
