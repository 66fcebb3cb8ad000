import { randomUUID } from 'node:crypto';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { AlertRuleSchema, ServiceSchema, SilenceSchema } from '../../db/entities';
import { type FieldError, notFound } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import type { OrgContext } from '../shared/context';
import { findLive, listLive } from '../shared/org-resources';
import { type SilenceState, type SilenceView, invalidFields, silenceView } from './views';

export interface SilenceInput {
  rule_ids?: string[];
  service_ids?: string[];
  /** Default: now. */
  starts_at?: Date;
  ends_at: Date;
  reason: string;
}

async function unknownIds(
  ctx: OrgContext,
  entity: EntityName<{ id: string }>,
  ids: string[],
  path: string,
  label: string,
): Promise<FieldError[]> {
  const wellFormed = [...new Set(ids.filter(isUuid))];
  const found = wellFormed.length
    ? await ctx.em.find(
        entity,
        { id: { $in: wellFormed }, organization: ctx.org.id, deletedAt: null } as FilterQuery<{ id: string }>,
        { fields: ['id'] as never },
      )
    : [];
  const known = new Set(found.map((r) => r.id));
  return ids.flatMap((id, i) =>
    known.has(id) ? [] : [{ path: `${path}.${i}`, message: `No such ${label} in this organization` }],
  );
}

/**
 * A manual silence of some rules and services until `ends_at` (alerts meanwhile are recorded as
 * suppressed). `actor` is who made it: `api_key:<id>` or `console:<user id>`.
 */
export async function createSilence(ctx: OrgContext, actor: string, input: SilenceInput): Promise<SilenceView> {
  const ruleIds = [...new Set(input.rule_ids ?? [])];
  const serviceIds = [...new Set(input.service_ids ?? [])];
  const startsAt = input.starts_at ?? ctx.now;
  const errors: FieldError[] = [];
  if (!ruleIds.length && !serviceIds.length)
    errors.push({ path: 'rule_ids', message: 'Name at least one alert rule or service to silence' });
  if (input.ends_at.getTime() <= ctx.now.getTime()) errors.push({ path: 'ends_at', message: 'Must be in the future' });
  else if (input.ends_at.getTime() <= startsAt.getTime())
    errors.push({ path: 'ends_at', message: 'Must be after starts_at' });
  errors.push(
    ...(await unknownIds(
      ctx,
      AlertRuleSchema as EntityName<{ id: string }>,
      input.rule_ids ?? [],
      'rule_ids',
      'alert rule',
    )),
  );
  errors.push(
    ...(await unknownIds(
      ctx,
      ServiceSchema as EntityName<{ id: string }>,
      input.service_ids ?? [],
      'service_ids',
      'service',
    )),
  );
  if (errors.length) throw invalidFields(errors);
  const s = ctx.em.create(SilenceSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    ruleIds,
    serviceIds,
    startsAt,
    endsAt: input.ends_at,
    reason: input.reason,
    createdBy: actor,
    deletedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return silenceView(s, ctx.now);
}

export async function getSilence(ctx: OrgContext, id: string): Promise<SilenceView> {
  return silenceView(await findLive(ctx, SilenceSchema, id, 'Silence'), ctx.now);
}

function stateFilter(state: SilenceState | undefined, now: Date): Record<string, unknown> {
  switch (state) {
    case 'scheduled':
      return { startsAt: { $gt: now } };
    case 'active':
      return { startsAt: { $lte: now }, endsAt: { $gt: now } };
    case 'expired':
      return { endsAt: { $lte: now } };
    default:
      return {};
  }
}

export async function listSilences(ctx: OrgContext, query: { limit: number; cursor?: string; state?: SilenceState }) {
  const page = await listLive(ctx, SilenceSchema, query, stateFilter(query.state, ctx.now));
  return { items: page.items.map((s) => silenceView(s, ctx.now)), nextCursor: page.nextCursor };
}

/**
 * Ends the silence now and deletes it: `ends_at` (and the `starts_at` of one not yet started)
 * become now, so it silences nothing from here on. Repeating it answers the same silence.
 */
export async function deleteSilence(ctx: OrgContext, id: string): Promise<SilenceView> {
  const s = isUuid(id) ? await ctx.em.findOne(SilenceSchema, { id, organization: ctx.org.id }) : null;
  if (!s) throw notFound('Silence');
  if (!s.deletedAt) {
    if (s.startsAt.getTime() > ctx.now.getTime()) s.startsAt = ctx.now;
    if (s.endsAt.getTime() > ctx.now.getTime()) s.endsAt = ctx.now;
    s.deletedAt = ctx.now;
    s.updatedAt = ctx.now;
    await ctx.em.flush();
  }
  return silenceView(s, ctx.now);
}
