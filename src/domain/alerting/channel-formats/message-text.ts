/**
 * The words every channel format shares: the headline, the facts (status, subject, metric…),
 * the link buttons, the colour tone and safe truncation. Vendors differ only in how they lay
 * these out and in how text is escaped.
 */
import type { AlertMessage } from '../alert-message';

export const ELLIPSIS = '…';

/**
 * `text` cut to at most `max` UTF-16 units after `escape` (the strictest way vendors count),
 * ending in an ellipsis when cut. Cuts between code points, never inside a surrogate pair or an
 * escape sequence.
 */
export function fit(text: string, max: number, escape: (s: string) => string = (s) => s): string {
  const whole = escape(text);
  if (whole.length <= max) return whole;
  let out = '';
  for (const ch of text) {
    const piece = escape(ch);
    if (out.length + piece.length + ELLIPSIS.length > max) break;
    out += piece;
  }
  return out + ELLIPSIS;
}

/** HTML text and attribute values (the alert email; Opsgenie, which renders HTML in its alerts). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Line breaks and tabs become spaces: for headers, subjects and titles. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ').trim();
}

export function actionLabel(msg: AlertMessage): string {
  switch (msg.action) {
    case 'trigger':
      return 'Triggered';
    case 'escalate':
      return `Escalated to level ${msg.level}`;
    case 'acknowledge':
      return 'Acknowledged';
    case 'resolve':
      return 'Resolved';
    case 'test':
      return 'Test notification';
  }
}

export function headline(msg: AlertMessage): string {
  return oneLine(`${actionLabel(msg)}: ${msg.title}`);
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value) || Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** 'p95 latency: 1234.5 ms', or 'p95 latency: no value'. */
export function metricLine(metric: NonNullable<AlertMessage['metric']>): string {
  const value = metric.value === null ? 'no value' : `${formatNumber(metric.value)}${metric.unit ? ` ${metric.unit}` : ''}`;
  return `${metric.name}: ${value}`;
}

/** The instant at whole seconds, `2026-03-02T13:08:45Z`; null when `iso` is not a date. */
export function isoSeconds(iso: string): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** '2026-03-02 13:08:45 UTC' (or the input as given when it is not a date). */
export function readableTime(iso: string): string {
  const s = isoSeconds(iso);
  return s ? `${s.slice(0, 10)} ${s.slice(11, 19)} UTC` : iso;
}

export interface Fact {
  label: string;
  value: string;
}

/** Status, subject, severity, metric, reason, level, organization and actor, in display order. */
export function facts(msg: AlertMessage): Fact[] {
  const out: Fact[] = [
    { label: 'Status', value: msg.status },
    { label: 'Subject', value: `${msg.subject.name} (${msg.subject.kind})` },
    { label: 'Severity', value: msg.severity },
  ];
  if (msg.metric) {
    out.push({ label: 'Metric', value: metricLine(msg.metric) });
    if (msg.metric.reason) out.push({ label: 'Reason', value: msg.metric.reason });
  }
  out.push({ label: 'Escalation level', value: String(msg.level) });
  out.push({ label: 'Organization', value: msg.organization.name });
  if (msg.actor && msg.action === 'acknowledge') out.push({ label: 'Acknowledged by', value: msg.actor });
  if (msg.actor && msg.action === 'resolve') out.push({ label: 'Resolved by', value: msg.actor });
  return out.map((f) => ({ label: f.label, value: oneLine(f.value) || '-' }));
}

export interface LinkButton {
  kind: 'open' | 'acknowledge' | 'resolve';
  label: string;
  url: string;
}

const httpUrl = (url: string | null): url is string => url !== null && /^https?:\/\/[^\s]+$/i.test(url);

/**
 * Open alert always; acknowledge while the alert may still need it (not once acknowledged or
 * resolved); resolve until resolved. Only absolute http(s) links are offered.
 */
export function linkButtons(msg: AlertMessage): LinkButton[] {
  const out: LinkButton[] = [];
  if (httpUrl(msg.links.alert)) out.push({ kind: 'open', label: 'Open alert', url: msg.links.alert });
  const open = msg.action === 'trigger' || msg.action === 'escalate' || msg.action === 'test';
  if (open && httpUrl(msg.links.acknowledge)) out.push({ kind: 'acknowledge', label: 'Acknowledge', url: msg.links.acknowledge });
  if (msg.action !== 'resolve' && httpUrl(msg.links.resolve)) out.push({ kind: 'resolve', label: 'Resolve', url: msg.links.resolve });
  return out;
}

export type Tone = 'danger' | 'warning' | 'info' | 'good' | 'acknowledged' | 'test';

/** The colour family of a message: by what happened, then by the subject's status and the rule's severity. */
export function tone(msg: AlertMessage): Tone {
  if (msg.action === 'resolve' || msg.status === 'healthy') return 'good';
  if (msg.action === 'acknowledge') return 'acknowledged';
  if (msg.action === 'test') return 'test';
  if (msg.status === 'degraded') return 'warning';
  return msg.severity === 'critical' ? 'danger' : msg.severity;
}

export const TONE_RGB: Record<Tone, number> = {
  danger: 0xd92d20,
  warning: 0xf79009,
  info: 0x2e90fa,
  good: 0x12b76a,
  acknowledged: 0x7a5af8,
  test: 0x667085,
};

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
