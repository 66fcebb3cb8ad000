import { StatusPageSchema } from '../../db/entities';
import { registeredLocationIds } from '../../db/repositories/metric-location-repository';
import {
  type Confirmation,
  LOCATION_ID_PATTERN,
  agentLocationId,
  confirmationProblems,
  isAgentLocation,
} from '../../domain/confirmation';
import { isPushSourceType } from '../../domain/source-types';
import { type ConfigKind, SECTION_OF, formatPath } from '../../domain/config/kinds';
import { type FieldError, ProblemError } from '../../domain/error-catalog';
import { subdomainProblem } from '../../domain/status-page/subdomain';
import type { SloPolicy } from '../../domain/slo';
import type { OrgContext } from '../shared/context';
import { definitionErrors, placementProblem } from '../metrics/metrics';
import { checkPolicy } from '../slos/slos';
import { assertViewerPublicKey } from '../status-pages/viewer-keys';
import type { ComponentEntry } from './document';
import type { ItemPlan } from './items';
import { componentOf } from './records';

type Segment = string | number;
type At = (...rest: Segment[]) => string;

/** The problems a single-item write would report, with their paths moved into the document. */
function problemsOf(err: unknown, at: At): FieldError[] {
  if (!(err instanceof ProblemError)) throw err;
  const list = err.extras.errors ?? [{ path: '', message: err.message }];
  return list.map((e) => ({ path: e.path ? `${at()}.${e.path}` : at(), message: e.message }));
}

function checkMetric(item: ItemPlan, at: At, errors: FieldError[]): void {
  const r = item.record!;
  const existing = item.existing as { sourceType: string } | null;
  if (existing && existing.sourceType !== r.source_type) {
    errors.push({
      path: at('source_type'),
      message: `A metric's source_type cannot change (it is ${existing.sourceType}); give the new metric another config_key`,
    });
  }
  const sourceType = String(r.source_type);
  const definition = definitionErrors(
    sourceType,
    r.source_config as Record<string, unknown>,
    r.thresholds as Record<string, unknown> | null,
  );
  errors.push(...definition.errors.map((e) => ({ path: `${at()}.${e.path}`, message: e.message })));
  if (definition.config) r.source_config = definition.config;
  const placement = placementProblem(sourceType, r.agent != null);
  if (placement) errors.push({ path: at('agent'), message: placement.replace('pass agent_id', 'name its agent') });
}

/**
 * The rules of POST/PATCH /v1/metrics (src/usecases/metrics/metrics.ts) over the whole
 * document: which locations may measure each metric, and a confirmation they can meet. Agents in
 * `locations` were resolved (and reported when unknown or revoked) with the other references;
 * the cloud ids of every metric are looked up at once.
 */
async function checkMetricLocations(
  ctx: OrgContext,
  metrics: { item: ItemPlan; at: At }[],
  errors: FieldError[],
): Promise<void> {
  const reported = new Set(errors.map((e) => e.path));
  const report = (path: string, message: string) => {
    if (!reported.has(path)) errors.push({ path, message });
  };
  const cloudIds = new Set<string>();
  for (const { item } of metrics) {
    const r = item.record!;
    if (!r.agent && Array.isArray(r.locations))
      for (const id of r.locations as string[])
        if (!isAgentLocation(id) && LOCATION_ID_PATTERN.test(id)) cloudIds.add(id);
  }
  const known = await registeredLocationIds(ctx.em, [...cloudIds]);
  for (const { item, at } of metrics) {
    const r = item.record!;
    const sourceType = String(r.source_type);
    const locations = r.locations as string[] | null;
    if (isPushSourceType(sourceType)) {
      if (locations?.length)
        report(at('locations'), `${sourceType} metrics are pushed to Vigil: no location measures them`);
      if (r.confirmation !== null)
        report(
          at('confirmation'),
          `${sourceType} metrics are pushed to Vigil: their status counts as sent, no location votes on it`,
        );
      continue;
    }
    if (!locations) continue;
    if (!locations.length)
      report(at('locations'), 'Name at least one location, or leave locations out for the default');
    const seen = new Set<string>();
    let cloud = 0;
    let agents = 0;
    locations.forEach((id, i) => {
      if (seen.has(id)) report(at('locations', i), `${id} is listed twice`);
      seen.add(id);
      if (isAgentLocation(id)) agents++;
      else if (!LOCATION_ID_PATTERN.test(id))
        report(
          at('locations', i),
          'Expected a location id (lower-case letters, digits, dashes) or agent:<agent name or id>',
        );
      else cloud++;
    });
    if (r.agent) {
      // An agent metric reaches what only its agent can: it is measured there alone.
      const own = agentLocationId(String(r.agent));
      locations.forEach((id, i) => {
        if (id !== own)
          report(
            at('locations', i),
            'An agent metric is measured by its agent alone; to measure a public target from cloud locations and agents together, leave agent out and list the agents here',
          );
      });
      continue;
    }
    locations.forEach((id, i) => {
      if (!isAgentLocation(id) && LOCATION_ID_PATTERN.test(id) && !known.has(id))
        report(at('locations', i), `No location ${id} has registered (GET /v1/locations lists them)`);
    });
    if (agents && !cloud)
      report(
        at('locations'),
        'A cloud metric measured only by agents: name a cloud location too, or give the metric an agent',
      );
    if (r.confirmation)
      for (const p of confirmationProblems(r.confirmation as Confirmation, locations.length))
        report(at('confirmation', p.path), p.message);
  }
}

function checkSlo(item: ItemPlan, at: At, errors: FieldError[]): void {
  const r = item.record!;
  if (!r.metric === !r.service) errors.push({ path: at('metric'), message: 'Give exactly one of metric and service' });
  try {
    checkPolicy({
      objective: r.objective,
      window: r.window,
      no_data: r.no_data,
      maintenance: r.maintenance,
      degraded: r.degraded,
    } as SloPolicy);
  } catch (err) {
    errors.push(...problemsOf(err, at));
  }
}

async function checkStatusPage(item: ItemPlan, at: At, errors: FieldError[]): Promise<void> {
  const r = item.record!;
  const problem = subdomainProblem(String(r.subdomain));
  if (problem) errors.push({ path: at('subdomain'), message: problem });
  const seen = new Set<string>();
  (r.groups as { components: ComponentEntry[] }[]).forEach((g, gi) =>
    g.components.forEach((c, ci) => {
      const { kind, ref } = componentOf(c);
      if (seen.has(`${kind}:${ref}`))
        errors.push({ path: at('groups', gi, 'components', ci, kind), message: `The ${kind} is already on the page` });
      seen.add(`${kind}:${ref}`);
    }),
  );
  try {
    await assertViewerPublicKey(r.viewer_public_key as string | null, 'viewer_public_key');
  } catch (err) {
    errors.push(...problemsOf(err, at));
  }
}

/** Subdomains are unique across every organization's live pages, and within the document. */
async function checkSubdomains(
  ctx: OrgContext,
  pages: { item: ItemPlan; at: At }[],
  deleted: Map<ConfigKind, Set<string>>,
  errors: FieldError[],
): Promise<void> {
  const first = new Map<string, number>();
  for (const { item, at } of pages) {
    const sub = String(item.record!.subdomain);
    if (first.has(sub))
      errors.push({ path: at('subdomain'), message: `Also the subdomain of status_pages[${first.get(sub)}]` });
    else first.set(sub, item.index!);
  }
  if (!first.size) return;
  const mine = new Set([...pages.map((p) => p.item.id), ...deleted.get('status_page')!]);
  const taken = await ctx.em.find(
    StatusPageSchema,
    { subdomain: { $in: [...first.keys()] }, deletedAt: null },
    { fields: ['id', 'subdomain'] },
  );
  const takenBy = new Set(taken.filter((p) => !mine.has(p.id)).map((p) => p.subdomain));
  for (const { item, at } of pages) {
    if (takenBy.has(String(item.record!.subdomain)))
      errors.push({ path: at('subdomain'), message: 'Another status page already uses this subdomain' });
  }
}

function checkContract(item: ItemPlan, at: At, errors: FieldError[]): void {
  const r = item.record!;
  if (r.effective_to !== null && String(r.effective_to) < String(r.effective_from))
    errors.push({ path: at('effective_to'), message: 'Must be on or after effective_from' });
  if (!(r.services as string[]).length && !(r.slos as string[]).length)
    errors.push({ path: at('services'), message: 'A contract covers at least one service (or an SLO in slos)' });
}

/**
 * What each entry's single-item endpoint would refuse, reported at once with document paths;
 * plus warnings for what works but probably is not meant (plain-http webhooks).
 */
export async function checkEntries(
  ctx: OrgContext,
  items: ItemPlan[],
  deleted: Map<ConfigKind, Set<string>>,
  errors: FieldError[],
  warnings: FieldError[],
): Promise<void> {
  const pages: { item: ItemPlan; at: At }[] = [];
  const metrics: { item: ItemPlan; at: At }[] = [];
  for (const item of items) {
    const at: At = (...rest) => formatPath([SECTION_OF[item.kind], item.index!, ...rest]);
    switch (item.kind) {
      case 'metric':
        checkMetric(item, at, errors);
        metrics.push({ item, at });
        break;
      case 'slo':
        checkSlo(item, at, errors);
        break;
      case 'status_page':
        await checkStatusPage(item, at, errors);
        pages.push({ item, at });
        break;
      case 'contract':
        checkContract(item, at, errors);
        break;
      case 'webhook':
        if (String(item.record!.url).startsWith('http:'))
          warnings.push({
            path: at('url'),
            message: 'Deliveries to a plain http URL travel unencrypted (their signature still holds)',
          });
        break;
      default:
        break;
    }
  }
  await checkMetricLocations(ctx, metrics, errors);
  await checkSubdomains(ctx, pages, deleted, errors);
}
