import { randomUUID } from 'node:crypto';
import { type Customer, CustomerSchema } from '../../db/entities';
import { assertFeature } from '../../domain/quota';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { assertWritable, reserveQuota } from '../shared/plan-limits';

export interface CustomerInput {
  name: string;
  external_id?: string | null;
  contact_email?: string | null;
}

export type CustomerPatch = Partial<CustomerInput>;

export async function createCustomer(ctx: OrgContext, input: CustomerInput): Promise<Customer> {
  return ctx.em.transactional(async (em) => {
    await reserveQuota(ctx, em, 'customers');
    const customer = em.create(CustomerSchema, {
      id: randomUUID(),
      organization: ctx.org.id,
      name: input.name,
      externalId: input.external_id ?? null,
      contactEmail: input.contact_email ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      deletedAt: null,
    });
    await em.flush();
    return customer;
  });
}

export async function getCustomer(ctx: OrgContext, id: string): Promise<Customer> {
  assertFeature(ctx.org.plan, 'customers', ctx.pricingUrl);
  return findLive(ctx, CustomerSchema, id, 'Customer');
}

export async function listCustomers(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  assertFeature(ctx.org.plan, 'customers', ctx.pricingUrl);
  return listLive(ctx, CustomerSchema, query);
}

export async function updateCustomer(ctx: OrgContext, id: string, patch: CustomerPatch): Promise<Customer> {
  const customer = await getCustomer(ctx, id);
  await assertWritable(ctx, 'customers', customer);
  if (patch.name !== undefined) customer.name = patch.name;
  if (patch.external_id !== undefined) customer.externalId = patch.external_id;
  if (patch.contact_email !== undefined) customer.contactEmail = patch.contact_email;
  customer.updatedAt = ctx.now;
  await ctx.em.flush();
  return customer;
}

/** Soft delete; repeating it answers the same deleted customer (idempotent). */
export async function deleteCustomer(ctx: OrgContext, id: string): Promise<Customer> {
  assertFeature(ctx.org.plan, 'customers', ctx.pricingUrl);
  return softDelete(ctx, CustomerSchema, id, 'Customer');
}
