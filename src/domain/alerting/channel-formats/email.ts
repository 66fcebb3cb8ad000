/**
 * The alert email: a plain-text and an HTML part saying the same thing, with the one-click
 * acknowledge link. No external assets (images, fonts, stylesheets); inline styles only, since
 * mail clients drop <style> and block remote content.
 */
import type { AlertMessage } from '../alert-message';
import { escapeHtml, facts, fit, headline, linkButtons, oneLine, readableTime, TONE_RGB, tone } from './message-text';

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

const BUTTON_LABEL = { open: 'Open alert', acknowledge: 'Acknowledge (one click)', resolve: 'Resolve' } as const;

export function emailMessage(msg: AlertMessage): EmailMessage {
  // oneLine keeps a CR/LF in a name from ever reaching the Subject header.
  const subject = fit(`[Vigil] ${headline(msg)}`, 250);
  const rows = [...facts(msg), { label: 'Occurred', value: readableTime(msg.occurredAt) }];
  const buttons = linkButtons(msg);
  const summary = oneLine(msg.summary);

  const text = [
    headline(msg),
    summary,
    '',
    ...rows.map((r) => `${r.label}: ${r.value}`),
    '',
    ...buttons.map((b) => `${BUTTON_LABEL[b.kind]}: ${b.url}`),
    '',
    '-- ',
    `Vigil · ${oneLine(msg.organization.name)}`,
    '',
  ].join('\n');

  const color = `#${TONE_RGB[tone(msg)].toString(16).padStart(6, '0')}`;
  const cell =
    'padding:4px 12px 4px 0;font:14px/1.4 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;vertical-align:top';
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f5f5f5">',
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;border-top:4px solid ${color};padding:24px">`,
    `<h1 style="margin:0 0 8px;font:600 20px/1.3 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#101828">${escapeHtml(headline(msg))}</h1>`,
    summary
      ? `<p style="margin:0 0 16px;font:14px/1.5 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#344054">${escapeHtml(summary)}</p>`
      : '',
    '<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 20px">',
    ...rows.map(
      (r) =>
        `<tr><td style="${cell};color:#667085">${escapeHtml(r.label)}</td><td style="${cell};color:#101828">${escapeHtml(r.value)}</td></tr>`,
    ),
    '</table>',
    '<p style="margin:0">',
    ...buttons.map(
      (b) =>
        `<a href="${escapeHtml(b.url)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 16px;border-radius:6px;text-decoration:none;font:600 14px -apple-system,Segoe UI,Helvetica,Arial,sans-serif;${
          b.kind === 'acknowledge' ? `background:${color};color:#ffffff` : 'background:#eaecf0;color:#101828'
        }">${escapeHtml(BUTTON_LABEL[b.kind])}</a>`,
    ),
    '</p>',
    `<p style="margin:16px 0 0;font:12px -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#667085">Vigil · ${escapeHtml(oneLine(msg.organization.name))}</p>`,
    '</div></body></html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject, text, html };
}
