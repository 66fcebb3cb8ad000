import { Client } from 'pg';
import { JobWaiter } from '../../src/api/job-waiter';
import { ChangeFeed } from '../../src/db/change-feed';
import { testDatabaseUrl } from '../support/env';

/** The probe-test waiter over a real LISTEN connection, woken by real pg_notify calls. */
let feed: ChangeFeed;
let pg: Client;
let waiter: JobWaiter;

beforeAll(async () => {
  feed = new ChangeFeed(testDatabaseUrl(), 'vigil_probe_jobs');
  await feed.start();
  pg = new Client({ connectionString: testDatabaseUrl() });
  await pg.connect();
  waiter = new JobWaiter(feed);
});
afterAll(async () => {
  await pg.end();
  await feed.close();
});

const notifyJob = (jobId: string) =>
  pg.query(`select pg_notify('vigil_probe_jobs', json_build_object('j', $1::text, 's', 'completed')::text)`, [jobId]);
/** Resolves once the waiter has seen the feed's next notification. */
const feedDelivered = () => new Promise<void>((resolve) => feed.once('change', () => setImmediate(resolve)));
/** Whether `p` has settled by the end of this turn of the event loop. */
const settledNow = (p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);

describe('JobWaiter watches', () => {
  it('keeps a change that arrives before next(): the next wait returns at once', async () => {
    const watch = waiter.watchJob('job-early');
    try {
      const arrived = feedDelivered();
      await notifyJob('job-early');
      await arrived;
      // Settled in the same turn: no notification follows, so only the kept change can answer it.
      const early = watch.next(5_000);
      expect(await settledNow(early)).toBe(true);
      expect(await early).toEqual(['completed']);
      // Used up: the following wait runs to its bound.
      const t1 = performance.now();
      expect(await watch.next(150)).toEqual([]);
      expect(performance.now() - t1).toBeGreaterThanOrEqual(140);
    } finally {
      watch.close();
    }
  });

  it('wakes a pending next() on the job’s change, not on another job’s', async () => {
    const watch = waiter.watchJob('job-a');
    try {
      // A wait of a minute: only job-a's change can end it within the test's time.
      const pending = watch.next(60_000);
      const sawB = feedDelivered();
      await notifyJob('job-b');
      await sawB;
      expect(await settledNow(pending)).toBe(false);
      await notifyJob('job-a');
      expect(await pending).toEqual(['completed']);
    } finally {
      watch.close();
    }
  });

  it('ends a pending next() on close', async () => {
    const watch = waiter.watchJob('job-closed');
    // A wait of a minute, and no notification: only close can end it within the test's time.
    const pending = watch.next(60_000);
    expect(await settledNow(pending)).toBe(false);
    watch.close();
    expect(await settledNow(pending)).toBe(true);
    expect(await pending).toEqual([]);
  });

  it('wakes an agent’s poll for a job queued for it or a change of its metrics, kept when it comes before next()', async () => {
    const notifyAgent = (agentId: string, s: string) =>
      pg.query(`select pg_notify('vigil_probe_jobs', json_build_object('a', $1::text, 's', $2::text)::text)`, [
        agentId,
        s,
      ]);
    const watch = waiter.watchAgent('agent-1');
    try {
      const arrived = feedDelivered();
      await notifyAgent('agent-1', 'pending');
      await arrived;
      expect(await watch.next(5_000)).toEqual(['pending']);
      // A job taken by a poll (running) is not news to the agent; another agent's job is not either.
      const pending = watch.next(300);
      await notifyAgent('agent-1', 'running');
      await notifyAgent('agent-2', 'pending');
      expect(await pending).toEqual([]);
      const config = watch.next(5_000);
      await notifyAgent('agent-1', 'config');
      expect(await config).toEqual(['config']);
    } finally {
      watch.close();
    }
  });
});
