import { randomUUID } from 'node:crypto';
import { type CreateWarning, audienceWarnings } from '../../domain/status-page/audience-warnings';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Incident, type IncidentMessage, IncidentMessageSchema, IncidentSchema } from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import { type ServiceImpact, impactMap, sameImpactMaps, unionServices } from '../../domain/incident-impact';
import { ProblemError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { IncidentState, MessageType, Severity } from '../../domain/incident-state';
import { type OrgContext, type UnitOfWork, oneStatement } from '../shared/context';
import { syncManualMetrics } from '../metrics/manual';
import { assertCustomersExist, assertServicesExist } from '../shared/org-refs';
import { NEWEST_FIRST, afterCursor } from '../shared/keyset';
import { recordEvent } from '../events/outbox';
import { insertIncident } from '../../db/repositories/incident-repository';
import { type IncidentView, incidentView } from './view';

export interface IncidentInput {
  title: string;
  severity?: Severity;
  affected_services?: string[];
  visible_to_customer_ids?: string[];
  publish?: boolean;
  initial_message?: { type?: MessageType; body: string; notify_subscribers?: boolean };
  /** Impact per service; the services named are affected too. */
  service_impacts?: ServiceImpact[];
  /** For the organization only: never on a status page, feed or subscriber email. */
  internal_note?: string | null;
}

export interface IncidentPatch {
  title?: string;
  severity?: Severity;
  affected_services?: string[];
  /** Replaces the chosen impacts (services left out follow the severity); the services named are affected too. */
  service_impacts?: ServiceImpact[];
  /** Null clears it. */
  internal_note?: string | null;
}

export interface IncidentMessageInput {
  type: MessageType;
  body: string;
  /** Default true (every update is emailed unless the operator says otherwise). */
  notify_subscribers?: boolean;
}

export type Tx = OrgContext & { em: EntityManager };

export async function view(ctx: Tx, incident: Incident): Promise<IncidentView> {
  const messages = await ctx.em.find(IncidentMessageSchema, { incident: incident.id });
  return incidentView(incident, messages);
}

/** Flushes the change and the events it causes in one transaction, and answers the new view. */
export async function commit(ctx: Tx, incident: Incident, events: string[]): Promise<IncidentView> {
  incident.updatedAt = ctx.now;
  await ctx.em.flush();
  const v = await view(ctx, incident);
  for (const type of events) {
    recordEvent(ctx.em, {
      organizationId: ctx.org.id,
      type,
      resourceKind: 'incident',
      resourceId: incident.id,
      payload: v,
      now: ctx.now,
    });
  }
  await ctx.em.flush();
  return v;
}

function addMessage(ctx: Tx, incident: Incident, type: MessageType, body: string, notifySubscribers = true): void {
  ctx.em.create(IncidentMessageSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    incident: incident.id,
    type,
    body,
    notifySubscribers,
    postedAt: ctx.now,
  });
}

/**
 * The affected services once `impacts` are counted in (a service given an impact is affected),
 * checked to be live services of the organization: the sent list under `affected_services`, the
 * services only the impacts name under `service_impacts.N.service_id`.
 */
export async function affectedWithImpacts(
  ctx: OrgContext,
  affected: string[],
  impacts: readonly ServiceImpact[] | undefined,
  checkAffected = true,
): Promise<string[]> {
  if (checkAffected) await assertServicesExist(ctx, affected, 'affected_services');
  const all = unionServices(
    affected,
    (impacts ?? []).map((x) => x.service_id),
  );
  const extra = all.slice(affected.length);
  try {
    await assertServicesExist(ctx, extra, 'service_impacts');
  } catch (err) {
    if (!(err instanceof ProblemError) || !impacts) throw err;
    const unknown = (err.extras.unknown_services as string[] | undefined) ?? [];
    const errors = unknown.map((id) => ({
      path: `service_impacts.${impacts.findIndex((x) => x.service_id === id)}.service_id`,
      message: 'No such service',
    }));
    throw new ProblemError('unknown_services', err.message, { unknown_services: unknown, errors });
  }
  return all;
}

export async function load(
  ctx: Tx,
  id: string,
  opts: { lock?: boolean; withDeleted?: boolean } = {},
): Promise<Incident> {
  const where = { id, organization: ctx.org.id, ...(opts.withDeleted ? {} : { deletedAt: null }) };
  const incident = isUuid(id)
    ? await ctx.em.findOne(IncidentSchema, where, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
    : null;
  if (!incident) throw notFound('Incident');
  return incident;
}

function tx<T>(ctx: OrgContext, fn: (t: Tx) => Promise<T>): Promise<T> {
  return ctx.em.transactional((em) => fn({ ...ctx, em: em }));
}

/**
 * Manual metrics follow the open incidents of their service (decisions.md), so every incident
 * change re-derives them once committed, before the answer leaves (a client that reads next sees
 * them). `services`: the only services the change can have touched; absent, a change may have
 * dropped a service, so all of the organization's manual metrics are re-derived.
 */
async function followedByManualMetrics(
  ctx: OrgContext,
  view: IncidentView,
  services?: readonly string[],
): Promise<IncidentView> {
  await syncManualMetrics(ctx.em.fork(), ctx.org.id, new Date(), { services }).catch((err: unknown) =>
    ctx.log?.error({ err }, 'could not update manual metrics'),
  );
  return view;
}

/** A change in a transaction of its own, then its consequence for manual metrics. */
export async function change(ctx: OrgContext, fn: (t: Tx) => Promise<IncidentView>): Promise<IncidentView> {
  return followedByManualMetrics(ctx, await tx(ctx, fn));
}

/**
 * A new incident (a draft unless `publish`), its first message and its events, written by one
 * statement: everything the answer and the events show is known before it is written. It can
 * move only the manual metrics of the services it names. `unit`: the API's idempotent create.
 */
/** Creates an incident; the answer carries `warnings` (audience-warnings.ts), recorded with it for idempotent replays. */
export async function createIncident(
  ctx: OrgContext,
  input: IncidentInput,
  unit: UnitOfWork = oneStatement(ctx),
): Promise<IncidentView & { warnings: CreateWarning[] }> {
  const made = await unit(async (em) => {
    const view = await insertNewIncident({ ...ctx, em }, input);
    return { ...view, warnings: audienceWarnings('incident', view.affected_services) };
  });
  await followedByManualMetrics(ctx, made, made.affected_services);
  return made;
}

async function insertNewIncident(ctx: OrgContext, input: IncidentInput): Promise<IncidentView> {
  const services = await affectedWithImpacts(ctx, [...new Set(input.affected_services ?? [])], input.service_impacts);
  const customers = [...new Set(input.visible_to_customer_ids ?? [])];
  await assertCustomersExist(ctx, customers, 'visible_to_customer_ids');
  const incident: Incident = {
    id: randomUUID(),
    organization: ctx.org.id,
    title: input.title,
    severity: input.severity ?? 'minor',
    affectedServices: services,
    visibleToCustomerIds: customers,
    serviceImpacts: input.service_impacts?.length ? impactMap(input.service_impacts, services) : null,
    internalNote: input.internal_note ?? null,
    publishedAt: input.publish ? ctx.now : null,
    resolvedAt: null,
    canceledAt: null,
    deletedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const messages: IncidentMessage[] = input.initial_message
    ? [
        {
          id: randomUUID(),
          organization: ctx.org.id,
          incident: incident.id,
          type: input.initial_message.type ?? 'Investigating',
          body: input.initial_message.body,
          notifySubscribers: input.initial_message.notify_subscribers ?? true,
          postedAt: ctx.now,
          editedAt: null,
          previousBodies: null,
        },
      ]
    : [];
  const events = ['incident.created', ...(input.publish ? ['incident.published'] : [])];
  if (input.initial_message) events.push('incident.message_added');
  if (input.initial_message?.type === 'Resolved' && input.publish) {
    incident.resolvedAt = ctx.now;
    events.push('incident.resolved');
  }
  const v = incidentView(incident, messages);
  await insertIncident(ctx.em, incident, messages, events, v);
  return v;
}

export async function getIncident(ctx: OrgContext, id: string): Promise<IncidentView> {
  return tx(ctx, async (t) => view(t, await load(t, id)));
}

const STATE_FILTERS: Record<Exclude<IncidentState, 'deleted'>, object> = {
  draft: { publishedAt: null, canceledAt: null },
  published: { publishedAt: { $ne: null }, resolvedAt: null, canceledAt: null },
  resolved: { resolvedAt: { $ne: null }, canceledAt: null },
  canceled: { canceledAt: { $ne: null } },
};

export async function listIncidents(
  ctx: OrgContext,
  q: { limit: number; cursor?: string; state?: Exclude<IncidentState, 'deleted'>; since?: Date },
) {
  const rows = await ctx.em.find(
    IncidentSchema,
    {
      organization: ctx.org.id,
      deletedAt: null,
      ...(q.state ? STATE_FILTERS[q.state] : {}),
      ...(q.since ? { createdAt: { $gte: q.since } } : {}),
      ...afterCursor(q.cursor),
    },
    { orderBy: NEWEST_FIRST, limit: q.limit + 1 },
  );
  const page = pageOf(rows, q.limit);
  const messages = page.items.length
    ? await ctx.em.find(IncidentMessageSchema, { incident: { $in: page.items.map((i) => i.id) } })
    : [];
  return {
    items: page.items.map((i) =>
      incidentView(
        i,
        messages.filter((m) => m.incident === i.id),
      ),
    ),
    nextCursor: page.nextCursor,
  };
}

export async function updateIncident(ctx: OrgContext, id: string, patch: IncidentPatch): Promise<IncidentView> {
  return change(ctx, async (t) => {
    const incident = await load(t, id, { lock: true });
    // Spec §6: incident.updated fires when a field is patched to a new value. A PATCH that changes
    // nothing (empty, or the current values) answers the incident as it is: no event, same updated_at.
    let changed = false;
    if (patch.affected_services !== undefined || patch.service_impacts !== undefined) {
      const sent = patch.affected_services !== undefined ? [...new Set(patch.affected_services)] : null;
      const next = await affectedWithImpacts(
        t,
        sent ?? incident.affectedServices,
        patch.service_impacts,
        sent !== null,
      );
      if (!sameMembers(incident.affectedServices, next)) {
        incident.affectedServices = next;
        changed = true;
      }
      // Chosen impacts: replaced when sent, otherwise kept for the services still affected.
      const kept = Object.entries(incident.serviceImpacts ?? {}).map(([service_id, impact]) => ({
        service_id,
        impact,
      }));
      const chosen = impactMap(patch.service_impacts ?? kept, next);
      if (!sameImpactMaps(incident.serviceImpacts, chosen)) {
        incident.serviceImpacts = Object.keys(chosen).length ? chosen : null;
        changed = true;
      }
    }
    if (patch.title !== undefined && patch.title !== incident.title) {
      incident.title = patch.title;
      changed = true;
    }
    if (patch.severity !== undefined && patch.severity !== incident.severity) {
      incident.severity = patch.severity;
      changed = true;
    }
    if (patch.internal_note !== undefined && patch.internal_note !== (incident.internalNote ?? null)) {
      incident.internalNote = patch.internal_note;
      changed = true;
    }
    if (!changed) return view(t, incident);
    return commit(t, incident, ['incident.updated']);
  });
}

/** Affected services are a set of UUIDs: the same services in another order (or letter case) are no change. */
function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a.map((x) => x.toLowerCase()));
  const other = new Set(b.map((x) => x.toLowerCase()));
  return set.size === other.size && [...other].every((x) => set.has(x));
}

export async function publishIncident(ctx: OrgContext, id: string): Promise<IncidentView> {
  return change(ctx, async (t) => {
    const incident = await load(t, id, { lock: true });
    if (incident.publishedAt) throw new ProblemError('already_published', 'The incident is already published.');
    incident.publishedAt = t.now;
    return commit(t, incident, ['incident.published']);
  });
}

function resolveIn(t: Tx, incident: Incident): void {
  if (incident.resolvedAt) throw new ProblemError('already_resolved', 'The incident is already resolved.');
  if (!incident.publishedAt)
    throw new ProblemError('not_published', 'Only a published incident can be resolved; publish it first.');
  incident.resolvedAt = t.now;
}

export async function resolveIncident(ctx: OrgContext, id: string, message?: string): Promise<IncidentView> {
  return change(ctx, async (t) => {
    const incident = await load(t, id, { lock: true });
    resolveIn(t, incident);
    const events = ['incident.resolved'];
    if (message) {
      addMessage(t, incident, 'Resolved', message);
      events.unshift('incident.message_added');
    }
    return commit(t, incident, events);
  });
}

/** Appends a timeline message; a `Resolved` message also resolves a published incident. */
export async function addIncidentMessage(
  ctx: OrgContext,
  id: string,
  input: IncidentMessageInput,
): Promise<IncidentView> {
  return change(ctx, async (t) => {
    const incident = await load(t, id, { lock: true });
    const events = ['incident.message_added'];
    if (input.type === 'Resolved' && !incident.resolvedAt) {
      resolveIn(t, incident);
      events.push('incident.resolved');
    }
    addMessage(t, incident, input.type, input.body, input.notify_subscribers ?? true);
    return commit(t, incident, events);
  });
}

/** Soft delete, idempotent: a repeat answers the deleted incident without a second event. */
export async function deleteIncident(ctx: OrgContext, id: string): Promise<IncidentView> {
  return change(ctx, async (t) => {
    const incident = await load(t, id, { lock: true, withDeleted: true });
    if (incident.deletedAt) return view(t, incident);
    incident.deletedAt = t.now;
    return commit(t, incident, ['incident.deleted']);
  });
}

/** The impacts the operator chose (lower-case service id → impact), for the console's edit form. */
export async function chosenImpacts(ctx: OrgContext, id: string): Promise<Record<string, string>> {
  return tx(ctx, async (t) => ({ ...((await load(t, id)).serviceImpacts ?? {}) }));
}
