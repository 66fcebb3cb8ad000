import type { Choice } from '../../render/console/parts';
import type { OrgContext } from '../../usecases/shared/context';
import { listCustomers } from '../../usecases/sla/customers';
import { listServices } from '../../usecases/services/services';
import { attempt } from './forms';

/** Every live service of the organization (for pickers and names), in the API's list order. */
export async function serviceChoices(ctx: OrgContext): Promise<Choice[]> {
  const out: Choice[] = [];
  let cursor: string | undefined;
  // A picker of more than 1,000 services would not be usable anyway; the API takes at most 200 per item.
  for (let i = 0; i < 5; i++) {
    const page = await listServices(ctx, { limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.items.map((s) => ({ id: s.id, name: s.name })));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

/** The organization's customers when its plan has them (incidents may be limited to some), else null. */
export async function customerChoices(ctx: OrgContext): Promise<Choice[] | null> {
  const r = await attempt(() => listCustomers(ctx, { limit: 200 }));
  return r.ok ? r.value.items.map((c) => ({ id: c.id, name: c.name })) : null;
}
