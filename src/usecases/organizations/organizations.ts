import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { type Organization, OrganizationSchema } from '../../db/entities';
import { PLAN_IDS, type PlanId, isPlanId } from '../../domain/plans';
import { type MintedKey, UsageError, mintApiKey } from './api-keys';

export interface OrganizationInput {
  name: string;
  plan: string;
}

function checkPlan(plan: string): PlanId {
  if (!isPlanId(plan)) throw new UsageError(`Unknown plan "${plan}"; plans: ${PLAN_IDS.join(', ')}.`);
  return plan;
}

/** Creates an organization with one API key carrying every scope. */
export async function createOrganization(
  em: EntityManager,
  input: OrganizationInput,
  now: Date,
): Promise<{ organization: Organization; key: MintedKey }> {
  const plan = checkPlan(input.plan);
  if (!input.name.trim()) throw new UsageError('The organization needs a name.');
  return em.transactional(async (tem) => {
    const organization = tem.create(OrganizationSchema, {
      id: randomUUID(),
      name: input.name.trim(),
      plan,
      rateLimitPerMinute: null,
      rateLimitPerDay: null,
      createdAt: now,
      updatedAt: now,
    });
    await tem.flush();
    const key = await mintApiKey(tem, { organizationId: organization.id, name: 'Initial key' }, now);
    return { organization, key };
  });
}

export interface OrganizationPatch {
  plan?: string;
  /** null restores the plan's own limit. */
  rateLimitPerMinute?: number | null;
  rateLimitPerDay?: number | null;
}

export async function updateOrganization(
  em: EntityManager,
  id: string,
  patch: OrganizationPatch,
  now: Date,
): Promise<Organization> {
  const org = isUuid(id) ? await em.findOne(OrganizationSchema, id) : null;
  if (!org) throw new UsageError(`No organization ${id}.`);
  if (patch.plan !== undefined) org.plan = checkPlan(patch.plan);
  for (const limit of [patch.rateLimitPerMinute, patch.rateLimitPerDay]) {
    if (limit !== undefined && limit !== null && (!Number.isInteger(limit) || limit < 1)) {
      throw new UsageError('Rate limits are positive integers.');
    }
  }
  if (patch.rateLimitPerMinute !== undefined) org.rateLimitPerMinute = patch.rateLimitPerMinute;
  if (patch.rateLimitPerDay !== undefined) org.rateLimitPerDay = patch.rateLimitPerDay;
  org.updatedAt = now;
  await em.flush();
  return org;
}
