import {
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  parseRetryAfter,
  retryDelayMs,
  verdictForStatus,
} from '../../src/domain/webhook-retry';

/** The delivery schedule the webhook workflow follows; the outage tests check it on a real run, where timers fire late. */
describe('webhook retry schedule', () => {
  const policy: RetryPolicy = { initialMs: 100, factor: 2, maxMs: 1_000, giveUpAfterMs: 10_000 };

  it('doubles from the first delay up to the longest, spread by at most ±10 %', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(policy, n, 0, 0.5))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(retryDelayMs(policy, 3, 0, 0)).toBe(360);
    expect(retryDelayMs(policy, 3, 0, 0.999_999)).toBe(440);
    expect(retryDelayMs(policy, 40, 0, 0)).toBe(900);
  });

  it('never plans an attempt past the window: the last one may start at its end, none after', () => {
    expect(retryDelayMs(policy, 9, 9_000, 0.5)).toBe(1_000);
    expect(retryDelayMs(policy, 9, 9_001, 0.5)).toBeNull();
    // Jitter decides near the end: the shorter wait still fits, the longer one does not.
    expect(retryDelayMs(policy, 9, 9_050, 0)).toBe(900);
    expect(retryDelayMs(policy, 9, 9_050, 0.999)).toBeNull();
    expect(retryDelayMs(policy, 1, policy.giveUpAfterMs, 0.5)).toBeNull();
  });

  it("lengthens a wait to the receiver's Retry-After, never past the longest wait or the window", () => {
    expect(retryDelayMs(policy, 1, 0, 0.5, 700)).toBe(700);
    expect(retryDelayMs(policy, 1, 0, 0.5, 60_000)).toBe(1_000);
    expect(retryDelayMs(policy, 4, 0, 0.5, 10)).toBe(800);
    expect(retryDelayMs(policy, 1, 9_500, 0.5, 700)).toBeNull();
  });

  it('keeps the promised production schedule: 5 s doubling to 1 h, for 26 h', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      initialMs: 5_000,
      factor: 2,
      maxMs: 3_600_000,
      giveUpAfterMs: 26 * 3_600_000,
    });
    let elapsed = 0;
    let attempts = 1;
    for (
      let d = retryDelayMs(DEFAULT_RETRY_POLICY, attempts, elapsed, 0.5);
      d !== null;
      d = retryDelayMs(DEFAULT_RETRY_POLICY, attempts, elapsed, 0.5)
    ) {
      elapsed += d;
      attempts++;
    }
    expect(elapsed).toBeLessThanOrEqual(26 * 3_600_000);
    expect(elapsed).toBeGreaterThan(25 * 3_600_000);
    expect(attempts).toBe(35);
  });

  it('retries 408, 429 and 5xx, delivers on 2xx, gives up on any other status', () => {
    expect([200, 204, 299].map(verdictForStatus)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect([408, 429, 500, 503, 599].map(verdictForStatus)).toEqual(['retry', 'retry', 'retry', 'retry', 'retry']);
    expect([301, 400, 401, 404, 410, 413].map(verdictForStatus)).toEqual([
      'give_up',
      'give_up',
      'give_up',
      'give_up',
      'give_up',
      'give_up',
    ]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-27T08:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 3 ', now)).toBe(3_000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 08:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
