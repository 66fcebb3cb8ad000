import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationSchema } from '../../db/entities';
import { assertCanCreate, assertNotSuspended } from '../../domain/quota';
import type { Capability } from '../../domain/plans';
import type { OrgContext } from './context';

type Countable = 'Service' | 'Customer' | 'WebhookSubscription' | 'Metric' | 'StatusPage';
type CountedCapability = Extract<Capability, 'services' | 'customers' | 'webhooks' | 'metrics' | 'status_pages'>;

const ENTITY_OF: Record<CountedCapability, Countable> = {
  services: 'Service',
  customers: 'Customer',
  webhooks: 'WebhookSubscription',
  metrics: 'Metric',
  status_pages: 'StatusPage',
};

/**
 * Inside a transaction: locks the organization row (so concurrent creates cannot both slip under
 * the cap) and throws quota_exceeded / feature_locked when one more item is not allowed.
 */
export async function reserveQuota(ctx: OrgContext, em: EntityManager, capability: CountedCapability): Promise<void> {
  await em.findOneOrFail(OrganizationSchema, ctx.org.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const used = await em.count(ENTITY_OF[capability], { organization: ctx.org.id, deletedAt: null });
  assertCanCreate(ctx.org.plan, capability, used, ctx.pricingUrl);
}

/** Throws item_suspended_plan when the item is beyond the plan's quota (oldest items keep their place). */
export async function assertWritable(
  ctx: OrgContext,
  capability: CountedCapability,
  item: { id: string; createdAt: Date },
): Promise<void> {
  const cap = ctx.org.plan.quotas[capability];
  if (cap === null) return;
  const entity = ENTITY_OF[capability];
  const live = { organization: ctx.org.id, deletedAt: null };
  const [older, used] = await Promise.all([
    ctx.em.count(entity, {
      ...live,
      $or: [{ createdAt: { $lt: item.createdAt } }, { createdAt: item.createdAt, id: { $lt: item.id } }],
    }),
    ctx.em.count(entity, live),
  ]);
  assertNotSuspended(ctx.org.plan, capability, older, used, ctx.pricingUrl);
}
