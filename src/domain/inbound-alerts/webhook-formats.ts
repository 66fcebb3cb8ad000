/**
 * Inbound alert webhooks (spec §4.1 source_type alert): an Alertmanager `webhook_config` payload
 * (version "4"), a Grafana unified-alerting webhook payload, or a legacy Grafana (pre-8) alert
 * notification, detected by shape and normalized to one list of alerts.
 *
 * Detection: a body with an `alerts` field is Alertmanager, or Grafana when it carries a field only
 * Grafana sends (`orgId`, `state`, `title`, or per alert `values`, `valueString`, `silenceURL`,
 * `dashboardURL`, `panelURL`); a body without `alerts` but with `evalMatches`, `ruleId`, `ruleName`
 * or a `state` is legacy Grafana. Anything else is refused.
 *
 * Validation: the fields read are checked strictly, the other documented fields only for their type
 * when present, unknown fields pass. Failures list each problem with its path (`alerts.0.status`;
 * '' is the body itself), as `validation_failed` answers do.
 *
 * Normalization:
 * - `name` is the `alertname` label ('' when absent); legacy Grafana uses `ruleName`, else `title`.
 * - `fingerprint` is the payload's when given, else the Prometheus label-set fingerprint (FNV-1a 64
 *   over the labels sorted by name, each name and value followed by byte 0xff; 16 hex digits), which
 *   is what Alertmanager itself would send for those labels. Legacy Grafana has no labels: the
 *   fingerprint covers alertname = rule name plus rule_id, org_id, dashboard_id and panel_id when
 *   present (not the tags, which an edit may change).
 * - `startsAt`/`endsAt` are ISO strings in UTC, or null when absent or Go's zero time
 *   (0001-01-01T00:00:00Z, which both senders use for "no end yet" on a firing alert).
 * - Legacy Grafana `state`: alerting → firing; ok, paused (no longer evaluated) and pending (not
 *   firing yet) → resolved; no_data → firing as degraded (the source cannot tell whether the
 *   condition holds, which is neither healthy nor a proven breach).
 * - Severity comes from the first of the labels `severity`, `priority` (legacy: tags) that is set,
 *   its value compared case-insensitively: see DEFAULT_SEVERITY_VALUES. A missing label or an
 *   unknown value reads `unhealthy`: a firing alert is a problem unless labelled otherwise, the same
 *   stance as the thresholds (never hide a breach behind a looser rule). All three are configurable.
 */
import { z } from 'zod';
import type { FieldError } from '../error-catalog';

export const ALERT_SOURCES = ['alertmanager', 'grafana', 'grafana_legacy'] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

export const ALERT_SEVERITIES = ['none', 'degraded', 'unhealthy'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATUSES = ['firing', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export interface NormalizedAlert {
  fingerprint: string;
  name: string;
  status: AlertStatus;
  severity: AlertSeverity;
  startsAt: string | null;
  endsAt: string | null;
}

export interface NormalizedAlertBatch {
  source: AlertSource;
  alerts: NormalizedAlert[];
}

export type AlertWebhookResult = { ok: true; batch: NormalizedAlertBatch } | { ok: false; errors: FieldError[] };

/** Label value (lowercased) → severity. */
export const DEFAULT_SEVERITY_VALUES: Readonly<Record<string, AlertSeverity>> = {
  critical: 'unhealthy',
  error: 'unhealthy',
  page: 'unhealthy',
  high: 'unhealthy',
  p1: 'unhealthy',
  p2: 'unhealthy',
  warning: 'degraded',
  warn: 'degraded',
  medium: 'degraded',
  p3: 'degraded',
  minor: 'degraded',
  info: 'none',
  none: 'none',
  low: 'none',
  p4: 'none',
  p5: 'none',
};
export const DEFAULT_SEVERITY_LABELS = ['severity', 'priority'] as const;

export interface SeverityMapping {
  /** Label names read in order, the first one set wins; default severity, priority. */
  labels?: readonly string[];
  /** Value → severity, merged over DEFAULT_SEVERITY_VALUES; keys compared case-insensitively. */
  values?: Readonly<Record<string, AlertSeverity>>;
  /** For a missing label or an unknown value; default unhealthy. */
  fallback?: AlertSeverity;
}

export function severityOf(labels: Readonly<Record<string, string>>, mapping: SeverityMapping = {}): AlertSeverity {
  const fallback = mapping.fallback ?? 'unhealthy';
  const raw = (mapping.labels ?? DEFAULT_SEVERITY_LABELS)
    .map((l) => labels[l])
    .find((v) => v !== undefined && v.trim() !== '');
  if (raw === undefined) return fallback;
  const key = raw.trim().toLowerCase();
  const own = Object.entries(mapping.values ?? {}).find(([k]) => k.trim().toLowerCase() === key)?.[1];
  return own ?? (Object.hasOwn(DEFAULT_SEVERITY_VALUES, key) ? DEFAULT_SEVERITY_VALUES[key]! : fallback);
}

// ---- fingerprint: Prometheus' labelSetToFingerprint, without node:crypto ----

const FNV_OFFSET_64 = 0xcbf29ce484222325n;
const FNV_PRIME_64 = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;
const SEPARATOR_BYTE = 0xff;

/** UTF-8 bytes of a string; a lone surrogate becomes U+FFFD, as Go's JSON decoder reads it. */
function* utf8(s: string): Generator<number> {
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x80) yield c;
    else if (c < 0x800) yield* [0xc0 | (c >> 6), 0x80 | (c & 63)];
    else if (c < 0x10000) yield* [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
    else yield* [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
  }
}

export function fnv1a64(bytes: Iterable<number>, seed: bigint = FNV_OFFSET_64): bigint {
  let h = seed;
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME_64) & MASK_64;
  return h;
}

/** 16 hex digits; equal to Alertmanager's `fingerprint` for the same labels (ASCII label names). */
export function labelsFingerprint(labels: Readonly<Record<string, string>>): string {
  let h = FNV_OFFSET_64;
  for (const name of Object.keys(labels).sort()) {
    h = fnv1a64([...utf8(name), SEPARATOR_BYTE, ...utf8(labels[name]!), SEPARATOR_BYTE], h);
  }
  return h.toString(16).padStart(16, '0');
}

// ---- schemas ----

/** Error text for a field: 'Required' when absent, else `message`. */
const msg = (message: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : message);

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const Timestamp = z
  .string({ error: msg('Expected an RFC 3339 timestamp') })
  .refine((s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)), 'Expected an RFC 3339 timestamp');
const Labels = z.record(z.string(), z.string({ error: msg('Expected a string value') }), {
  error: msg('Expected an object of name → string'),
});
const Text = z.string({ error: msg('Expected a string') });
const Status = z.enum(ALERT_STATUSES, { error: msg('Expected firing or resolved') });
const Count = z.int({ error: msg('Expected an integer') }).min(0, 'Expected an integer ≥ 0');

const alertShape = {
  status: Status,
  labels: Labels,
  annotations: Labels.nullish(),
  startsAt: Timestamp.nullish(),
  endsAt: Timestamp.nullish(),
  generatorURL: Text.nullish(),
  fingerprint: Text.nullish(),
};
const groupShape = {
  receiver: Text.nullish(),
  status: Status,
  groupLabels: Labels.nullish(),
  commonLabels: Labels.nullish(),
  commonAnnotations: Labels.nullish(),
  externalURL: Text.nullish(),
  version: Text.nullish(),
  groupKey: Text.nullish(),
  truncatedAlerts: Count.nullish(),
};

export const AlertmanagerWebhookSchema = z.looseObject({
  ...groupShape,
  alerts: z.array(z.looseObject(alertShape), { error: msg('Expected an array of alerts') }),
});

const GrafanaAlert = z.looseObject({
  ...alertShape,
  values: z.record(z.string(), z.number().nullable(), { error: msg('Expected an object of ref → number') }).nullish(),
  valueString: Text.nullish(),
  dashboardURL: Text.nullish(),
  panelURL: Text.nullish(),
  silenceURL: Text.nullish(),
  imageURL: Text.nullish(),
});
export const GrafanaWebhookSchema = z.looseObject({
  ...groupShape,
  alerts: z.array(GrafanaAlert, { error: msg('Expected an array of alerts') }),
  orgId: Count.nullish(),
  state: Text.nullish(),
  title: Text.nullish(),
  message: Text.nullish(),
});

export const GRAFANA_LEGACY_STATES = ['alerting', 'ok', 'no_data', 'paused', 'pending'] as const;
const Id = Count.nullish();
export const GrafanaLegacyWebhookSchema = z
  .looseObject({
    state: z.enum(GRAFANA_LEGACY_STATES, { error: msg(`Expected one of ${GRAFANA_LEGACY_STATES.join(', ')}`) }),
    ruleId: Id,
    ruleName: Text.nullish(),
    ruleUrl: Text.nullish(),
    title: Text.nullish(),
    message: Text.nullish(),
    orgId: Id,
    dashboardId: Id,
    panelId: Id,
    imageUrl: Text.nullish(),
    tags: Labels.nullish(),
    evalMatches: z
      .array(z.looseObject({ value: z.number().nullable(), metric: Text, tags: Labels.nullish() }), {
        error: msg('Expected an array'),
      })
      .nullish(),
  })
  .refine((p) => p.ruleId != null || !!p.ruleName, {
    path: ['ruleName'],
    message: 'Required (or ruleId): the rule cannot be identified',
  });

// ---- detection and normalization ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const GRAFANA_TOP = ['orgId', 'state', 'title'];
const GRAFANA_ALERT = ['values', 'valueString', 'silenceURL', 'dashboardURL', 'panelURL'];

/** Which sender the body looks like, or null. Shape only: validation comes after. */
export function detectAlertWebhookSource(body: unknown): AlertSource | null {
  if (!isObject(body)) return null;
  if ('alerts' in body) {
    const alerts = Array.isArray(body.alerts) ? body.alerts : [];
    const grafana =
      GRAFANA_TOP.some((k) => k in body) || alerts.some((a) => isObject(a) && GRAFANA_ALERT.some((k) => k in a));
    return grafana ? 'grafana' : 'alertmanager';
  }
  if (['evalMatches', 'ruleId', 'ruleName', 'state'].some((k) => k in body)) return 'grafana_legacy';
  return null;
}

/** ISO string in UTC; null for absent values and Go's zero time (anything not after 1970). */
function isoOrNull(s: string | null | undefined): string | null {
  if (s == null) return null;
  const ms = Date.parse(s);
  return ms > 0 ? new Date(ms).toISOString() : null;
}

type UnifiedAlert = z.output<typeof AlertmanagerWebhookSchema>['alerts'][number];
function normalizeUnified(a: UnifiedAlert, mapping: SeverityMapping): NormalizedAlert {
  return {
    fingerprint: a.fingerprint ? a.fingerprint : labelsFingerprint(a.labels),
    name: a.labels.alertname ?? '',
    status: a.status,
    severity: severityOf(a.labels, mapping),
    startsAt: isoOrNull(a.startsAt),
    endsAt: isoOrNull(a.endsAt),
  };
}

function normalizeLegacy(p: z.output<typeof GrafanaLegacyWebhookSchema>, mapping: SeverityMapping): NormalizedAlert {
  const name = p.ruleName || p.title || '';
  const identity: Record<string, string> = { alertname: name };
  const ids = { rule_id: p.ruleId, org_id: p.orgId, dashboard_id: p.dashboardId, panel_id: p.panelId };
  for (const [k, v] of Object.entries(ids)) if (v != null) identity[k] = String(v);
  const mapped = severityOf(p.tags ?? {}, mapping);
  return {
    fingerprint: labelsFingerprint(identity),
    name,
    status: p.state === 'alerting' || p.state === 'no_data' ? 'firing' : 'resolved',
    severity: p.state === 'no_data' ? 'degraded' : mapped,
    startsAt: null,
    endsAt: null,
  };
}

function toErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
const requiredWhenAbsent = { error: (iss: { input?: unknown }) => (iss.input === undefined ? 'Required' : undefined) };

/** Detect, validate and normalize an alert webhook body. `mapping` tunes the severity rule. */
export function parseAlertWebhook(body: unknown, mapping: SeverityMapping = {}): AlertWebhookResult {
  const source = detectAlertWebhookSource(body);
  if (source === null) {
    const message = isObject(body)
      ? 'Not an Alertmanager or Grafana alert webhook: expected an `alerts` array (or a legacy Grafana `state`)'
      : 'Expected a JSON object';
    return { ok: false, errors: [{ path: '', message }] };
  }
  if (source === 'grafana_legacy') {
    const parsed = GrafanaLegacyWebhookSchema.safeParse(body, requiredWhenAbsent);
    return parsed.success
      ? { ok: true, batch: { source, alerts: [normalizeLegacy(parsed.data, mapping)] } }
      : { ok: false, errors: toErrors(parsed.error) };
  }
  const schema = source === 'grafana' ? GrafanaWebhookSchema : AlertmanagerWebhookSchema;
  const parsed = schema.safeParse(body, requiredWhenAbsent);
  if (!parsed.success) return { ok: false, errors: toErrors(parsed.error) };
  return { ok: true, batch: { source, alerts: parsed.data.alerts.map((a) => normalizeUnified(a, mapping)) } };
}
