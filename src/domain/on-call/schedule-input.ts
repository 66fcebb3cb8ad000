/**
 * Validation of a schedule as a client sends it (`/v1/on-call/schedules`), reporting every
 * problem with its field path. The value returned is what is stored and what onCallAt reads:
 * the time zone in its canonical spelling (`europe/berlin` → `Europe/Berlin`), `handoff_weekday`
 * filled in (1) for weekly rotations, `overrides` defaulted to [], and override instants written
 * as UTC (`2026-03-29T07:00:00.000Z`).
 *
 * Cross-field rules (shift_hours only with hourly, end_at after start_at) are checked once the
 * fields themselves are valid, so a first answer may not list them.
 */
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { assertIanaTimeZone } from '../sla/period';
import { fieldErrors, intBetween, nonBlank, orRequired, requiredMessage, type Validated } from './field-errors';
import type { ScheduleSpec } from './schedule';

export const MAX_LAYERS = 10;
export const MAX_PARTICIPANTS = 50;
export const MAX_OVERRIDES = 1_000;

function canonicalZone(zone: string): string | null {
  try {
    return assertIanaTimeZone(zone);
  } catch {
    return null;
  }
}

function instantOf(value: string): number | null {
  try {
    return Temporal.Instant.from(value).epochMilliseconds;
  } catch {
    return null;
  }
}

function isLocalDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '1970-01-01') return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

const instant = z.string().refine((s) => instantOf(s) !== null, {
  error: 'must be an ISO 8601 date-time with an offset, e.g. 2026-03-29T09:00:00Z',
});

const RotationSchema = z
  .strictObject({
    kind: z.enum(['daily', 'weekly', 'hourly'], { error: orRequired("must be 'daily', 'weekly' or 'hourly'") }),
    shift_hours: intBetween(1, 168, 'must be a whole number of hours from 1 to 168').optional(),
    handoff_time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be HH:MM in 24-hour local time, 00:00 to 23:59' }),
    handoff_weekday: intBetween(1, 7, 'must be an ISO weekday from 1 (Monday) to 7 (Sunday)').optional(),
    starts_on: z.string().refine(isLocalDate, { error: 'must be a calendar date YYYY-MM-DD, 1970-01-01 or later' }),
    participants: z
      .array(nonBlank(320), { error: orRequired('must be a list of users') })
      .min(1, { error: 'must name at least one participant' })
      .max(MAX_PARTICIPANTS, { error: `must name at most ${MAX_PARTICIPANTS} participants` }),
  })
  .superRefine((r, ctx) => {
    if (r.kind === 'hourly' && r.shift_hours === undefined)
      ctx.addIssue({ code: 'custom', path: ['shift_hours'], message: 'is required when kind is hourly' });
    if (r.kind !== 'hourly' && r.shift_hours !== undefined)
      ctx.addIssue({ code: 'custom', path: ['shift_hours'], message: 'is only allowed when kind is hourly' });
    if (r.kind !== 'weekly' && r.handoff_weekday !== undefined)
      ctx.addIssue({ code: 'custom', path: ['handoff_weekday'], message: 'is only allowed when kind is weekly' });
  });

const OverrideSchema = z
  .strictObject({ user: nonBlank(320), start_at: instant, end_at: instant })
  .superRefine((o, ctx) => {
    if (instantOf(o.end_at)! <= instantOf(o.start_at)!)
      ctx.addIssue({ code: 'custom', path: ['end_at'], message: 'must be after start_at' });
  });

export const ScheduleSpecSchema = z.strictObject({
  timezone: z
    .string()
    .refine((s) => canonicalZone(s) !== null, { error: 'must be an IANA time zone such as Europe/Berlin' }),
  layers: z
    .array(z.strictObject({ name: nonBlank(100), rotation: RotationSchema }), {
      error: orRequired('must be a list of layers'),
    })
    .min(1, { error: 'must hold at least one layer' })
    .max(MAX_LAYERS, { error: `must hold at most ${MAX_LAYERS} layers` }),
  overrides: z
    .array(OverrideSchema, { error: orRequired('must be a list of overrides') })
    .max(MAX_OVERRIDES, { error: `must hold at most ${MAX_OVERRIDES} overrides` })
    .optional(),
});

export function validateSchedule(input: unknown): Validated<ScheduleSpec> {
  const parsed = ScheduleSpecSchema.safeParse(input, { error: requiredMessage });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  const spec = parsed.data;
  return {
    ok: true,
    value: {
      timezone: canonicalZone(spec.timezone)!,
      layers: spec.layers.map((layer) => ({
        name: layer.name,
        rotation:
          layer.rotation.kind === 'weekly'
            ? { ...layer.rotation, handoff_weekday: layer.rotation.handoff_weekday ?? 1 }
            : { ...layer.rotation },
      })),
      overrides: (spec.overrides ?? []).map((o) => ({
        user: o.user,
        start_at: new Date(instantOf(o.start_at)!).toISOString(),
        end_at: new Date(instantOf(o.end_at)!).toISOString(),
      })),
    },
  };
}
