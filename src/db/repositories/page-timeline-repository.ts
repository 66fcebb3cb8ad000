import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray, rawRows as rows } from '../raw-sql';

/** Which incidents and maintenances a page shows: its organization's, on the services it shows (or on none in particular). */
export interface PageScope {
  organizationId: string;
  serviceIds: readonly string[];
  /** The signed-in customer: their restricted incidents join the public ones. Null: public only (always for feeds). */
  customerId: string | null;
}

/** Published, not deleted, public or the viewer's, on the page's services: the incidents (alias i) a page or feed may show. */
function visibleIncidents(scope: PageScope): { sql: string; params: unknown[] } {
  return {
    sql: `i.organization_id = ? and i.deleted_at is null and i.published_at is not null
      and (cardinality(i.visible_to_customer_ids) = 0 or ?::uuid = any(i.visible_to_customer_ids))
      and (cardinality(i.affected_services) = 0 or i.affected_services && ?::uuid[])`,
    params: [scope.organizationId, scope.customerId, pgArray(scope.serviceIds)],
  };
}

function visibleMaintenances(scope: PageScope): { sql: string; params: unknown[] } {
  return {
    sql: `m.organization_id = ? and m.deleted_at is null and (cardinality(m.affected_services) = 0 or m.affected_services && ?::uuid[])`,
    params: [scope.organizationId, pgArray(scope.serviceIds)],
  };
}

const publicOnly = (scope: PageScope): PageScope => ({ ...scope, customerId: null });

/**
 * Spec §4.9 rule 3: the count of feed-eligible entries (incident messages plus maintenance
 * lifecycle events) and the latest event time: the maximum of published_at, resolved_at,
 * actual_start_at, actual_end_at, canceled_at and message dates, in ms (0 when there is none).
 */
export async function feedStats(em: EntityManager, scope: PageScope): Promise<{ count: number; latestMs: number }> {
  const inc = visibleIncidents(publicOnly(scope));
  const mnt = visibleMaintenances(scope);
  const [r] = await rows<{ count: string; latest_ms: string | null }>(
    em,
    `with inc as (select i.id, i.published_at, i.resolved_at from incidents i where ${inc.sql}),
          msg as (select im.posted_at from incident_messages im join inc on inc.id = im.incident_id),
          mnt as (select m.actual_start_at, m.actual_end_at, m.canceled_at from maintenances m where ${mnt.sql})
     select (select count(*) from msg) + (select count(*) + count(actual_start_at) + count(actual_end_at) + count(canceled_at) from mnt) as count,
            (extract(epoch from greatest(
              (select max(greatest(published_at, resolved_at)) from inc),
              (select max(posted_at) from msg),
              (select max(greatest(actual_start_at, actual_end_at, canceled_at)) from mnt))) * 1000)::bigint as latest_ms`,
    [...inc.params, ...mnt.params],
  );
  return { count: Number(r?.count ?? 0), latestMs: Number(r?.latest_ms ?? 0) };
}

export interface FeedRow {
  kind: 'incident' | 'maintenance';
  entry_id: string;
  parent_id: string;
  title: string;
  severity: string | null;
  /** Message type, or the maintenance event (scheduled, started, completed, canceled). */
  event: string;
  body: string | null;
  at: Date;
  description: string | null;
  scheduled_start_at: Date | null;
  scheduled_end_at: Date | null;
}

/** The newest `limit` feed entries, newest first (public incidents only: feeds carry no credentials). */
export async function feedRows(em: EntityManager, scope: PageScope, limit: number): Promise<FeedRow[]> {
  const inc = visibleIncidents(publicOnly(scope));
  const mnt = visibleMaintenances(scope);
  const lifecycle = (event: string, column: string) =>
    `select 'maintenance', mnt.id, mnt.id, mnt.title, null, '${event}', null, mnt.${column}, mnt.description, mnt.scheduled_start_at, mnt.scheduled_end_at from mnt where mnt.${column} is not null`;
  return rows<FeedRow>(
    em,
    `with inc as (select i.id, i.title, i.severity from incidents i where ${inc.sql}),
          mnt as (select m.* from maintenances m where ${mnt.sql})
     select * from (
       select 'incident' as kind, im.id as entry_id, inc.id as parent_id, inc.title, inc.severity, im.type as event, im.body, im.posted_at as at,
              null::text as description, null::timestamptz as scheduled_start_at, null::timestamptz as scheduled_end_at
         from incident_messages im join inc on inc.id = im.incident_id
       union all ${lifecycle('scheduled', 'created_at')}
       union all ${lifecycle('started', 'actual_start_at')}
       union all ${lifecycle('completed', 'actual_end_at')}
       union all ${lifecycle('canceled', 'canceled_at')}
     ) e order by at desc, entry_id desc, event desc limit ?`,
    [...inc.params, ...mnt.params, limit],
  );
}

export type IncidentSelection = 'active' | 'recent' | 'history' | { id: string };

/**
 * Ids of the incidents a page shows, newest first: `active` (published, unresolved, not
 * canceled), `recent` (resolved in the 7 days before `now`), `history` (all, paged by
 * published_at then id, strictly before `before`), or one by id.
 */
export async function pageIncidentIds(
  em: EntityManager,
  scope: PageScope,
  pick: IncidentSelection,
  opts: { now: Date; limit: number; before?: { at: Date; id: string } },
): Promise<string[]> {
  const v = visibleIncidents(scope);
  let extra = '';
  const params: unknown[] = [...v.params];
  if (pick === 'active') extra = 'and i.resolved_at is null and i.canceled_at is null';
  else if (pick === 'recent') {
    extra = 'and i.resolved_at >= ?';
    params.push(new Date(opts.now.getTime() - 7 * 86_400_000));
  } else if (pick === 'history') {
    if (opts.before) {
      extra = 'and (i.published_at, i.id) < (?, ?::uuid)';
      params.push(opts.before.at, opts.before.id);
    }
  } else {
    extra = 'and i.id = ?::uuid';
    params.push(pick.id);
  }
  const out = await rows<{ id: string }>(
    em,
    `select i.id from incidents i where ${v.sql} ${extra} order by i.published_at desc, i.id desc limit ?`,
    [...params, opts.limit],
  );
  return out.map((r) => r.id);
}

export type MaintenanceSelection = 'in_progress' | 'upcoming' | { between: [Date, Date] } | { id: string };

/** Ids of the maintenances a page shows: in progress, upcoming (soonest first), ended within a span (newest first), or one by id. */
export async function pageMaintenanceIds(
  em: EntityManager,
  scope: PageScope,
  pick: MaintenanceSelection,
  limit = 50,
): Promise<string[]> {
  const v = visibleMaintenances(scope);
  const params: unknown[] = [...v.params];
  let sql: string;
  if (pick === 'in_progress')
    sql = `${v.sql} and m.actual_start_at is not null and m.actual_end_at is null and m.canceled_at is null order by m.actual_start_at desc`;
  else if (pick === 'upcoming')
    sql = `${v.sql} and m.actual_start_at is null and m.canceled_at is null order by m.scheduled_start_at asc`;
  else if ('between' in pick) {
    sql = `${v.sql} and coalesce(m.actual_end_at, m.canceled_at) >= ? and coalesce(m.actual_end_at, m.canceled_at) < ? order by coalesce(m.actual_end_at, m.canceled_at) desc`;
    params.push(pick.between[0], pick.between[1]);
  } else {
    sql = `${v.sql} and m.id = ?::uuid`;
    params.push(pick.id);
  }
  const out = await rows<{ id: string }>(em, `select m.id from maintenances m where ${sql} limit ?`, [
    ...params,
    limit,
  ]);
  return out.map((r) => r.id);
}
