import { z } from 'zod';
import { DateTime, Uuid } from './common';

const Window = z
  .union([
    z.strictObject({ kind: z.literal('rolling'), days: z.int().min(1).max(366) }),
    z.strictObject({
      kind: z.literal('calendar_month'),
      timezone: z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Berlin'),
    }),
  ])
  .describe('A rolling window of whole days ending now, or the calendar month containing now in a time zone.');
const Objective = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,6})?$/, 'A percent as a decimal string, e.g. "99.9"')
  .describe('Percent of good time, as a decimal string');
const NoData = z.enum(['bad', 'good', 'excluded']).describe('How no_data time counts (default excluded)');
const Maintenance = z
  .enum(['excluded', 'good', 'counted'])
  .describe('How time inside maintenance windows counts (default excluded; counted ignores the windows)');
const Degraded = z.enum(['good', 'bad']).describe('How degraded time counts (default good)');

/** The same handle rule as on create (and as services, customers and metrics have). */
const ConfigKey = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/);

export const SloCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    config_key: ConfigKey.nullable().optional(),
    metric_id: Uuid.nullable().optional(),
    service_id: Uuid.nullable().optional(),
    objective: Objective,
    window: Window,
    no_data: NoData.optional(),
    maintenance: Maintenance.optional(),
    degraded: Degraded.optional(),
  })
  .meta({ id: 'SloCreate' });

export const SloPatchBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    config_key: ConfigKey.nullable().optional(),
    objective: Objective.optional(),
    window: Window.optional(),
    no_data: NoData.optional(),
    maintenance: Maintenance.optional(),
    degraded: Degraded.optional(),
  })
  .meta({ id: 'SloPatch' });

export const SloSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    config_key: z.string().nullable(),
    metric_id: Uuid.nullable(),
    service_id: Uuid.nullable(),
    objective: z.string(),
    window: z.union([
      z.object({ kind: z.literal('rolling'), days: z.int() }),
      z.object({ kind: z.literal('calendar_month'), timezone: z.string() }),
    ]),
    no_data: NoData,
    maintenance: Maintenance,
    degraded: Degraded,
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
    attainment: z
      .object({
        period_start: DateTime,
        period_end: DateTime,
        period_label: z.string().nullable(),
        attainment: z
          .string()
          .nullable()
          .describe(
            'Percent of counted time that was good, 3 decimals, rounded down; null when nothing was counted yet',
          ),
        met: z.boolean(),
        good_ms: z.number(),
        bad_ms: z.number(),
        excluded_ms: z.number(),
        error_budget_total_ms: z.number(),
        error_budget_remaining_ms: z.number(),
        error_budget_remaining_pct: z.string().nullable(),
        burn_rate: z
          .string()
          .nullable()
          .describe('Share of the budget spent over share of the period elapsed: 1.000 spends it exactly by the end'),
      })
      .nullable(),
  })
  .meta({ id: 'Slo' });
