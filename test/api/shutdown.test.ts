import { Client } from 'undici';
import { type ApiHarness, startApi } from '../support/api-harness';

/**
 * An instance shutting down (a deploy, a scale-in) finishes the requests it has and answers any
 * other that reaches it on a kept-alive connection with 503 `shutting_down`, a problem with
 * Retry-After that closes the connection, so the client retries elsewhere.
 */

let api: ApiHarness;
let release: () => void = () => undefined;

beforeAll(async () => {
  api = await startApi({
    beforeListen: (app) => {
      app.get('/test/slow', { schema: { hide: true } }, async () => {
        await new Promise<void>((r) => (release = r));
        return { done: true };
      });
    },
  });
});
afterAll(async () => {
  release();
  await api.close().catch(() => undefined);
});

describe('shutting down', () => {
  it('finishes the request in flight and answers the next one on its connection 503 shutting_down', async () => {
    const client = new Client(api.baseUrl, { pipelining: 2 });
    try {
      const inFlight = client.request({ method: 'GET', path: '/test/slow' });
      await new Promise((r) => setTimeout(r, 200));
      const closing = api.app.close();
      await new Promise((r) => setTimeout(r, 100));
      const next = client.request({ method: 'GET', path: '/healthz' });
      await new Promise((r) => setTimeout(r, 100));
      release();

      const first = await inFlight;
      expect(first.statusCode).toBe(200);
      expect(await first.body.json()).toEqual({ done: true });
      const refused = await next;
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers.connection).toBe('close');
      expect(await refused.body.json()).toMatchObject({ title: 'shutting_down', status: 503, retry_after: 1 });
      await closing;
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
