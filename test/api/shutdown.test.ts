import { Client } from 'undici';
import { type ApiHarness, startApi } from '../support/api-harness';

/**
 * An instance shutting down (a deploy, a scale-in) finishes the requests it has and answers any
 * other that reaches it on a kept-alive connection with 503 `shutting_down`, a problem with
 * Retry-After that closes the connection, so the client retries elsewhere.
 */

let api: ApiHarness;
let release: () => void = () => undefined;
/** Resolves once the slow handler holds its request. */
let entered: Promise<void>;
let enter: () => void = () => undefined;
/** Resolves once the instance has begun to close (after the app's own preClose hook). */
let closingBegan: Promise<void>;
let beginClosing: () => void = () => undefined;

beforeAll(async () => {
  api = await startApi({
    beforeListen: (app) => {
      app.addHook('preClose', (done) => {
        beginClosing();
        done();
      });
      app.get('/test/slow', { schema: { hide: true } }, async () => {
        const held = new Promise<void>((r) => (release = r));
        enter();
        await held;
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
      entered = new Promise<void>((r) => (enter = r));
      closingBegan = new Promise<void>((r) => (beginClosing = r));
      const inFlight = client.request({ method: 'GET', path: '/test/slow' });
      await entered;
      const closing = api.app.close();
      await closingBegan;
      const next = client.request({ method: 'GET', path: '/healthz' });
      // The one wait left on the clock: nothing tells when the client has written the pipelined
      // request (Node reads it only once the first is answered), and it must be on the connection
      // before that answer ends, or the drained connection closes first.
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
