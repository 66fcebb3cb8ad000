/** Fixed windows per organization: one per UTC minute and one per UTC day (spec §8). */
export interface RateLimitWindows {
  minuteStart: Date;
  dayStart: Date;
  minuteResetSeconds: number;
  dayResetSeconds: number;
}

export function windowsAt(now: Date): RateLimitWindows {
  const ms = now.getTime();
  const minuteStart = new Date(ms - (ms % 60_000));
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return {
    minuteStart,
    dayStart,
    minuteResetSeconds: Math.max(1, Math.ceil((minuteStart.getTime() + 60_000 - ms) / 1000)),
    dayResetSeconds: Math.max(1, Math.ceil((dayStart.getTime() + 86_400_000 - ms) / 1000)),
  };
}

export interface RateLimitVerdict {
  headers: Record<string, string>;
  /** Set when a window is used up: which one and how long until it resets. */
  exceeded: { window: 'minute' | 'day'; max: number; retryAfter: number } | null;
}

/** `minuteCount`/`dayCount` already include the current request. */
export function judge(
  limits: { perMinute: number; perDay: number },
  counts: { minuteCount: number; dayCount: number },
  windows: RateLimitWindows,
): RateLimitVerdict {
  const headers = {
    'x-ratelimit-limit': String(limits.perMinute),
    'x-ratelimit-remaining': String(Math.max(0, limits.perMinute - counts.minuteCount)),
    'x-ratelimit-reset': String(windows.minuteResetSeconds),
    'x-ratelimit-daily-limit': String(limits.perDay),
    'x-ratelimit-daily-remaining': String(Math.max(0, limits.perDay - counts.dayCount)),
    'x-ratelimit-daily-reset': String(windows.dayResetSeconds),
  };
  if (counts.dayCount > limits.perDay) {
    return { headers, exceeded: { window: 'day', max: limits.perDay, retryAfter: windows.dayResetSeconds } };
  }
  if (counts.minuteCount > limits.perMinute) {
    return { headers, exceeded: { window: 'minute', max: limits.perMinute, retryAfter: windows.minuteResetSeconds } };
  }
  return { headers, exceeded: null };
}

/**
 * How many requests an API instance leases from the shared counter at once: a tenth of what the
 * window has left, at most 100 — and one at a time near the limit, where exactness matters.
 */
export function leaseSize(limit: number, globalCount: number): number {
  return Math.max(1, Math.min(100, Math.floor((limit - globalCount) / 10)));
}

/** Of `grant` requests added to the counter (now at `after`), how many fit under the limit. */
export function usableGrant(limit: number, grant: number, after: number): number {
  return Math.max(0, Math.min(grant, limit - (after - grant)));
}
