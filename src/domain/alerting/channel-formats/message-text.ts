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
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
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
  const lasted = msg.action === 'resolve' ? outageDuration(msg) : null;
  // A resolved alert's title still says what was wrong ("… is down"): say how it ended instead.
  if (lasted !== null)
    return oneLine(
      `${actionLabel(msg)}: ${msg.subject.name} ${msg.status === 'healthy' ? 'recovered' : 'was resolved'} after ${duration(lasted)}`,
    );
  return oneLine(`${actionLabel(msg)}: ${msg.title}`);
}

/** '45 s', '4 min 12 s', '2 h 3 min', '3 d 4 h': the two largest units, never more. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const parts: [number, string][] = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3_600), 'h'],
    [Math.floor((s % 3_600) / 60), 'min'],
    [s % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first === -1) return '0 s';
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** How long the outage lasted (resolved) or has lasted so far (at the message's time); null without one. */
export function outageDuration(msg: AlertMessage): number | null {
  if (!msg.outage) return null;
  const start = Date.parse(msg.outage.startedAt);
  const end = Date.parse(msg.outage.endedAt ?? msg.occurredAt);
  return Number.isNaN(start) || Number.isNaN(end) ? null : end - start;
}

const zonedFormats = new Map<string, Intl.DateTimeFormat>();

/** '2026-12-01 23:23:37 CET' in `timeZone` (UTC when the zone is unknown). */
export function zonedTime(iso: string, timeZone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  let f = zonedFormats.get(timeZone);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    };
    try {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
    }
    zonedFormats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.timeZoneName}`;
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value) || Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** 'p95 latency: 1234.5 ms', or 'p95 latency: no value'. */
export function metricLine(metric: NonNullable<AlertMessage['metric']>): string {
  const value =
    metric.value === null ? 'no value' : `${formatNumber(metric.value)}${metric.unit ? ` ${metric.unit}` : ''}`;
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

/**
 * Status, who acted, target, since when (or how long it lasted), reason, confirming locations,
 * subject, severity, metric, level and organization, in display order. Who acknowledged or
 * resolved comes second: formats with a cap on fields (Slack's section takes 10) drop the tail.
 */
export function facts(msg: AlertMessage): Fact[] {
  const o = msg.outage ?? null;
  const lasted = outageDuration(msg);
  const out: Fact[] = [{ label: 'Status', value: msg.status }];
  if (msg.actor && msg.action === 'acknowledge') out.push({ label: 'Acknowledged by', value: msg.actor });
  if (msg.actor && msg.action === 'resolve') out.push({ label: 'Resolved by', value: msg.actor });
  if (o?.target) out.push({ label: 'Target', value: o.target });
  if (o && lasted !== null) {
    if (o.endedAt)
      out.push({
        label: 'Lasted',
        value: `${duration(lasted)} (${zonedTime(o.startedAt, o.timeZone)} to ${zonedTime(o.endedAt, o.timeZone)})`,
      });
    else out.push({ label: 'Since', value: `${zonedTime(o.startedAt, o.timeZone)} (${duration(lasted)} so far)` });
  }
  if (o?.reason) out.push({ label: 'Reason', value: `${o.reason.words} (${o.reason.code})` });
  if (o?.confirmedBy?.failing.length)
    out.push({
      label: 'Confirmed by',
      value: `${o.confirmedBy.failing.join(', ')} (${o.confirmedBy.failing.length} of ${o.confirmedBy.voting} locations)`,
    });
  out.push(
    { label: 'Subject', value: `${msg.subject.name} (${msg.subject.kind})` },
    { label: 'Severity', value: msg.severity },
  );
  if (msg.metric) {
    out.push({ label: 'Metric', value: metricLine(msg.metric) });
    if (msg.metric.reason && !o?.reason) out.push({ label: 'Reason', value: msg.metric.reason });
  }
  out.push({ label: 'Escalation level', value: String(msg.level) });
  out.push({ label: 'Organization', value: msg.organization.name });
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
  if (open && httpUrl(msg.links.acknowledge))
    out.push({ kind: 'acknowledge', label: 'Acknowledge', url: msg.links.acknowledge });
  if (msg.action !== 'resolve' && httpUrl(msg.links.resolve))
    out.push({ kind: 'resolve', label: 'Resolve', url: msg.links.resolve });
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
