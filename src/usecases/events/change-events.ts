import { randomUUID } from 'node:crypto';
import { type ChangeEvent, ChangeEventSchema } from '../../db/entities';
import { pageOf } from '../../domain/cursor';
import { notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import { assertServicesExist } from '../shared/org-refs';
import { afterCursor } from '../shared/keyset';

export const CHANGE_KINDS = ['deploy', 'config_change', 'feature_flag', 'rollback', 'infrastructure', 'other'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeEventInput {
  kind: ChangeKind;
  title: string;
  description?: string | null;
  service_ids?: string[];
  actor?: string | null;
  source?: string | null;
  links?: { label: string; url: string }[];
  metadata?: Record<string, string>;
  occurred_at?: Date;
}

export interface ChangeEventQuery {
  limit: number;
  cursor?: string;
  service_id?: string;
  kind?: ChangeKind;
  since?: Date;
  until?: Date;
}

export async function createChangeEvent(ctx: OrgContext, input: ChangeEventInput): Promise<ChangeEvent> {
  const serviceIds = [...new Set(input.service_ids ?? [])];
  await assertServicesExist(ctx, serviceIds, 'service_ids');
  const event = ctx.em.create(ChangeEventSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    kind: input.kind,
    title: input.title,
    description: input.description ?? null,
    serviceIds,
    actor: input.actor ?? null,
    source: input.source ?? null,
    links: input.links ?? [],
    metadata: input.metadata ?? {},
    occurredAt: input.occurred_at ?? ctx.now,
    createdAt: ctx.now,
  });
  await ctx.em.flush();
  return event;
}

export async function getChangeEvent(ctx: OrgContext, id: string): Promise<ChangeEvent> {
  const event = isUuid(id) ? await ctx.em.findOne(ChangeEventSchema, { id, organization: ctx.org.id }) : null;
  if (!event) throw notFound('Change event');
  return event;
}

/** Newest `occurred_at` first, filtered by service, kind and time range. */
export async function listChangeEvents(ctx: OrgContext, q: ChangeEventQuery) {
  const occurredAt = { ...(q.since ? { $gte: q.since } : {}), ...(q.until ? { $lt: q.until } : {}) };
  const rows = await ctx.em.find(
    ChangeEventSchema,
    {
      organization: ctx.org.id,
      ...(q.service_id ? { serviceIds: { $contains: [q.service_id] } } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.since || q.until ? { occurredAt } : {}),
      ...afterCursor(q.cursor, 'occurredAt'),
    },
    { orderBy: { occurredAt: 'desc', id: 'desc' }, limit: q.limit + 1 },
  );
  return pageOf(rows, q.limit, (e) => e.occurredAt);
}
