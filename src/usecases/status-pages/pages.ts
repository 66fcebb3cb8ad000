import { randomBytes, randomUUID } from 'node:crypto';
import { type EntityName, type FilterQuery, UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  MetricSchema,
  type PageLayout,
  ServiceSchema,
  SloSchema,
  type StatusPage,
  StatusPageSchema,
} from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { subdomainProblem } from '../../domain/status-page/subdomain';
import type { SecretBox } from '../../crypto/secret-box';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { assertWritable, reserveQuota } from '../shared/plan-limits';
import { assertViewerPublicKey } from './viewer-keys';
import { activeSubscriberCount } from '../shared/in-use';

export interface StatusPageInput {
  subdomain: string;
  title: string;
  description?: string | null;
  time_zone?: string;
  branding?: { logo_url?: string | null; accent_color?: string | null; header_color?: string | null };
  links?: { label: string; url: string }[];
  groups?: PageLayout['groups'];
  viewer_public_key?: string | null;
}
export type StatusPagePatch = Partial<StatusPageInput>;

export type { StatusPage };

const ENTITY_OF_KIND: Record<'service' | 'metric' | 'slo', EntityName<{ id: string }>> = {
  service: ServiceSchema as EntityName<{ id: string }>,
  metric: MetricSchema as EntityName<{ id: string }>,
  slo: SloSchema as EntityName<{ id: string }>,
};

/** Every component a layout names must be a live record of the organization, and appear once. */
async function assertLayout(ctx: OrgContext, layout: PageLayout): Promise<void> {
  const errors: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  layout.groups.forEach((g, gi) =>
    g.components.forEach((c, ci) => {
      const key = `${c.kind}:${c.id}`;
      if (seen.has(key))
        errors.push({ path: `groups.${gi}.components.${ci}.id`, message: `The ${c.kind} is already on the page` });
      seen.add(key);
    }),
  );
  for (const kind of ['service', 'metric', 'slo'] as const) {
    const ids = [
      ...new Set(layout.groups.flatMap((g) => g.components.filter((c) => c.kind === kind).map((c) => c.id))),
    ];
    if (!ids.length) continue;
    const where = { id: { $in: ids.filter(isUuid) }, organization: ctx.org.id, deletedAt: null } as FilterQuery<{
      id: string;
    }>;
    const known = new Set(
      (await ctx.em.find(ENTITY_OF_KIND[kind], where, { fields: ['id'] as never })).map((r) => r.id),
    );
    layout.groups.forEach((g, gi) =>
      g.components.forEach((c, ci) => {
        if (c.kind === kind && !known.has(c.id))
          errors.push({ path: `groups.${gi}.components.${ci}.id`, message: `No such ${kind}` });
      }),
    );
  }
  if (errors.length)
    throw new ProblemError('validation_failed', 'The page names components that do not exist or repeat.', { errors });
}

function assertSubdomain(subdomain: string): void {
  const problem = subdomainProblem(subdomain);
  if (problem)
    throw new ProblemError('validation_failed', 'The subdomain is not usable.', {
      errors: [{ path: 'subdomain', message: problem }],
    });
}

function subdomainTaken(subdomain: string): ProblemError {
  return new ProblemError('subdomain_taken', `The subdomain "${subdomain}" is taken.`, {
    errors: [{ path: 'subdomain', message: 'Already in use' }],
  });
}

async function assertSubdomainFree(ctx: OrgContext, subdomain: string, except?: string): Promise<void> {
  const taken = await ctx.em.findOne(
    StatusPageSchema,
    { subdomain, deletedAt: null, ...(except ? { id: { $ne: except } } : {}) },
    { fields: ['id'] },
  );
  if (taken) throw subdomainTaken(subdomain);
}

export async function createStatusPage(ctx: OrgContext, box: SecretBox, input: StatusPageInput): Promise<StatusPage> {
  assertSubdomain(input.subdomain);
  await assertViewerPublicKey(input.viewer_public_key);
  const layout: PageLayout = { groups: input.groups ?? [] };
  try {
    return await ctx.em.transactional(async (em) => {
      const t = { ...ctx, em };
      await reserveQuota(t, em, 'status_pages');
      await assertSubdomainFree(t, input.subdomain);
      await assertLayout(t, layout);
      const page = em.create(StatusPageSchema, {
        id: randomUUID(),
        organization: ctx.org.id,
        subdomain: input.subdomain,
        title: input.title,
        description: input.description ?? null,
        timeZone: input.time_zone ?? 'UTC',
        branding: {
          logo_url: input.branding?.logo_url ?? null,
          accent_color: input.branding?.accent_color ?? null,
          header_color: input.branding?.header_color ?? null,
        },
        links: input.links ?? [],
        layout,
        sealedViewerSecret: box.seal(randomBytes(32).toString('base64url')),
        viewerPublicKey: input.viewer_public_key ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      });
      await em.flush();
      return page;
    });
  } catch (err) {
    // Two creates racing for one subdomain: the partial unique index decides.
    if (err instanceof UniqueConstraintViolationException) throw subdomainTaken(input.subdomain);
    throw err;
  }
}

export async function getStatusPage(ctx: OrgContext, id: string): Promise<StatusPage> {
  return findLive(ctx, StatusPageSchema, id, 'Status page');
}

export async function listStatusPages(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  return listLive(ctx, StatusPageSchema, query);
}

export async function updateStatusPage(ctx: OrgContext, id: string, patch: StatusPagePatch): Promise<StatusPage> {
  const page = await getStatusPage(ctx, id);
  await assertWritable(ctx, 'status_pages', page);
  await assertViewerPublicKey(patch.viewer_public_key);
  if (patch.subdomain !== undefined && patch.subdomain !== page.subdomain) {
    assertSubdomain(patch.subdomain);
    await assertSubdomainFree(ctx, patch.subdomain, page.id);
    page.subdomain = patch.subdomain;
  }
  if (patch.groups !== undefined) {
    const layout = { groups: patch.groups };
    await assertLayout(ctx, layout);
    page.layout = layout;
  }
  if (patch.title !== undefined) page.title = patch.title;
  if (patch.description !== undefined) page.description = patch.description;
  if (patch.time_zone !== undefined) page.timeZone = patch.time_zone;
  if (patch.branding !== undefined) page.branding = { ...page.branding, ...patch.branding };
  if (patch.links !== undefined) page.links = patch.links;
  if (patch.viewer_public_key !== undefined) page.viewerPublicKey = patch.viewer_public_key;
  page.updatedAt = ctx.now;
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw subdomainTaken(page.subdomain);
    throw err;
  }
  return page;
}

/**
 * Soft delete, idempotent. A page with active subscribers answers 409 in_use (counting them):
 * remove or export the subscribers first, so nobody's subscription vanishes silently.
 */
export async function deleteStatusPage(ctx: OrgContext, id: string): Promise<StatusPage> {
  const live = isUuid(id)
    ? await ctx.em.findOne(StatusPageSchema, { id, organization: ctx.org.id, deletedAt: null }, { fields: ['id'] })
    : null;
  const subscribers = live ? await activeSubscriberCount(ctx, [live.id]) : 0;
  if (subscribers > 0) {
    throw new ProblemError(
      'in_use',
      `The page has ${subscribers} active subscriber${subscribers > 1 ? 's' : ''}; delete them first.`,
      {
        referenced_by: { slos: [], pages: [], subscribers },
      },
    );
  }
  return softDelete(ctx, StatusPageSchema, id, 'Status page');
}
