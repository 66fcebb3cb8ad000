/**
 * How often the console's sign-in form may be used: per email address and per
 * client address, in fixed 15-minute windows. A limited request sends nothing. Tests and
 * operators may change the numbers (CONSOLE_SIGN_IN_LIMIT_*); the window is fixed.
 */
export interface SignInLimits {
  /** Requests for one email address per window; the next one is limited (default 3: the 4th). */
  perAddress: number;
  /** Requests from one client address per window (default 10: the 11th). */
  perClient: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAddress: 3, perClient: 10 };
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** The window `now` falls in, and the seconds until the next one. */
export function signInWindow(now: Date): { start: Date; retryAfterSeconds: number } {
  const start = Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS;
  return {
    start: new Date(start),
    retryAfterSeconds: Math.max(1, Math.ceil((start + SIGN_IN_WINDOW_MS - now.getTime()) / 1000)),
  };
}
