/**
 * True when the SMTP server refused the message for good (a 5xx reply such as 550 for an unknown
 * recipient), so retrying is pointless. Connection failures, timeouts and 4xx replies are false.
 */
export function isPermanentMailError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { permanent?: unknown; responseCode?: unknown };
  // nodemailer 10 classifies the reply itself (5xx except 503 "bad sequence", which a new session can fix).
  if (typeof e.permanent === 'boolean') return e.permanent;
  return typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600 && e.responseCode !== 503;
}
