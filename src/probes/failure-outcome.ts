import { reasonForError } from './errors';
import { type ProbeOutcome, ProbeFailure, noValue } from './types';

/**
 * The outcome of a caught error: its §7.3 reason (`fallback` when unclassified) and, as metadata,
 * the ProbeFailure's own metadata or the raw error code when it differs from the reason.
 */
export function failureOutcome(err: unknown, fallback: string): ProbeOutcome {
  const reason = reasonForError(err, fallback);
  if (err instanceof ProbeFailure) return noValue(reason, err.metadata);
  const code = (err as { code?: unknown } | null)?.code;
  return noValue(reason, typeof code === 'string' && code !== reason ? { code } : undefined);
}
