import type { EntityManager } from '@mikro-orm/postgresql';
import {
  IncidentMessageSchema,
  IncidentSchema,
  MaintenanceMessageSchema,
  MaintenanceSchema,
  ServiceSchema,
  type StatusPage,
  StatusPageSchema,
} from '../../db/entities';
import {
  type PageScope,
  feedRows,
  feedStats,
  pageIncidentIds,
  pageMaintenanceIds,
} from '../../db/repositories/page-timeline-repository';
import {
  incidentMessageEntry,
  maintenanceEntry,
  type FeedEntry,
  type MaintenanceEvent,
} from '../../domain/status-page/feed';
import type {
  HistoryView,
  ImpactedServiceRef,
  ItemView,
  PageHeader,
  PageIncidentView,
  PageMaintenanceView,
  PageView,
  ServiceRef,
} from '../../domain/status-page/model';
import { type ServiceImpact, serviceImpacts } from '../../domain/incident-impact';
import { decodeCursor, encodeCursor } from '../../domain/cursor';
import { SUBDOMAIN_PATTERN } from '../../domain/status-page/subdomain';
import { withPageState } from '../../domain/status-page/page-state';
import { maintenanceState } from '../../domain/maintenance-state';
import { toIso, toIsoOrNull } from '../../domain/time';
import { loadPageComponents } from './page-components';
import { pageServiceIds } from '../shared/page-coverage';
import type { Viewer } from './viewer-tokens';

export const HISTORY_PAGE_SIZE = 20;

export async function findPageBySubdomain(em: EntityManager, subdomain: string): Promise<StatusPage | null> {
  // No page has a subdomain that is not a DNS label (and a NUL would fail the query).
  if (!SUBDOMAIN_PATTERN.test(subdomain)) return null;
  return em.findOne(StatusPageSchema, { subdomain, deletedAt: null });
}

export function pageHeader(page: StatusPage): PageHeader {
  return {
    subdomain: page.subdomain,
    title: page.title,
    description: page.description ?? null,
    time_zone: page.timeZone,
    branding: page.branding,
    links: page.links,
  };
}

const refs = (ids: string[], names: Map<string, string>): ServiceRef[] =>
  ids.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : []));

const withImpacts = (services: ServiceRef[], impacts: ServiceImpact[]): ImpactedServiceRef[] =>
  services.map((s) => ({
    ...s,
    impact: impacts.find((x) => x.service_id.toLowerCase() === s.id.toLowerCase())?.impact ?? 'degraded_performance',
  }));

async function incidentViews(
  em: EntityManager,
  ids: string[],
  names: Map<string, string>,
): Promise<PageIncidentView[]> {
  if (!ids.length) return [];
  const [rows, messages] = await Promise.all([
    em.find(IncidentSchema, { id: { $in: ids } }),
    em.find(IncidentMessageSchema, { incident: { $in: ids } }, { orderBy: { postedAt: 'desc', id: 'desc' } }),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const i = byId.get(id);
    if (!i || !i.publishedAt) return [];
    return [
      {
        id: i.id,
        title: i.title,
        severity: i.severity,
        state: i.resolvedAt ? 'resolved' : 'published',
        published_at: toIso(i.publishedAt),
        resolved_at: toIsoOrNull(i.resolvedAt),
        affected_services: withImpacts(
          refs(i.affectedServices, names),
          serviceImpacts(i.affectedServices, i.serviceImpacts, i.severity),
        ),
        customer_scoped: i.visibleToCustomerIds.length > 0,
        messages: messages
          .filter((m) => m.incident === i.id)
          .map((m) => ({
            type: m.type,
            body: m.body,
            posted_at: toIso(m.postedAt),
            edited_at: toIsoOrNull(m.editedAt ?? null),
          })),
      },
    ];
  });
}

async function maintenanceViews(
  em: EntityManager,
  ids: string[],
  names: Map<string, string>,
): Promise<PageMaintenanceView[]> {
  if (!ids.length) return [];
  const [rows, messages] = await Promise.all([
    em.find(MaintenanceSchema, { id: { $in: ids } }),
    em.find(MaintenanceMessageSchema, { maintenance: { $in: ids } }, { orderBy: { postedAt: 'desc', id: 'desc' } }),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const m = byId.get(id);
    if (!m) return [];
    const state = maintenanceState(m);
    if (state === 'deleted') return [];
    return [
      {
        id: m.id,
        title: m.title,
        description: m.description ?? null,
        state,
        scheduled_start_at: toIso(m.scheduledStartAt),
        scheduled_end_at: toIso(m.scheduledEndAt),
        actual_start_at: toIsoOrNull(m.actualStartAt),
        actual_end_at: toIsoOrNull(m.actualEndAt),
        affected_services: refs(m.affectedServices, names),
        messages: messages
          .filter((x) => x.maintenance === m.id)
          .map((x) => ({ type: x.type, body: x.body, posted_at: toIso(x.postedAt), edited_at: null })),
      },
    ];
  });
}

/** Everything the page shows its viewer right now. */
export async function loadPageView(
  em: EntityManager,
  page: StatusPage,
  viewer: Viewer | null,
  now: Date,
): Promise<PageView> {
  const components = await loadPageComponents(em, page, now);
  const scope: PageScope = {
    organizationId: page.organization,
    serviceIds: components.serviceIds,
    customerId: viewer?.customer_id ?? null,
  };
  const names = components.serviceNames;
  const [active, recent, inProgress, upcoming] = await Promise.all([
    pageIncidentIds(em, scope, 'active', { now, limit: 50 }).then((ids) => incidentViews(em, ids, names)),
    pageIncidentIds(em, scope, 'recent', { now, limit: 20 }).then((ids) => incidentViews(em, ids, names)),
    pageMaintenanceIds(em, scope, 'in_progress').then((ids) => maintenanceViews(em, ids, names)),
    pageMaintenanceIds(em, scope, 'upcoming').then((ids) => maintenanceViews(em, ids, names)),
  ]);
  // One derivation of what the page says, for the HTML page and summary.json alike.
  return withPageState({
    page: pageHeader(page),
    status: components.status,
    groups: components.groups,
    active_incidents: active,
    maintenance_in_progress: inProgress,
    maintenance_upcoming: upcoming,
    recent_incidents: recent,
    viewer,
    generated_at: toIso(now),
  });
}

/** The page's service ids and their names: only which services it shows, not their statuses and uptime. */
async function pageServices(
  em: EntityManager,
  page: StatusPage,
): Promise<{ serviceIds: string[]; names: Map<string, string> }> {
  const serviceIds = await pageServiceIds(em, page);
  const services = serviceIds.length
    ? await em.find(
        ServiceSchema,
        { id: { $in: serviceIds }, organization: page.organization, deletedAt: null },
        { fields: ['name'] },
      )
    : [];
  return { serviceIds, names: new Map(services.map((s) => [s.id, s.name])) };
}

/** Past incidents, newest first, 20 at a time, with the maintenances that ended in the same span. */
export async function loadHistoryView(
  em: EntityManager,
  page: StatusPage,
  viewer: Viewer | null,
  now: Date,
  cursor?: string,
): Promise<HistoryView> {
  const { serviceIds, names } = await pageServices(em, page);
  const scope: PageScope = { organizationId: page.organization, serviceIds, customerId: viewer?.customer_id ?? null };
  const base = { page: pageHeader(page), viewer, generated_at: toIso(now) };
  const pos = cursor ? decodeCursor(cursor) : null;
  const ids = await pageIncidentIds(em, scope, 'history', {
    now,
    limit: HISTORY_PAGE_SIZE + 1,
    ...(pos ? { before: { at: pos.createdAt, id: pos.id } } : {}),
  });
  const incidents = await incidentViews(em, ids.slice(0, HISTORY_PAGE_SIZE), names);
  const last = incidents.at(-1);
  const more = ids.length > HISTORY_PAGE_SIZE && last;
  const spanEnd = pos ? pos.createdAt : new Date(now.getTime() + 1);
  const spanStart = more ? new Date(last.published_at) : new Date(0);
  const maintenances = await maintenanceViews(
    em,
    await pageMaintenanceIds(em, scope, { between: [spanStart, spanEnd] }, 100),
    names,
  );
  return {
    ...base,
    incidents,
    maintenances,
    next_cursor: more ? encodeCursor({ createdAt: new Date(last.published_at), id: last.id }) : null,
  };
}

/**
 * One incident or maintenance for its own page, under the same rules as the page and the
 * history (drafts, deleted rows, other customers' incidents and other services' items are not
 * found); null when this viewer may not see it.
 */
export async function loadItemView(
  em: EntityManager,
  page: StatusPage,
  viewer: Viewer | null,
  now: Date,
  item: { kind: 'incident' | 'maintenance'; id: string },
): Promise<ItemView | null> {
  const { serviceIds, names } = await pageServices(em, page);
  const scope: PageScope = { organizationId: page.organization, serviceIds, customerId: viewer?.customer_id ?? null };
  const base = { page: pageHeader(page), viewer, generated_at: toIso(now) };
  if (item.kind === 'incident') {
    const [incident] = await incidentViews(
      em,
      await pageIncidentIds(em, scope, { id: item.id }, { now, limit: 1 }),
      names,
    );
    return incident ? { kind: 'incident', ...base, incident } : null;
  }
  const [maintenance] = await maintenanceViews(em, await pageMaintenanceIds(em, scope, { id: item.id }, 1), names);
  return maintenance ? { kind: 'maintenance', ...base, maintenance } : null;
}

/** The feed's ETag inputs and its newest `limit` entries; feeds are public, so customer-scoped incidents never appear. */
export async function loadFeed(
  em: EntityManager,
  page: StatusPage,
  limit: number,
): Promise<{ count: number; latestMs: number; entries: FeedEntry[] }> {
  const scope: PageScope = {
    organizationId: page.organization,
    serviceIds: await pageServiceIds(em, page),
    customerId: null,
  };
  return loadFeedIn(em, scope, limit);
}

export async function loadFeedIn(
  em: EntityManager,
  scope: PageScope,
  limit: number,
): Promise<{ count: number; latestMs: number; entries: FeedEntry[] }> {
  const [stats, rows] = await Promise.all([feedStats(em, scope), feedRows(em, scope, limit)]);
  const entries = rows.map((r) =>
    r.kind === 'incident'
      ? incidentMessageEntry(
          { id: r.parent_id, title: r.title, severity: r.severity ?? '' },
          { id: r.entry_id, type: r.event, body: r.body ?? '', posted_at: new Date(r.at) },
        )
      : maintenanceEntry(
          {
            id: r.parent_id,
            title: r.title,
            description: r.description,
            scheduled_start_at: new Date(r.scheduled_start_at!),
            scheduled_end_at: new Date(r.scheduled_end_at!),
          },
          r.event as MaintenanceEvent,
          new Date(r.at),
        ),
  );
  return { ...stats, entries };
}
