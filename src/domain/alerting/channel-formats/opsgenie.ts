/**
 * Opsgenie Alert API v2: create with an `alias`, then acknowledge and close by that alias.
 * https://docs.opsgenie.com/docs/alert-api (create, acknowledge, close; field limits)
 * https://docs.opsgenie.com/docs/authentication (GenieKey)
 * Opsgenie renders HTML in an alert's message and description
 * (https://docs.opsgenie.com/docs/alerts-and-alert-fields), so those and the note are HTML-escaped:
 * a name holding `<a href>` shows as text. `details`, entity and tags are plain values.
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import { escapeHtml, facts, fit, headline, JSON_HEADERS, linkButtons, oneLine, readableTime } from './message-text';

export const OPSGENIE_API_URLS = { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' } as const;
export const OPSGENIE_LIMITS = {
  message: 130,
  alias: 512,
  description: 15000,
  entity: 512,
  source: 100,
  user: 100,
  note: 25000,
  tags: 20,
  tag: 50,
  /** All keys and values of `details` together. */
  details: 8000,
} as const;

export type OpsgeniePriority = 'P1' | 'P2' | 'P3' | 'P4' | 'P5';

/** critical → P1 (P2 while the subject is only degraded), warning → P3, info → P5; a test is P5. */
export function opsgeniePriority(msg: AlertMessage): OpsgeniePriority {
  if (msg.action === 'test') return 'P5';
  if (msg.severity === 'critical') return msg.status === 'degraded' ? 'P2' : 'P1';
  return msg.severity === 'warning' ? 'P3' : 'P5';
}

const tag = (s: string) => fit(s.trim().replace(/\s+/g, '_'), OPSGENIE_LIMITS.tag);

function description(msg: AlertMessage): string {
  const lines = [
    oneLine(msg.summary),
    '',
    ...facts(msg).map((f) => `${f.label}: ${f.value}`),
    `Occurred: ${readableTime(msg.occurredAt)}`,
    '',
    ...linkButtons(msg).map((b) => `${b.label}: ${b.url}`),
  ];
  return fit(lines.join('\n'), OPSGENIE_LIMITS.description, escapeHtml);
}

function details(msg: AlertMessage): Record<string, string> {
  const out: Record<string, string> = {
    vigil_alert_id: msg.alertId,
    action: msg.action,
    status: msg.status,
    severity: msg.severity,
    escalation_level: String(msg.level),
    subject_kind: fit(msg.subject.kind, 100),
    subject_id: fit(msg.subject.id, 200),
    subject_name: fit(oneLine(msg.subject.name), 500),
    organization: fit(oneLine(msg.organization.name), 300),
    occurred_at: msg.occurredAt.slice(0, 100),
  };
  if (msg.metric) {
    out.metric = fit(oneLine(msg.metric.name), 500);
    if (msg.metric.value !== null) out.metric_value = String(msg.metric.value);
    if (msg.metric.unit) out.metric_unit = fit(msg.metric.unit, 50);
    if (msg.metric.reason) out.reason = fit(oneLine(msg.metric.reason), 1000);
  }
  // Links last: the first ones dropped if the total would pass the limit.
  const size = (d: Record<string, string>) => Object.entries(d).reduce((n, [k, v]) => n + k.length + v.length, 0);
  for (const b of linkButtons(msg)) {
    const key = `${b.kind === 'open' ? 'alert' : b.kind}_url`;
    if (size(out) + key.length + b.url.length <= OPSGENIE_LIMITS.details) out[key] = b.url;
  }
  return out;
}

const authorized = (apiKey: string) => ({ ...JSON_HEADERS, authorization: `GenieKey ${apiKey}` });

/** `apiBase` is `https://api.opsgenie.com` or `https://api.eu.opsgenie.com` (or a test receiver). */
export function opsgenieRequest(apiBase: string, apiKey: string, msg: AlertMessage): ChannelRequest {
  const base = apiBase.replace(/\/+$/, '');
  const alias = msg.dedupKey.slice(0, OPSGENIE_LIMITS.alias);
  if (msg.action === 'acknowledge' || msg.action === 'resolve') {
    const verb = msg.action === 'acknowledge' ? 'acknowledge' : 'close';
    const body: Record<string, string> = {
      source: 'Vigil',
      note: fit(
        `${msg.action === 'acknowledge' ? 'Acknowledged' : 'Resolved'} in Vigil${msg.actor ? ` by ${oneLine(msg.actor)}` : ''}`,
        OPSGENIE_LIMITS.note,
        escapeHtml,
      ),
    };
    if (msg.actor) body.user = fit(oneLine(msg.actor), OPSGENIE_LIMITS.user);
    return {
      method: 'POST',
      url: `${base}/v2/alerts/${encodeURIComponent(alias)}/${verb}?identifierType=alias`,
      headers: authorized(apiKey),
      body: JSON.stringify(body),
    };
  }
  const body: Record<string, unknown> = {
    message: fit(
      msg.action === 'test' ? headline(msg) : oneLine(msg.title) || headline(msg),
      OPSGENIE_LIMITS.message,
      escapeHtml,
    ),
    alias,
    description: description(msg),
    priority: opsgeniePriority(msg),
    source: 'Vigil',
    entity: fit(oneLine(msg.subject.name) || msg.subject.id, OPSGENIE_LIMITS.entity),
    tags: ['vigil', `status:${msg.status}`, `severity:${msg.severity}`, `kind:${msg.subject.kind}`]
      .map(tag)
      .slice(0, OPSGENIE_LIMITS.tags),
    details: details(msg),
  };
  // Opsgenie folds a create with an open alias into the open alert; the note says why it came again.
  if (msg.action === 'escalate') body.note = `Escalated to level ${msg.level}`;
  return { method: 'POST', url: `${base}/v2/alerts`, headers: authorized(apiKey), body: JSON.stringify(body) };
}
