import { toIso } from '../../domain/time';

/** One try at a receiver, as webhook deliveries and notification sends both record it. */
export interface AttemptRow {
  number: number;
  attemptedAt: Date;
  statusCode?: number | null;
  latencyMs: number;
  error?: string | null;
  succeeded: boolean;
}

/** A delivery's or a send's attempts as the API shows them: in order, each with its answer. */
export function attemptViews(rows: readonly AttemptRow[]) {
  return [...rows]
    .sort((a, b) => a.number - b.number)
    .map((a) => ({
      number: a.number,
      attempted_at: toIso(a.attemptedAt),
      status_code: a.statusCode ?? null,
      latency_ms: a.latencyMs,
      error: a.error ?? null,
      succeeded: a.succeeded,
    }));
}
