import { type FlipRow, metricFlipsPage } from '../../db/repositories/metric-location-repository';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { ProblemError } from '../../domain/error-catalog';
import { toIso, toIsoOrNull } from '../../domain/time';
import type { Vote } from '../../domain/confirmation';
import type { ReasonClass } from '../../domain/reason-class';
import type { HealthStatus } from '../../domain/thresholds';
import type { OrgContext } from '../shared/context';
import { getMetricRow } from './metrics';

/** A status flip as GET /v1/metrics/{id}/flips shows it: when it began, when it was confirmed, and the votes of the rounds that confirmed it. */
export function flipView(f: FlipRow) {
  const noData = f.to_status === 'no_data';
  return {
    id: f.id,
    metric_id: f.metric_id,
    from_status: f.from_status as HealthStatus,
    to_status: f.to_status as HealthStatus,
    reason: noData ? (f.reason ?? 'no_data') : null,
    reason_class: noData ? ((f.reason_class as ReasonClass | null) ?? 'measurement') : null,
    value: noData || f.value === null ? null : Number(f.value),
    at: toIso(new Date(f.at)),
    confirmed_at: toIsoOrNull(f.confirmed_at ? new Date(f.confirmed_at) : null),
    confirmations: f.confirmations,
    rounds: (f.votes ?? []) as { at: string; votes: Vote[] }[],
  };
}

/** A metric's status flips, newest first, cursor-paged. */
export async function listMetricFlips(ctx: OrgContext, metricId: string, q: { limit: number; cursor?: string }) {
  const m = await getMetricRow(ctx, metricId);
  let after: { at: string; id: string } | null = null;
  if (q.cursor) {
    const pos = decodeCursor(q.cursor);
    if (!pos)
      throw new ProblemError('validation_failed', 'The cursor is not one this API issued.', {
        errors: [{ path: 'query.cursor', message: 'Invalid cursor' }],
      });
    after = { at: pos.createdAt.toISOString(), id: pos.id };
  }
  const rows = await metricFlipsPage(ctx.em, ctx.org.id, m.id, q.limit + 1, after);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map(flipView),
    next_cursor: rows.length > q.limit && last ? encodeCursor({ createdAt: new Date(last.at), id: last.id }) : null,
  };
}
