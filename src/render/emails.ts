import { formatInZone } from './format-time';
import { esc } from './html';

/**
 * Subscriber emails of a status page: plain text plus simple inline-styled HTML. Every
 * interpolated value goes through `esc` in the HTML; every email ends with the unsubscribe link.
 */

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export type NotificationEvent =
  | {
      kind: 'incident';
      type: 'incident.published' | 'incident.message_added' | 'incident.resolved';
      title: string;
      severity: string;
      message: { type: string; body: string; posted_at: Date } | null;
      url: string;
    }
  | {
      kind: 'maintenance';
      type:
        | 'maintenance.scheduled'
        | 'maintenance.started'
        | 'maintenance.completed'
        | 'maintenance.canceled'
        | 'maintenance.message_added';
      title: string;
      description: string | null;
      /** maintenance.message_added: the update posted (shown instead of the description). */
      message?: { body: string; posted_at: Date } | null;
      scheduled_start_at: Date;
      scheduled_end_at: Date;
      url: string;
    };

const MAINTENANCE_LABELS = {
  'maintenance.scheduled': 'Scheduled maintenance',
  'maintenance.started': 'Maintenance in progress',
  'maintenance.completed': 'Maintenance completed',
  'maintenance.canceled': 'Maintenance canceled',
  'maintenance.message_added': 'Maintenance update',
} as const;

export function confirmationEmail(i: {
  pageTitle: string;
  pageUrl: string;
  confirmUrl: string;
  unsubscribeUrl: string;
  expiresAt: Date;
}): RenderedEmail {
  const expires = formatTime(i.expiresAt, 'UTC');
  const intro = `Someone (hopefully you) asked to receive status updates from ${i.pageTitle} at this address.`;
  const ignore = 'If that was not you, ignore this email and nothing will be sent.';
  const text = [
    intro,
    '',
    'Confirm your subscription by opening this link:',
    i.confirmUrl,
    '',
    `The link works until ${expires}.`,
    ignore,
    textFooter(i),
  ].join('\n');
  const html = layout(i, [
    `<p style="${P}">${esc(intro)}</p>`,
    `<p style="${P}"><a href="${esc(i.confirmUrl)}" style="${BUTTON}">Confirm subscription</a></p>`,
    `<p style="${P}">Or paste this link into your browser:<br><a href="${esc(i.confirmUrl)}" style="${LINK}">${esc(i.confirmUrl)}</a></p>`,
    `<p style="${MUTED}">The link works until ${esc(expires)}. ${esc(ignore)}</p>`,
  ]);
  return { subject: oneLine(`Confirm your subscription to ${i.pageTitle}`), text, html };
}

export function notificationEmail(i: {
  pageTitle: string;
  pageUrl: string;
  unsubscribeUrl: string;
  timeZone: string;
  event: NotificationEvent;
}): RenderedEmail {
  const e = i.event;
  const label = e.kind === 'incident' ? incidentLabel(e) : MAINTENANCE_LABELS[e.type];
  const details: [string, string][] = [];
  let body: string | null;
  if (e.kind === 'incident') {
    details.push(['Severity', e.severity]);
    if (e.message) details.push(['Posted', formatTime(e.message.posted_at, i.timeZone)]);
    body = e.message?.body ?? null;
  } else {
    if (e.message) details.push(['Posted', formatTime(e.message.posted_at, i.timeZone)]);
    details.push(
      ['Starts', formatTime(e.scheduled_start_at, i.timeZone)],
      ['Ends', formatTime(e.scheduled_end_at, i.timeZone)],
    );
    body = e.message ? e.message.body : e.description;
  }

  const text = [
    `${label}: ${e.title}`,
    '',
    ...details.map(([k, v]) => `${k}: ${v}`),
    ...(body ? ['', body] : []),
    '',
    `Details: ${e.url}`,
    textFooter(i),
  ].join('\n');
  const html = layout(i, [
    `<h2 style="margin:0 0 12px;font-size:18px;">${esc(label)}: ${esc(e.title)}</h2>`,
    `<p style="${P}">${details.map(([k, v]) => `<strong>${esc(k)}:</strong> ${esc(v)}`).join('<br>')}</p>`,
    body ? `<p style="${P}">${esc(body).replace(/\r?\n/g, '<br>')}</p>` : '',
    `<p style="${P}"><a href="${esc(e.url)}" style="${LINK}">View on ${esc(i.pageTitle)}</a></p>`,
  ]);
  return { subject: oneLine(`[${i.pageTitle}] ${label}: ${e.title}`), text, html };
}

function incidentLabel(e: Extract<NotificationEvent, { kind: 'incident' }>): string {
  if (e.type === 'incident.resolved') return 'Resolved';
  return e.message?.type || 'Incident';
}

/** The zone as Intl knows it (canonical spelling), or UTC when Intl does not know it. */
function validZone(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The page's own time format plus the zone's name, e.g. "5 Mar 2026, 14:30 CET (Europe/Berlin)". */
function formatTime(at: Date, timeZone: string): string {
  const zone = validZone(timeZone);
  const formatted = formatInZone(at.toISOString(), zone);
  return zone === 'UTC' ? formatted : `${formatted} (${zone})`;
}

function textFooter(i: { pageTitle: string; pageUrl: string; unsubscribeUrl: string }): string {
  return ['', '--', `${i.pageTitle}: ${i.pageUrl}`, `Unsubscribe: ${i.unsubscribeUrl}`].join('\n');
}

function layout(i: { pageTitle: string; pageUrl: string; unsubscribeUrl: string }, blocks: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px;background:#f4f5f7;">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:6px;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;">',
    `<p style="margin:0 0 16px;font-size:13px;color:#57606a;"><a href="${esc(i.pageUrl)}" style="${LINK}">${esc(i.pageTitle)}</a></p>`,
    ...blocks.filter(Boolean),
    `<p style="${MUTED}border-top:1px solid #d0d7de;padding-top:12px;">You receive this email because you subscribed to ${esc(i.pageTitle)}. <a href="${esc(i.unsubscribeUrl)}" style="${LINK}">Unsubscribe</a></p>`,
    '</div></body></html>',
  ].join('\n');
}

const P = 'margin:0 0 16px;';
const MUTED = 'margin:16px 0 0;font-size:13px;color:#57606a;';
const LINK = 'color:#0969da;';
const BUTTON =
  'display:inline-block;padding:10px 18px;background:#0969da;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;';

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
