import type { Orm } from '../../src/db/orm';
import { createOrganization, updateOrganization } from '../../src/usecases/organizations/organizations';

/**
 * A fresh organization on plan enterprise, made directly in the database (no API call),
 * with its API rate limits raised: the limiter still counts every request, but never refuses
 * the load, so what is measured is the work and not the refusal.
 */
export async function benchOrganization(
  orm: Orm,
  name: string,
  now = new Date(),
): Promise<Awaited<ReturnType<typeof createOrganization>>> {
  const made = await createOrganization(orm.em.fork(), { name, plan: 'enterprise' }, now);
  await updateOrganization(
    orm.em.fork(),
    made.organization.id,
    { rateLimitPerMinute: 1_000_000_000, rateLimitPerDay: 2_000_000_000 },
    now,
  );
  return made;
}
