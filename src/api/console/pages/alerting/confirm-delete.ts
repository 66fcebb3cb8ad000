import type { FastifyInstance } from 'fastify';
import { confirmDeleteBody } from '../../../../render/console/alerting-parts';
import type { OrgContext } from '../../../../usecases/shared/context';
import { requireScope, sendPage } from '../../context';

/** One alerting thing a person can delete: where it lives and what its deletion does. */
export interface Deletable {
  /** e.g. '/alerts/rules' (under /console): the confirmation is `${base}/:id/delete`; `list` is where "Keep it" goes. */
  base: string;
  list: string;
  nav: string;
  noun: string;
  load: (ctx: OrgContext, id: string) => Promise<{ name: string }>;
  /** What goes with it, in one sentence. */
  consequence: string;
}

/**
 * `GET <base>/:id/delete`: a page that names what will be deleted and what that does, with the
 * button that POSTs the delete (the POST route stays where it was). Every delete of the alerting
 * area goes through one, so no single click removes a rule, policy, schedule or channel.
 */
export function confirmDeleteRoute(app: FastifyInstance, d: Deletable): void {
  app.get<{ Params: { id: string } }>(`${d.base}/:id/delete`, async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const item = await d.load(v.ctx, request.params.id);
    const body = confirmDeleteBody({
      csrf: v.csrf,
      action: `/console${d.base}/${encodeURIComponent(request.params.id)}/delete`,
      noun: d.noun,
      name: item.name,
      consequence: d.consequence,
      back: d.list,
    });
    return sendPage(reply, v, d.nav, { title: `Delete ${d.noun} ${item.name}?`, body });
  });
}
