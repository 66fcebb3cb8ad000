import type { EntityManager } from '@mikro-orm/postgresql';
import { MetricSchema, type Slo, SloSchema, type StatusPage } from '../../db/entities';

/**
 * What a page's components point at: its SLOs, the metrics it shows directly (live ones) and the
 * metrics its SLOs measure, and from them every service the page shows. One resolver, so the
 * page, its feeds and its subscribers' emails agree on which services a page covers.
 */
export async function resolveShown(em: EntityManager, page: StatusPage) {
  const refs = page.layout.groups.flatMap((g) => g.components);
  const idsOf = (kind: string) => refs.filter((c) => c.kind === kind).map((c) => c.id);
  const org = page.organization;
  const [slos, directMetrics] = await Promise.all([
    idsOf('slo').length
      ? em.find(SloSchema, { id: { $in: idsOf('slo') }, organization: org, deletedAt: null })
      : Promise.resolve([] as Slo[]),
    idsOf('metric').length
      ? em.find(MetricSchema, { id: { $in: idsOf('metric') }, organization: org, deletedAt: null })
      : Promise.resolve([]),
  ]);
  const sloMetricIds = slos.flatMap((s) => (s.metric ? [s.metric] : []));
  const sloMetrics = sloMetricIds.length
    ? await em.find(MetricSchema, { id: { $in: sloMetricIds }, organization: org })
    : [];
  const serviceIds = new Set<string>([
    ...idsOf('service'),
    ...directMetrics.map((m) => m.service),
    ...slos.flatMap((s) => (s.service ? [s.service] : [])),
    ...sloMetrics.map((m) => m.service),
  ]);
  return { idsOf, slos, directMetrics, sloMetrics, serviceIds };
}

/** Just the services a page shows (directly, through metrics, or through SLOs): enough for feeds and emails. */
export async function pageServiceIds(em: EntityManager, page: StatusPage): Promise<string[]> {
  return [...(await resolveShown(em, page)).serviceIds];
}
