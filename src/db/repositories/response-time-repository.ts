import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray, rawRows } from '../raw-sql';

export interface ResponseTimeBucket {
  metric_id: string;
  /** Start of the bucket (ms since the epoch). */
  at: number;
  mean: number;
  max: number;
}

/**
 * The metrics' measured values in [from, to) averaged per bucket of `bucketMs` (aligned to `from`):
 * what the service page charts. Samples without a value (no_data) are left out, so a gap stays a gap.
 */
export async function responseTimeBuckets(
  em: EntityManager,
  metricIds: readonly string[],
  from: Date,
  to: Date,
  bucketMs: number,
): Promise<ResponseTimeBucket[]> {
  if (!metricIds.length) return [];
  const rows = await rawRows<{ metric_id: string; at: string | Date; mean: number | string; max: number | string }>(
    em,
    `select metric_id, date_bin(make_interval(secs => ?), sampled_at, ?::timestamptz) as at, avg(value) as mean, max(value) as max
     from metric_samples where metric_id = any(?::uuid[]) and sampled_at >= ?::timestamptz and sampled_at < ?::timestamptz and value is not null
     group by 1, 2 order by 1, 2`,
    [bucketMs / 1000, from.toISOString(), pgArray([...new Set(metricIds)]), from.toISOString(), to.toISOString()],
  );
  return rows.map((r) => ({
    metric_id: r.metric_id,
    at: new Date(r.at).getTime(),
    mean: Number(r.mean),
    max: Number(r.max),
  }));
}
