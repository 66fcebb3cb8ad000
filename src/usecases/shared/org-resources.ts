import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { pageOf } from '../../domain/cursor';
import { notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from './context';
import { NEWEST_FIRST, afterCursor } from './keyset';

/** What every organization-owned, soft-deletable record has. */
interface OrgOwned {
  id: string;
  organization: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt?: Date | null;
}

/** A live (not deleted) record of the caller's organization, or 404 — also for malformed ids. */
export async function findLive<T extends OrgOwned>(
  ctx: OrgContext,
  entity: EntityName<T>,
  id: string,
  label: string,
): Promise<T> {
  const row = isUuid(id)
    ? await ctx.em.findOne(entity, { id, organization: ctx.org.id, deletedAt: null } as FilterQuery<T>)
    : null;
  if (!row) throw notFound(label);
  return row;
}

/** One newest-first page of the organization's live records. */
export async function listLive<T extends OrgOwned>(
  ctx: OrgContext,
  entity: EntityName<T>,
  query: { limit: number; cursor?: string },
  filter: Record<string, unknown> = {},
) {
  const rows = await ctx.em.find(
    entity,
    { organization: ctx.org.id, deletedAt: null, ...filter, ...afterCursor(query.cursor) } as FilterQuery<T>,
    {
      orderBy: NEWEST_FIRST as never,
      limit: query.limit + 1,
    },
  );
  return pageOf(rows as T[], query.limit);
}

/** Soft delete; repeating it answers the same deleted record (idempotent). */
export async function softDelete<T extends OrgOwned>(
  ctx: OrgContext,
  entity: EntityName<T>,
  id: string,
  label: string,
): Promise<T> {
  const row = (
    isUuid(id) ? await ctx.em.findOne(entity, { id, organization: ctx.org.id } as FilterQuery<T>) : null
  ) as T | null;
  if (!row) throw notFound(label);
  if (!row.deletedAt) {
    row.deletedAt = ctx.now;
    row.updatedAt = ctx.now;
    await ctx.em.flush();
  }
  return row;
}
