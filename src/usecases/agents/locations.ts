import { locationMetricCounts, locationPage } from '../../db/repositories/location-repository';
import { agentStatus } from '../../domain/agent-status';
import { ProblemError } from '../../domain/error-catalog';
import { type LocationStatus, locationStatus } from '../../domain/locations';
import { toIsoOrNull } from '../../domain/time';
import type { OrgContext } from '../shared/context';

export interface LocationView {
  /** A cloud location's id (`eu-central`), or `agent:<agent id>`. */
  id: string;
  label: string;
  kind: 'cloud' | 'agent';
  status: LocationStatus;
  last_seen_at: string | null;
  version: string | null;
  /** Live metrics this location measures: those naming it, plus (online cloud locations) the cloud metrics left to the default, or (agents) the agent's own. */
  metrics: number;
}

/** Cursors of this list: the last id of a page (locations are ordered by id, not by time). */
const encodeCursor = (id: string) => Buffer.from(JSON.stringify({ l: id })).toString('base64url');

function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  try {
    const raw: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const id = (raw as { l?: unknown } | null)?.l;
    if (typeof id === 'string' && id.length > 0 && id.length <= 100) return id;
  } catch {
    // not ours
  }
  throw new ProblemError('validation_failed', 'The cursor is not one this API issued.', {
    errors: [{ path: 'query.cursor', message: 'Invalid cursor' }],
  });
}

/**
 * GET /v1/locations: the installation's cloud locations (`taskQueue`, the main task queue they
 * heartbeat to) and the organization's agents that are not revoked, by id. Another
 * organization's agents never appear; cloud locations are shared by every organization.
 */
export async function listLocations(
  ctx: OrgContext,
  taskQueue: string,
  query: { limit: number; cursor?: string },
): Promise<{ items: LocationView[]; nextCursor: string | null }> {
  const afterId = decodeCursor(query.cursor);
  const rows = await locationPage(ctx.em, { taskQueue, organizationId: ctx.org.id, afterId, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const counts = await locationMetricCounts(ctx.em, ctx.org.id);
  const items = page.map((r): LocationView => {
    const status: LocationStatus =
      r.kind === 'cloud'
        ? locationStatus(
            { lastSeenAt: r.lastSeenAt, heartbeatSeconds: r.heartbeatSeconds ?? 0, stoppedAt: r.stoppedAt },
            ctx.now,
          )
        : agentStatus({ lastSeenAt: r.lastSeenAt }, ctx.now) === 'online'
          ? 'online'
          : 'offline';
    const named = counts.named.get(r.id) ?? 0;
    return {
      id: r.id,
      label: r.label,
      kind: r.kind,
      status,
      last_seen_at: toIsoOrNull(r.lastSeenAt),
      version: r.version,
      metrics: named + (r.kind === 'cloud' && status === 'online' ? counts.cloudDefault : 0),
    };
  });
  const last = page[page.length - 1];
  return { items, nextCursor: rows.length > query.limit && last ? encodeCursor(last.id) : null };
}
