import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';

let api: ApiHarness;
let second: ApiHarness;
beforeAll(async () => {
  [api, second] = await Promise.all([startApi(), startApi()]);
});
afterAll(async () => Promise.all([api.close(), second.close()]));

function rateHeaders(h: Headers) {
  return Object.fromEntries(
    [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-daily-limit',
      'x-ratelimit-daily-remaining',
      'x-ratelimit-daily-reset',
    ].map((n) => [n, h.get(n) === null ? null : Number(h.get(n))]),
  );
}

/** Counting tests must not straddle a UTC minute boundary: start them with at least 5 s left. */
async function awayFromMinuteBoundary(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
}

describe('rate limits per organization (spec §8)', () => {
  beforeEach(awayFromMinuteBoundary);

  it('sends the per-minute and daily headers on every authenticated response, errors included', async () => {
    const org = await api.createOrg('business');
    const ok = rateHeaders((await api.request('GET', '/v1/services', { key: org.key })).headers);
    expect(ok).toMatchObject({
      'x-ratelimit-limit': 1200,
      'x-ratelimit-remaining': 1199,
      'x-ratelimit-daily-limit': 500000,
      'x-ratelimit-daily-remaining': 499999,
    });
    expect(ok['x-ratelimit-reset']).toBeGreaterThanOrEqual(1);
    expect(ok['x-ratelimit-reset']).toBeLessThanOrEqual(60);
    expect(ok['x-ratelimit-daily-reset']).toBeGreaterThanOrEqual(1);
    expect(ok['x-ratelimit-daily-reset']).toBeLessThanOrEqual(86400);
    const notFound = await api.request('GET', '/v1/services/00000000-0000-4000-8000-000000000000', { key: org.key });
    expect(rateHeaders(notFound.headers)['x-ratelimit-remaining']).toBe(1198);
  });

  it('answers 429 rate_limited with Retry-After, retry_after and limit when the minute window is used up, across API instances', async () => {
    const org = await api.createOrg('team');
    await api.updateOrg(org.id, { rateLimitPerMinute: 4 });
    const statuses: number[] = [];
    // Alternate between two API processes: the window is shared through PostgreSQL.
    for (let i = 0; i < 4; i++)
      statuses.push((await (i % 2 ? second : api).request('GET', '/v1/services', { key: org.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const limited = await second.request('GET', '/v1/services', { key: org.key });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      title: 'rate_limited',
      limit: { scope: 'organization', window: 'minute', max: 4, plan: 'team' },
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.retry_after).toBe(retryAfter);
    expect(rateHeaders(limited.headers)['x-ratelimit-remaining']).toBe(0);

    const other = await api.createOrg('team');
    expect((await api.request('GET', '/v1/services', { key: other.key })).status).toBe(200);
  });

  it('answers 429 with window "day" when the daily quota is used up, resetting at UTC midnight', async () => {
    const org = await api.createOrg('team');
    await api.updateOrg(org.id, { rateLimitPerDay: 2 });
    await api.request('GET', '/v1/services', { key: org.key });
    await api.request('GET', '/v1/services', { key: org.key });
    const limited = await api.request('GET', '/v1/services', { key: org.key });
    expect(limited.status).toBe(429);
    expect(limited.body.limit).toEqual({ scope: 'organization', window: 'day', max: 2, plan: 'team' });
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(Math.abs(limited.body.retry_after - (midnight - now.getTime()) / 1000)).toBeLessThan(5);
    expect(rateHeaders(limited.headers)['x-ratelimit-daily-remaining']).toBe(0);
  });

  it('never lets more than the limit through when two instances race, and refuses the rest with 429', async () => {
    const org = await api.createOrg('business');
    await api.updateOrg(org.id, { rateLimitPerMinute: 30 });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? second : api).request('GET', '/v1/services', { key: org.key })),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeLessThanOrEqual(30);
    // Leases near the limit are small (a tenth of what is left): little budget is stranded.
    expect(ok).toBeGreaterThanOrEqual(24);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.title).toBe('rate_limited');
  });

  it('lets requests through again in the same window once the limit is raised', async () => {
    const org = await api.createOrg('team');
    await api.updateOrg(org.id, { rateLimitPerMinute: 2 });
    await api.request('GET', '/v1/services', { key: org.key });
    await api.request('GET', '/v1/services', { key: org.key });
    expect((await api.request('GET', '/v1/services', { key: org.key })).status).toBe(429);
    await api.updateOrg(org.id, { rateLimitPerMinute: 10 });
    await eventually(
      async () => expect((await api.request('GET', '/v1/services', { key: org.key })).status).toBe(200),
      1000,
    );
  });

  it('reports exact remaining counts to sequential callers of one instance', async () => {
    const org = await api.createOrg('business');
    for (let i = 1; i <= 5; i++) {
      const res = await api.request('GET', '/v1/services', { key: org.key });
      expect(rateHeaders(res.headers)['x-ratelimit-remaining']).toBe(1200 - i);
      expect(rateHeaders(res.headers)['x-ratelimit-daily-remaining']).toBe(500000 - i);
    }
  });
});
