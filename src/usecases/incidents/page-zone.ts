import { StatusPageSchema } from '../../db/entities';
import type { OrgContext } from '../shared/context';
import { pageServiceIds } from '../shared/page-coverage';

/**
 * The zone customers read an incident's times in: that of the organization's oldest live status
 * page showing the service (the public page prints times in its own zone), else of its oldest
 * page, else UTC.
 */
export async function customerTimeZone(ctx: OrgContext, serviceId: string): Promise<string> {
  const pages = await ctx.em.find(
    StatusPageSchema,
    { organization: ctx.org.id, deletedAt: null },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  for (const page of pages) if ((await pageServiceIds(ctx.em, page)).includes(serviceId)) return page.timeZone;
  return pages[0]?.timeZone ?? 'UTC';
}
