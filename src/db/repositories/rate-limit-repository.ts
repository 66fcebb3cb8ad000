import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../raw-sql';

/**
 * Adds `grant` requests to the organization's minute and day windows and returns the new totals
 * (a grant of 0 just reads the total). One statement; the unlogged table keeps it off the WAL.
 */
export async function leaseRateLimitTokens(
  em: EntityManager,
  organizationId: string,
  windows: { minuteStart: Date; dayStart: Date },
  grant: { minute: number; day: number },
): Promise<{ minute: number; day: number }> {
  const rows: { window_kind: string; count: number }[] = await em.getConnection().execute(
    `insert into rate_limit_counters as c (organization_id, window_kind, window_start, count)
     values (?, 'minute', ?::timestamptz, ?), (?, 'day', ?::timestamptz, ?)
     on conflict (organization_id, window_kind, window_start) do update set count = c.count + excluded.count
     returning window_kind, count`,
    [organizationId, windows.minuteStart, grant.minute, organizationId, windows.dayStart, grant.day],
    'all',
  );
  const count = (kind: string) => rows.find((r) => r.window_kind === kind)?.count ?? 0;
  return { minute: count('minute'), day: count('day') };
}

/** Drops counters of windows that ended before `before` (housekeeping). */
export async function pruneRateLimitCounters(em: EntityManager, before: Date): Promise<number> {
  const res = await em
    .getConnection()
    .execute<{ affectedRows: number }>(
      `delete from rate_limit_counters where (window_kind in ('minute', 'ptest_a', 'ptest_c') and window_start < ?::timestamptz - interval '1 minute') or (window_kind in ('sub_ip', 'sub_page', 'si_addr', 'si_ip') and window_start < ?::timestamptz - interval '1 hour') or (window_kind = 'day' and window_start < ?::timestamptz - interval '1 day')`,
      [before, before, before],
      'run',
    );
  return res.affectedRows;
}

/** Adds one to a counter window (keyed by an organization, page or hashed address) and returns the new total. */
async function countOne(em: EntityManager, key: string, kind: string, windowStart: Date): Promise<number> {
  const rows: { count: number }[] = await em.getConnection().execute(
    `insert into rate_limit_counters as c (organization_id, window_kind, window_start, count) values (?, ?, ?::timestamptz, 1)
     on conflict (organization_id, window_kind, window_start) do update set count = c.count + 1
     returning count`,
    [key, kind, windowStart],
    'all',
  );
  return rows[0]?.count ?? 1;
}

/**
 * Counts one probe test in the organization's minute window of its kind (`ptest_a` agent,
 * `ptest_c` cloud) only while the window is under `max`: a refused test is never counted.
 * Parameters: organization, kind, window start, max; returns the new count, or no row when full.
 */
export const COUNT_PROBE_TEST_UNDER_MAX = `insert into rate_limit_counters as c (organization_id, window_kind, window_start, count) values (?, ?, ?::timestamptz, 1)
  on conflict (organization_id, window_kind, window_start) do update set count = c.count + 1 where c.count < ?
  returning count`;

/** COUNT_PROBE_TEST_UNDER_MAX on its own: answers whether the test was counted (false: the minute's limit is used up). */
export async function countProbeTestUnder(
  em: EntityManager,
  organizationId: string,
  kind: 'ptest_a' | 'ptest_c',
  minuteStart: Date,
  max: number,
): Promise<boolean> {
  return (await rawRows(em, COUNT_PROBE_TEST_UNDER_MAX, [organizationId, kind, minuteStart, max])).length === 1;
}

/**
 * Counts one public subscribe request in its hour window, by client address (`sub_ip`, keyed by
 * a UUID-shaped hash of the address) or by page (`sub_page`); returns the new total.
 */
export function countSubscribeRequest(
  em: EntityManager,
  key: string,
  kind: 'sub_ip' | 'sub_page',
  hourStart: Date,
): Promise<number> {
  return countOne(em, key, kind, hourStart);
}

/**
 * Counts one console sign-in request in its window, by address (`si_addr`) or by client
 * (`si_ip`), each keyed by a UUID-shaped hash; returns the new total.
 */
export function countSignInRequest(
  em: EntityManager,
  key: string,
  kind: 'si_addr' | 'si_ip',
  windowStart: Date,
): Promise<number> {
  return countOne(em, key, kind, windowStart);
}
