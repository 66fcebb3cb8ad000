import { randomUUID } from 'node:crypto';
import { OnCallScheduleSchema, type OnCallSchedule } from '../../db/entities';
import { isUuid } from '../../domain/ids';
import type { ScheduleSpec } from '../../domain/on-call/schedule';
import { onCallAt } from '../../domain/on-call/schedule';
import { validateSchedule } from '../../domain/on-call/schedule-input';
import { shiftsBetween } from '../../domain/on-call/shifts';
import { toIso } from '../../domain/time';
import type { OrgContext } from '../shared/context';
import { findLive, listLive, softDelete } from '../shared/org-resources';
import { consoleUserErrors, inUseByPolicies, policiesTargeting } from './policies';
import { type ScheduleView, apiPath, invalidFields, scheduleView } from './views';

export interface ScheduleInput {
  name: string;
  timezone: string;
  layers: unknown;
  overrides?: unknown;
}
export type SchedulePatch = Partial<ScheduleInput>;

/** The longest window `shifts` answers. */
export const MAX_SHIFT_WINDOW_DAYS = 93;
/** The default window of `shifts`. */
export const DEFAULT_SHIFT_WINDOW_DAYS = 14;
/** Segments per answer; `truncated` says more follow (ask again from the last one's end). */
export const SHIFT_LIMIT = 1_000;
const DAY_MS = 86_400_000;

/** Validated (schedule-input.ts), emails lower-cased, every participant and override user a console user: or 400 naming each field. */
async function checkedSchedule(
  ctx: OrgContext,
  input: { timezone: unknown; layers: unknown; overrides?: unknown },
): Promise<ScheduleSpec> {
  const v = validateSchedule({
    timezone: input.timezone,
    layers: input.layers,
    ...(input.overrides !== undefined ? { overrides: input.overrides } : {}),
  });
  if (!v.ok) throw invalidFields(v.errors.map((e) => ({ path: apiPath(e.path), message: e.message })));
  const spec: ScheduleSpec = {
    timezone: v.value.timezone,
    layers: v.value.layers.map((l) => ({
      ...l,
      rotation: { ...l.rotation, participants: l.rotation.participants.map((p) => p.toLowerCase()) },
    })),
    overrides: v.value.overrides.map((o) => ({ ...o, user: o.user.toLowerCase() })),
  };
  const errors = await consoleUserErrors(ctx, [
    ...spec.layers.flatMap((l, li) =>
      l.rotation.participants.map((email, pi) => ({ email, path: `layers.${li}.rotation.participants.${pi}` })),
    ),
    ...spec.overrides.map((o, oi) => ({ email: o.user, path: `overrides.${oi}.user` })),
  ]);
  if (errors.length) throw invalidFields(errors);
  return spec;
}

const specOf = (s: OnCallSchedule): ScheduleSpec => ({
  timezone: s.timezone,
  layers: s.layers as ScheduleSpec['layers'],
  overrides: s.overrides as ScheduleSpec['overrides'],
});

export async function createSchedule(ctx: OrgContext, input: ScheduleInput): Promise<ScheduleView> {
  const spec = await checkedSchedule(ctx, input);
  const s = ctx.em.create(OnCallScheduleSchema, {
    id: randomUUID(),
    organization: ctx.org.id,
    name: input.name,
    timezone: spec.timezone,
    layers: spec.layers,
    overrides: spec.overrides,
    deletedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return scheduleView(s);
}

export async function getSchedule(ctx: OrgContext, id: string): Promise<ScheduleView> {
  return scheduleView(await findLive(ctx, OnCallScheduleSchema, id, 'On-call schedule'));
}

export async function listSchedules(ctx: OrgContext, query: { limit: number; cursor?: string }) {
  const page = await listLive(ctx, OnCallScheduleSchema, query);
  return { items: page.items.map(scheduleView), nextCursor: page.nextCursor };
}

/** Changes the fields sent (`layers` and `overrides` replaced whole); the result is checked again as a whole. */
export async function updateSchedule(ctx: OrgContext, id: string, patch: SchedulePatch): Promise<ScheduleView> {
  const s = await findLive(ctx, OnCallScheduleSchema, id, 'On-call schedule');
  if (patch.timezone !== undefined || patch.layers !== undefined || patch.overrides !== undefined) {
    const spec = await checkedSchedule(ctx, {
      timezone: patch.timezone ?? s.timezone,
      layers: patch.layers ?? s.layers,
      overrides: patch.overrides ?? s.overrides,
    });
    s.timezone = spec.timezone;
    s.layers = spec.layers;
    s.overrides = spec.overrides;
  }
  if (patch.name !== undefined) s.name = patch.name;
  s.updatedAt = ctx.now;
  await ctx.em.flush();
  return scheduleView(s);
}

/** Soft delete, idempotent; refused (409 in_use) while a live escalation policy targets the schedule. */
export async function deleteSchedule(ctx: OrgContext, id: string): Promise<ScheduleView> {
  const live = isUuid(id)
    ? await ctx.em.findOne(OnCallScheduleSchema, { id, organization: ctx.org.id, deletedAt: null })
    : null;
  if (live) {
    const users = await policiesTargeting(ctx, { type: 'schedule', id: live.id });
    if (users.length) throw inUseByPolicies('on-call schedule', users);
  }
  return scheduleView(await softDelete(ctx, OnCallScheduleSchema, id, 'On-call schedule'));
}

const layerOf = (spec: ScheduleSpec, index: number | null) =>
  index === null ? null : { index, name: spec.layers[index]?.name ?? '' };

export interface OnCallNowView {
  at: string;
  user: { email: string } | null;
  source: 'override' | 'layer' | null;
  layer: { index: number; name: string } | null;
  shift_start: string | null;
  shift_end: string | null;
}

/** Who is on call at `at` (default now): an override first, else the highest layer whose rotation has started; nobody → nulls. */
export async function onCallNow(ctx: OrgContext, id: string, at: Date = ctx.now): Promise<OnCallNowView> {
  const spec = specOf(await findLive(ctx, OnCallScheduleSchema, id, 'On-call schedule'));
  const answer = onCallAt(spec, at);
  if (!answer) return { at: toIso(at), user: null, source: null, layer: null, shift_start: null, shift_end: null };
  return {
    at: toIso(at),
    user: { email: answer.user },
    source: answer.source,
    layer: layerOf(spec, answer.layer),
    shift_start: toIso(answer.shift_start),
    shift_end: toIso(answer.shift_end),
  };
}

/** Who is on call over [from, to), at most MAX_SHIFT_WINDOW_DAYS; `to` defaults to from + 14 days. */
export async function listShifts(ctx: OrgContext, id: string, window: { from?: Date; to?: Date }) {
  const from = window.from ?? ctx.now;
  const to = window.to ?? new Date(from.getTime() + DEFAULT_SHIFT_WINDOW_DAYS * DAY_MS);
  if (to.getTime() <= from.getTime()) throw invalidFields([{ path: 'query.to', message: 'Must be after from' }]);
  if (to.getTime() - from.getTime() > MAX_SHIFT_WINDOW_DAYS * DAY_MS)
    throw invalidFields([{ path: 'query.to', message: `Must be at most ${MAX_SHIFT_WINDOW_DAYS} days after from` }]);
  const spec = specOf(await findLive(ctx, OnCallScheduleSchema, id, 'On-call schedule'));
  const timeline = shiftsBetween(spec, from, to, SHIFT_LIMIT);
  return {
    from: toIso(from),
    to: toIso(to),
    items: timeline.shifts.map((s) => ({
      user: { email: s.user },
      source: s.source,
      layer: layerOf(spec, s.layer),
      start: toIso(s.start),
      end: toIso(s.end),
    })),
    truncated: timeline.truncated,
  };
}
