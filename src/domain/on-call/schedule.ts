/**
 * On-call schedules: who is on call at an instant. A schedule is rotations in layers
 * plus overrides, stored as validated JSON (schedule-input.ts) in snake_case, and read as is.
 *
 * - Overrides win over every layer; among overlapping overrides the later one in the list wins.
 * - Otherwise the highest layer (last in the list) with someone on call wins. Layers have no
 *   time restrictions, so a layer has someone on call from its first handoff on; before its
 *   `starts_on` handoff it has nobody, and the layers below answer.
 * - Handoff arithmetic (DST, hourly shifts) is in rotation.ts. Answering costs
 *   O(layers + overrides) and a few time zone conversions, whenever the rotation started.
 * - All intervals are half-open, [start, end): at a handoff instant the next person is on call.
 */
import { Temporal } from 'temporal-polyfill';
import { compileRotation, type RotationClock } from './rotation';

export type { Rotation, RotationKind } from './rotation';
import type { Rotation } from './rotation';

export interface ScheduleLayer {
  name: string;
  rotation: Rotation;
}

export interface ScheduleOverride {
  user: string;
  /** ISO 8601 instants; the override covers [start_at, end_at). */
  start_at: string;
  end_at: string;
}

export interface ScheduleSpec {
  /** IANA time zone of every handoff time and date. */
  timezone: string;
  /** Later layers are higher: the highest layer with someone on call wins. */
  layers: ScheduleLayer[];
  /** Win over every layer; later in the list wins among overlapping overrides. */
  overrides: ScheduleOverride[];
}

export type OnCallSource = 'override' | 'layer';

export interface OnCallAnswer {
  user: string;
  source: OnCallSource;
  /** Index of the winning layer; null for an override. */
  layer: number | null;
  layer_name: string | null;
  /** Bounds of the winning shift or override, cut where an override or a higher layer takes over. */
  shift_start: Date;
  shift_end: Date;
}

export interface CompiledSchedule {
  layers: { name: string; clock: RotationClock }[];
  overrides: { user: string; start: number; end: number }[];
}

export function compileSchedule(spec: ScheduleSpec): CompiledSchedule {
  return {
    layers: spec.layers.map((layer) => ({ name: layer.name, clock: compileRotation(layer.rotation, spec.timezone) })),
    overrides: spec.overrides.map((o) => ({
      user: o.user,
      start: Temporal.Instant.from(o.start_at).epochMilliseconds,
      end: Temporal.Instant.from(o.end_at).epochMilliseconds,
    })),
  };
}

/** Who is on call at t, with numeric bounds; `end` may be Infinity when `mergeRuns` is set. */
export interface Winner {
  user: string;
  source: OnCallSource;
  layer: number | null;
  layer_name: string | null;
  start: number;
  end: number;
}

/**
 * The entry on call at t. With `mergeRuns`, a layer shift's end is extended over the following
 * shifts held by the same participant (the timeline view); without, it ends at the next handoff.
 */
export function winnerAt(schedule: CompiledSchedule, t: number, mergeRuns = false): Winner | null {
  const { overrides, layers } = schedule;
  for (let i = overrides.length - 1; i >= 0; i--) {
    const o = overrides[i]!;
    if (o.start > t || t >= o.end) continue;
    let start = o.start;
    let end = o.end;
    // Only later overrides cut into this one; none of them holds t, or it would have won.
    for (let j = i + 1; j < overrides.length; j++) {
      const later = overrides[j]!;
      if (later.end <= t) start = Math.max(start, later.end);
      else if (later.start > t) end = Math.min(end, later.start);
    }
    return { user: o.user, source: 'override', layer: null, layer_name: null, start, end };
  }
  for (let l = layers.length - 1; l >= 0; l--) {
    const { name, clock } = layers[l]!;
    if (t < clock.first) continue;
    const k = clock.shiftAt(t);
    let start = clock.handoff(k);
    let end = mergeRuns ? clock.runEnd(k) : clock.handoff(k + 1);
    for (const o of overrides) {
      if (o.end <= t) start = Math.max(start, o.end);
      else if (o.start > t) end = Math.min(end, o.start);
    }
    // A higher layer has nobody on call yet (or it would have won): it takes over at its first handoff.
    for (let h = l + 1; h < layers.length; h++) end = Math.min(end, layers[h]!.clock.first);
    return { user: clock.userOf(k), source: 'layer', layer: l, layer_name: name, start, end };
  }
  return null;
}

/** When someone is next on call after t, if nobody is at t: a layer's first handoff or an override's start. */
export function nextCoverageAfter(schedule: CompiledSchedule, t: number): number {
  let next = Number.POSITIVE_INFINITY;
  for (const { clock } of schedule.layers) if (clock.first > t) next = Math.min(next, clock.first);
  for (const o of schedule.overrides) if (o.start > t) next = Math.min(next, o.start);
  return next;
}

export function instantMs(at: Date, name: string): number {
  const ms = at instanceof Date ? at.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`${name} must be a valid Date`);
  return ms;
}

/** Who is on call at `at`, or null when no override and no started layer covers it. `spec` must be validated (validateSchedule). */
export function onCallAt(spec: ScheduleSpec, at: Date): OnCallAnswer | null {
  const w = winnerAt(compileSchedule(spec), instantMs(at, 'at'));
  if (w === null) return null;
  return {
    user: w.user,
    source: w.source,
    layer: w.layer,
    layer_name: w.layer_name,
    shift_start: new Date(w.start),
    shift_end: new Date(w.end),
  };
}

/** Who is on call among the people who can be paged, and whom the schedule named but could not page. */
export interface OnCallAmongAnswer {
  answer: OnCallAnswer | null;
  /** On call by the schedule but not pageable (disabled or removed), highest first: an override, then layers from the top. */
  passedOver: { user: string; source: OnCallSource; layer_name: string | null }[];
}

/**
 * Who is paged at `at` when only the users `canBePaged` accepts count: an override naming
 * someone who cannot be paged gives way to the next override or to the layers, and a layer whose
 * shift belongs to such a person falls through to the layer below, as if it had nobody on call.
 * Nobody left is a gap (answer null) that the caller reports, never a page to someone who lost access.
 */
export function onCallAmong(spec: ScheduleSpec, at: Date, canBePaged: (user: string) => boolean): OnCallAmongAnswer {
  const t = instantMs(at, 'at');
  const compiled = compileSchedule(spec);
  const passedOver: OnCallAmongAnswer['passedOver'] = [];
  const layerIndex = compiled.layers.map((_, i) => i);
  const usable: CompiledSchedule = { layers: [...compiled.layers], overrides: [] };
  usable.overrides = compiled.overrides.filter((o) => canBePaged(o.user));
  // The overrides that would have won at t, latest first, until one names someone who can be paged.
  for (let i = compiled.overrides.length - 1; i >= 0; i--) {
    const o = compiled.overrides[i]!;
    if (o.start > t || t >= o.end) continue;
    if (canBePaged(o.user)) break;
    passedOver.push({ user: o.user, source: 'override', layer_name: null });
  }
  for (;;) {
    const w = winnerAt(usable, t);
    if (w === null) return { answer: null, passedOver };
    const layer = w.layer === null ? null : layerIndex[w.layer]!;
    if (canBePaged(w.user)) {
      return {
        answer: {
          user: w.user,
          source: w.source,
          layer,
          layer_name: w.layer_name,
          shift_start: new Date(w.start),
          shift_end: new Date(w.end),
        },
        passedOver,
      };
    }
    // Only a layer can win here (overrides were filtered): drop it and ask the layers below.
    passedOver.push({ user: w.user, source: w.source, layer_name: w.layer_name });
    usable.layers.splice(w.layer!, 1);
    layerIndex.splice(w.layer!, 1);
  }
}
