/**
 * An alert metric's source_config: which alert is its heartbeat, how long it may be missing and
 * how alert labels map to a severity. Pure, so metric creation and the webhook receiver check it alike.
 */
import { z } from 'zod';
import { type FieldError } from '../error-catalog';
import { type AlertHeartbeatConfig, DEFAULT_HEARTBEAT_TIMEOUT_SECONDS } from './alert-state';
import { ALERT_SEVERITIES, type SeverityMapping } from './webhook-formats';

export interface AlertMetricOptions extends AlertHeartbeatConfig {
  heartbeat_alert: string | null;
  heartbeat_timeout_seconds: number;
  severity_mapping: SeverityMapping;
}

const msg = (message: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : message);
const Severity = z.enum(ALERT_SEVERITIES, { error: msg(`Expected one of ${ALERT_SEVERITIES.join(', ')}`) });
const LabelName = z
  .string({ error: msg('Expected a label name') })
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'Expected a label name, e.g. severity');

export const AlertSourceConfigSchema = z.looseObject(
  {
    heartbeat_alert: z
      .string({ error: msg('Expected an alertname') })
      .max(256, 'At most 256 characters')
      .refine((s) => s.trim() !== '', 'Must not be empty')
      .nullish()
      .describe(
        'alertname of an always-firing alert (e.g. Watchdog); when it stops arriving the metric is no_data alert_heartbeat_missing',
      ),
    heartbeat_timeout_seconds: z
      .int({ error: msg('Expected seconds, an integer 10..86400') })
      .min(10, 'Expected seconds, an integer 10..86400')
      .max(86_400, 'Expected seconds, an integer 10..86400')
      .nullish()
      .describe(
        `How long without the heartbeat alert before it counts as missing; default ${DEFAULT_HEARTBEAT_TIMEOUT_SECONDS}`,
      ),
    severity_mapping: z
      .strictObject(
        {
          labels: z
            .array(LabelName, { error: msg('Expected a list of label names') })
            .min(1, 'List at least one label')
            .max(10, 'At most 10 labels')
            .optional(),
          values: z
            .record(z.string().min(1, 'Empty label value').max(256, 'At most 256 characters'), Severity, {
              error: msg('Expected an object of label value → none, degraded or unhealthy'),
            })
            .refine((v) => Object.keys(v).length <= 100, 'At most 100 values')
            .optional(),
          fallback: Severity.optional(),
        },
        {
          error: (iss) =>
            iss.input === undefined
              ? 'Required'
              : iss.code === 'unrecognized_keys'
                ? 'Unknown field: expected labels, values, fallback'
                : 'Expected an object',
        },
      )
      .nullish()
      .describe(
        'How an alert label maps to a severity; default: severity/priority labels, critical → unhealthy, warning → degraded, info → none',
      ),
  },
  { error: msg('Expected an object') },
);

export type AlertOptionsResult = { ok: true; options: AlertMetricOptions } | { ok: false; errors: FieldError[] };

/** Checks an alert metric's source_config (paths as `source_config.…`); usable at metric creation too. */
export function validateAlertSourceConfig(config: unknown): AlertOptionsResult {
  const parsed = AlertSourceConfigSchema.safeParse(config ?? {}, {
    error: (iss) => (iss.input === undefined ? 'Required' : undefined),
  });
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => ({
        path: ['source_config', ...i.path.map(String)].join('.'),
        message: i.message,
      })),
    };
  const c = parsed.data;
  return {
    ok: true,
    options: {
      heartbeat_alert: c.heartbeat_alert?.trim() || null,
      heartbeat_timeout_seconds: c.heartbeat_timeout_seconds ?? DEFAULT_HEARTBEAT_TIMEOUT_SECONDS,
      severity_mapping: c.severity_mapping ?? {},
    },
  };
}
