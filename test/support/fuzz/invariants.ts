/**
 * What every answer must be: below 500; a 4xx a problem+json whose `title` is a token of
 * ERROR_CATALOG, whose `status` is the HTTP status and whose `type` names the title (pages for
 * people may answer HTML instead); and a refusal must write nothing. A broken rule is recorded in
 * the run's stats, not thrown, so that one run lists every failure at once.
 */
import { appendFileSync } from 'node:fs';
import { ERROR_CATALOG } from '../../../src/domain/error-catalog';
import { rawRows } from '../../../src/db/raw-sql';
import type { ApiHarness } from '../api-harness';
import { type Answer, type Shot, send, sendRaw } from './wire';

/** VIGIL_FUZZ_LOG=<file>: one line per request (where, status), to see what the cases reach. */
const LOG = process.env.VIGIL_FUZZ_LOG;

/** What a run sent and found, over all its tests. */
export interface FuzzStats {
  requests: number;
  fiveXX: number;
  byStatus: Map<number, number>;
  failures: string[];
  operations: Set<string>;
  statusHostRoutes: Set<string>;
}

export function newStats(): FuzzStats {
  return {
    requests: 0,
    fiveXX: 0,
    byStatus: new Map<number, number>(),
    failures: [] as string[],
    operations: new Set<string>(),
    statusHostRoutes: new Set<string>(),
  };
}

const catalogued = (title: unknown): boolean =>
  typeof title === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOG, title);

/** Checks one answer; `html` allows an HTML error page (the status host's pages for people). */
function judge(
  stats: FuzzStats,
  where: string,
  ans: Answer | { error: string },
  opts: { html?: boolean } = {},
): Answer | null {
  stats.requests++;
  if ('error' in ans) {
    stats.failures.push(`${where}: no answer (${ans.error})`);
    return null;
  }
  stats.byStatus.set(ans.status, (stats.byStatus.get(ans.status) ?? 0) + 1);
  if (LOG)
    appendFileSync(
      LOG,
      `${ans.status} ${where} ${ans.status >= 400 ? ans.text.slice(0, 160).replace(/\s+/g, ' ') : ''}\n`,
    );
  if (ans.status >= 500) {
    stats.fiveXX++;
    stats.failures.push(`${where}: ${ans.status} ${ans.text.slice(0, 200)}`);
    return ans;
  }
  if (ans.status < 400) return ans;
  if (opts.html && ans.type.startsWith('text/html')) return ans;
  if (!ans.type.startsWith('application/problem+json')) {
    stats.failures.push(
      `${where}: ${ans.status} answered ${ans.type || '(no content type)'}, not problem+json: ${ans.text.slice(0, 160)}`,
    );
    return ans;
  }
  let body: { title?: unknown; status?: unknown; type?: unknown };
  try {
    body = JSON.parse(ans.text);
  } catch {
    stats.failures.push(`${where}: ${ans.status} problem+json that does not parse: ${ans.text.slice(0, 160)}`);
    return ans;
  }
  if (!catalogued(body.title))
    stats.failures.push(`${where}: ${ans.status} with uncatalogued title ${JSON.stringify(body.title)}`);
  else if (body.status !== ans.status)
    stats.failures.push(
      `${where}: HTTP ${ans.status} but problem status ${JSON.stringify(body.status)} (${String(body.title)})`,
    );
  else if (typeof body.type !== 'string' || !body.type.endsWith(`#${body.title}`))
    stats.failures.push(`${where}: problem type ${JSON.stringify(body.type)} does not name ${String(body.title)}`);
  return ans;
}

/**
 * "Nothing written": per table, how many rows the two organizations have and their latest change.
 * Left out, because other suites' workers change them for every organization: webhook_deliveries
 * (the outbox relay) and the status of metrics fed by sweeps (heartbeat ages, silent agents, alert
 * heartbeats), whose definitions are compared instead.
 */
const WATCHED: [table: string, changed: string][] = [
  ['services', 'max(updated_at)::text'],
  [
    'metrics',
    "concat(max(updated_at) filter (where source_type = 'manual'), ' ', md5(string_agg(concat_ws('|', id, service_id, name, source_config::text, thresholds::text, interval_seconds, agent_id, unit, deleted_at), ',' order by id)))",
  ],
  ['incidents', 'max(updated_at)::text'],
  ['incident_messages', 'max(posted_at)::text'],
  ['incident_templates', 'max(updated_at)::text'],
  ['maintenances', 'max(updated_at)::text'],
  ['maintenance_messages', 'max(posted_at)::text'],
  ['webhook_subscriptions', 'max(updated_at)::text'],
  ['customers', 'max(updated_at)::text'],
  ['contracts', 'max(updated_at)::text'],
  ['status_pages', 'max(updated_at)::text'],
  ['status_page_subscribers', 'max(updated_at)::text'],
  ['slos', 'max(updated_at)::text'],
  ['change_events', 'max(created_at)::text'],
  ['outbox_events', 'max(created_at)::text'],
  ['agents', 'max(updated_at)::text'],
  ['sla_statements', 'max(updated_at)::text'],
  ['notification_channels', 'max(updated_at)::text'],
  ['escalation_policies', 'max(updated_at)::text'],
  ['on_call_schedules', 'max(updated_at)::text'],
  ['alert_rules', 'max(updated_at)::text'],
  ['silences', 'max(updated_at)::text'],
];

/** Sends one request, judges its answer, and for a refused one checks that nothing was written. */
export type Fire = (
  where: string,
  shot: Shot,
  opts?: { html?: boolean; raw?: string | Buffer },
) => Promise<Answer | null>;

function diff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  return b.filter((x, i) => x !== a[i]).join('; ');
}

/** fire() against `api`, recording in `stats`, watching the tables of the organizations `orgIds`. */
export function firing(api: ApiHarness, orgIds: string[], stats: FuzzStats): Fire {
  const port = Number(new URL(api.baseUrl).port);
  const orgs = `(${orgIds.map((id) => `'${id}'`).join(', ')})`;
  const snapshotSql = WATCHED.map(
    ([t, changed]) =>
      `select '${t}' as t, count(*)::int as n, ${changed} as u from ${t} where organization_id in ${orgs}`,
  ).join(' union all ');
  const snapshot = async (): Promise<string> => {
    const rows = await rawRows<{ t: string; n: number; u: string | null }>(api.orm.em.fork(), snapshotSql, []);
    return rows.map((r) => `${r.t}: ${r.n} rows, ${r.u ?? '-'}`).join('\n');
  };
  return async (where, shot, opts = {}) => {
    const before = await snapshot();
    const ans = judge(
      stats,
      where,
      opts.raw !== undefined ? await sendRaw(port, opts.raw) : await send(api.baseUrl, shot),
      opts,
    );
    if (ans && ans.status >= 400) {
      const after = await snapshot();
      if (after !== before)
        stats.failures.push(`${where}: refused with ${ans.status} but wrote: ${diff(before, after)}`);
    }
    return ans;
  };
}
