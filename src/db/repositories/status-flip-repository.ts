import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray, rawRows } from '../raw-sql';

export interface WindowFlip {
  metricId: string;
  toStatus: string;
  at: Date;
}

/**
 * The status flips a window needs, oldest first: each metric's last flip before `start` (the
 * status in force when the window opens, one index probe per metric) and every flip in
 * [start, end), both on the (metric_id, at) index: a statement never reads a metric's whole history.
 */
export async function flipsForWindow(
  em: EntityManager,
  metricIds: readonly string[],
  start: Date,
  end: Date,
): Promise<WindowFlip[]> {
  if (!metricIds.length) return [];
  const ids = pgArray([...metricIds]);
  const rows = await rawRows<{ metric_id: string; to_status: string; at: string | Date }>(
    em,
    `select metric.id as metric_id, last_flip.to_status, last_flip.at from unnest(?::uuid[]) as metric(id)
     cross join lateral (
       select to_status, at from metric_status_flips where metric_id = metric.id and at < ?::timestamptz order by at desc, id desc limit 1
     ) last_flip
     union all
     select metric_id, to_status, at from metric_status_flips where metric_id = any(?::uuid[]) and at >= ?::timestamptz and at < ?::timestamptz
     order by at, metric_id`,
    [ids, start.toISOString(), ids, start.toISOString(), end.toISOString()],
  );
  return rows.map((r) => ({ metricId: r.metric_id, toStatus: r.to_status, at: new Date(r.at) }));
}
