import { SloSchema, StatusPageSchema, SubscriberSchema, type StatusPage } from '../../db/entities';
import { pageIdsShowing } from '../../db/repositories/status-page-repository';
import { ProblemError } from '../../domain/error-catalog';
import type { OrgContext } from './context';

/**
 * The in-use guard (spec §2.5 `in_use` with `referenced_by`): what a delete must not orphan.
 * A shared read model: it queries SLOs and status pages itself, so the features it guards
 * (services, metrics, SLOs) and the ones it asks (status pages) never import each other.
 */

/** Live SLOs that name these metrics or services: what a delete must not orphan (409 in_use). */
export async function slosReferencing(ctx: OrgContext, ref: { metricIds?: string[]; serviceIds?: string[] }) {
  const or = [
    ...(ref.metricIds?.length ? [{ metric: { $in: ref.metricIds } }] : []),
    ...(ref.serviceIds?.length ? [{ service: { $in: ref.serviceIds } }] : []),
  ];
  if (!or.length) return [];
  return ctx.em.find(SloSchema, { organization: ctx.org.id, deletedAt: null, $or: or });
}

/** Refuses to delete what a live SLO measures or a live status page shows: 409 in_use with referenced_by (spec §2.5). */
export async function assertNotReferenced(
  ctx: OrgContext,
  ref: { metricIds?: string[]; serviceIds?: string[]; sloIds?: string[] },
  what: string,
): Promise<void> {
  const slos = await slosReferencing(ctx, ref);
  const pages = await pagesShowing(ctx, [
    ...(ref.serviceIds ?? []).map((id) => ({ kind: 'service' as const, id })),
    ...(ref.metricIds ?? []).map((id) => ({ kind: 'metric' as const, id })),
    ...(ref.sloIds ?? []).map((id) => ({ kind: 'slo' as const, id })),
  ]);
  if (!slos.length && !pages.length) return;
  const users = [
    slos.length ? `${slos.length} SLO${slos.length > 1 ? 's' : ''}` : '',
    pages.length ? `${pages.length} status page${pages.length > 1 ? 's' : ''}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  throw new ProblemError('in_use', `The ${what} is used by ${users}; remove it from them first.`, {
    referenced_by: {
      slos: slos.map((x) => ({ id: x.id, config_key: x.configKey ?? null, name: x.name })),
      pages: pages.map((p) => ({ id: p.id, config_key: p.configKey ?? null, name: p.title })),
      subscribers: await activeSubscriberCount(
        ctx,
        pages.map((p) => p.id),
      ),
    },
  });
}

/** Subscribers still waiting for or receiving email. */
export async function activeSubscriberCount(ctx: OrgContext, pageIds: string[]): Promise<number> {
  if (!pageIds.length) return 0;
  return ctx.em.count(SubscriberSchema, { page: { $in: pageIds }, state: { $in: ['pending', 'confirmed'] } });
}

/** Live pages whose layout shows any of these components: what deleting them must not orphan. */
export async function pagesShowing(
  ctx: OrgContext,
  refs: { kind: 'service' | 'metric' | 'slo'; id: string }[],
): Promise<StatusPage[]> {
  const ids = await pageIdsShowing(ctx.em, ctx.org.id, refs);
  return ids.length ? ctx.em.find(StatusPageSchema, { id: { $in: ids } }) : [];
}
