/**
 * When a webhook delivery is retried and when it gives up. Pure: the delivery workflow calls it
 * with its own (deterministic) clock and random source.
 */
export interface RetryPolicy {
  /** Delay before the second attempt. */
  initialMs: number;
  /** Growth per attempt. */
  factor: number;
  /** Longest delay between two attempts. */
  maxMs: number;
  /** No attempt starts later than this after the first one. */
  giveUpAfterMs: number;
}

/** Production schedule: 5 s doubling to 1 h, for 26 hours (≥ 24 h as promised, with slack for a receiver's daily window). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialMs: 5_000,
  factor: 2,
  maxMs: 3_600_000,
  giveUpAfterMs: 26 * 3_600_000,
};

export type AttemptVerdict = 'succeeded' | 'retry' | 'give_up';

/** What an HTTP answer means for the delivery: 2xx delivered; 408, 429 and 5xx retried; any other status is final. */
export function verdictForStatus(status: number): AttemptVerdict {
  if (status >= 200 && status < 300) return 'succeeded';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'give_up';
}

/**
 * Delay after failed attempt `attempt` (1-based), or null when the schedule is exhausted.
 * `jitter` in [0, 1) spreads retries of many deliveries by up to ±10 %; a receiver's
 * `Retry-After` (ms) lengthens the delay, capped at `maxMs`.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  elapsedMs: number,
  jitter: number,
  retryAfterMs?: number | null,
): number | null {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** (attempt - 1));
  let delay = Math.round(base * (0.9 + 0.2 * jitter));
  if (retryAfterMs != null && retryAfterMs > delay) delay = Math.min(policy.maxMs, retryAfterMs);
  return elapsedMs + delay > policy.giveUpAfterMs ? null : delay;
}

/** Seconds or HTTP-date of a `Retry-After` header, as milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
