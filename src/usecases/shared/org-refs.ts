import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { CustomerSchema, ServiceSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from './context';

/**
 * Throws `token` (unknown_services / unknown_customers) listing the submitted ids that name no
 * live record of the organization, with an `errors[]` entry pointing at each one.
 */
async function assertLiveRefs(
  ctx: OrgContext,
  entity: EntityName<{ id: string }>,
  ids: string[],
  path: string,
  token: 'unknown_services' | 'unknown_customers',
  label: string,
): Promise<void> {
  if (!ids.length) return;
  const wellFormed = ids.filter(isUuid);
  const where = { id: { $in: wellFormed }, organization: ctx.org.id, deletedAt: null } as FilterQuery<{ id: string }>;
  const found = wellFormed.length ? await ctx.em.find(entity, where, { fields: ['id'] as never }) : [];
  const known = new Set(found.map((r) => r.id));
  const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
  if (unknown.length) {
    throw new ProblemError(token, `No such ${label}: ${unknown.join(', ')}.`, {
      [token]: unknown,
      errors: unknown.map((id) => ({ path: `${path}.${ids.indexOf(id)}`, message: `No such ${label}` })),
    });
  }
}

export const assertServicesExist = (ctx: OrgContext, ids: string[], path: string) =>
  assertLiveRefs(ctx, ServiceSchema as EntityName<{ id: string }>, ids, path, 'unknown_services', 'service');

export const assertCustomersExist = (ctx: OrgContext, ids: string[], path: string) =>
  assertLiveRefs(ctx, CustomerSchema as EntityName<{ id: string }>, ids, path, 'unknown_customers', 'customer');
