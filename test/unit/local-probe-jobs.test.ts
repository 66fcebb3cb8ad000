import type { ProbeTestJob } from '../../src/db/entities';
import { LocalProbeJobs } from '../../src/usecases/probe-tests/local-jobs';

const job = (id: string): ProbeTestJob => ({
  id,
  organization: 'org',
  agent: null,
  mode: 'cloud',
  sourceType: 'http',
  sourceConfig: { url: 'https://example.com' },
  thresholds: null,
  state: 'running',
  outcome: null,
  failureReason: null,
  createdAt: new Date(0),
  claimedAt: null,
  claimedSession: null,
  requeuedAt: null,
  completedAt: null,
  expiresAt: new Date(120_000),
});

describe('LocalProbeJobs (cloud probe tests handed between a request and the worker in its process)', () => {
  it('hands the offered job to the activity and its finished job back to the request, once', async () => {
    const jobs = new LocalProbeJobs();
    const offered = jobs.offer(job('a'));
    expect(jobs.take('a')).toMatchObject({ id: 'a', state: 'running' });
    expect(jobs.take('b')).toBeUndefined();
    const done = { ...job('a'), state: 'completed', outcome: { value: 200 } };
    jobs.finish(done);
    await expect(offered.finished).resolves.toBe(done);
    // Finished: gone, and a second finish (an activity retry) changes nothing.
    expect(jobs.take('a')).toBeUndefined();
    jobs.finish({ ...done, state: 'failed' });
    expect(jobs.size).toBe(0);
  });

  it('forgets a job its request withdrew (answered, failed or timed out); a later finish is ignored', async () => {
    const jobs = new LocalProbeJobs();
    const offered = jobs.offer(job('a'));
    offered.withdraw();
    expect(jobs.take('a')).toBeUndefined();
    jobs.finish({ ...job('a'), state: 'completed' });
    expect(jobs.size).toBe(0);
    // finish() settles synchronously when it counts, so one turn of the event loop (not a 20 ms timer) shows it did not.
    const settled = await Promise.race([
      offered.finished.then(() => 'finished'),
      new Promise((r) => setImmediate(() => r('pending'))),
    ]);
    expect(settled).toBe('pending');
  });
});
