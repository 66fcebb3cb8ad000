import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlipReading } from '../../domain/status-timeline';
import { pgArray, rawRows } from '../raw-sql';

/**
 * What availability timelines read (uptime, status pages, SLOs), per metric and oldest first:
 * its last flip before `from` (the status in force then) and every flip since, with the reason
 * (domain/reason-class.ts turns no_data with a target reason into down). Both parts are probes
 * of the (metric_id, at) index: a page view never reads samples or a metric's older history.
 */
export async function availabilityFlips(
  em: EntityManager,
  metricIds: readonly string[],
  from: Date,
): Promise<Map<string, FlipReading[]>> {
  const out = new Map<string, FlipReading[]>(metricIds.map((id) => [id, []]));
  if (!metricIds.length) return out;
  const ids = pgArray([...new Set(metricIds)]);
  const rows = await rawRows<{ metric_id: string; to_status: string; reason: string | null; at: string | Date }>(
    em,
    `select metric.id as metric_id, last_flip.to_status, last_flip.reason, last_flip.at from unnest(?::uuid[]) as metric(id)
     cross join lateral (
       select to_status, reason, at from metric_status_flips where metric_id = metric.id and at < ?::timestamptz order by at desc, id desc limit 1
     ) last_flip
     union all
     select metric_id, to_status, reason, at from metric_status_flips where metric_id = any(?::uuid[]) and at >= ?::timestamptz
     order by at, metric_id`,
    [ids, from.toISOString(), ids, from.toISOString()],
  );
  for (const r of rows)
    out.get(r.metric_id)?.push({ at: new Date(r.at).getTime(), toStatus: r.to_status, reason: r.reason });
  return out;
}
