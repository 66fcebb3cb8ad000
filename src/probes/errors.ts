import { normalizeReason } from '../domain/reason-codes';
import { ProbeFailure } from './types';

/**
 * The §7.3 reason for an error a probe caught: a ProbeFailure's own reason; a Node or driver
 * error code the catalog knows (ECONNREFUSED, CERT_HAS_EXPIRED, legacy codes normalised);
 * ETIMEDOUT for an abort or timeout; otherwise `fallback` (the probe's unclassified code, e.g.
 * tcp_error, http_error).
 */
export function reasonForError(err: unknown, fallback: string): string {
  if (err instanceof ProbeFailure) return err.reason;
  const e = err as { name?: string; code?: unknown; cause?: { code?: unknown; name?: string } } | null;
  for (const code of [e?.code, e?.cause?.code]) {
    if (typeof code === 'string') {
      const known = normalizeReason(code);
      if (known !== 'unknown') return known;
    }
  }
  const name = e?.name ?? e?.cause?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return 'ETIMEDOUT';
  return fallback;
}

/** Milliseconds from a start mark, rounded to 0.1 ms. */
export function elapsedMs(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}
