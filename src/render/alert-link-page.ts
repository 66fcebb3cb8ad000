import { esc } from './html';

export type AlertLinkPageModel =
  | { kind: 'invalid' | 'expired' }
  | { kind: 'revoked'; title: string; why: string }
  | {
      kind: 'confirm' | 'used' | 'done' | 'already' | 'failed';
      title: string;
      action: 'acknowledge' | 'resolve';
      state: string;
      by?: string | null;
      at?: string;
      alertId?: string;
      detail?: string;
    };

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.3rem}button{font:inherit;padding:.5rem 1.2rem;border-radius:6px;border:1px solid #1f2328;background:#1f2328;color:#fff;cursor:pointer}.muted{color:#59636e}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)} · Vigil</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/**
 * The page behind a one-click link in an alert notification. A GET shows what the link will do
 * and a button that POSTs to the same URL; only the POST acts (chat unfurls and mail scanners
 * fetch links, and must never acknowledge anything).
 */
export function alertLinkPage(m: AlertLinkPageModel): string {
  switch (m.kind) {
    case 'invalid':
      return page(
        'Link not valid',
        '<h1>This link is not valid</h1><p>It may have been cut short when it was copied. Open the alert in the Vigil console instead.</p>',
      );
    case 'expired':
      return page(
        'Link expired',
        '<h1>This link has expired</h1><p>One-click links work for 24 hours. Open the alert in the Vigil console instead.</p>',
      );
    case 'revoked':
      return page(
        'Link no longer valid',
        `<h1>This link no longer works</h1><p>It was sent about “${esc(m.title)}”, but ${esc(m.why)}. Sign in to the Vigil console to act on the alert.</p>`,
      );
    case 'used':
      return page(
        'Link already used',
        `<h1>This link was already used</h1><p>“${esc(m.title)}” is now <strong>${esc(m.state)}</strong>. Each link works once.</p>`,
      );
    case 'already':
      return page(
        'Already resolved',
        `<h1>Already resolved</h1><p>“${esc(m.title)}” was resolved${m.by ? ` by ${esc(m.by)}` : ''}. Nothing to do.</p>`,
      );
    case 'confirm': {
      const verb = m.action === 'acknowledge' ? 'Acknowledge' : 'Resolve';
      return page(
        `${verb} alert`,
        `<h1>${verb} “${esc(m.title)}”?</h1><p class="muted">The alert is <strong>${esc(m.state)}</strong>. ${
          m.action === 'acknowledge'
            ? 'Acknowledging stops the escalation; nobody else is paged.'
            : 'Resolving ends the alert and tells everyone who was paged.'
        }</p><form method="post"><button type="submit">${verb}</button></form>`,
      );
    }
    case 'done': {
      const when = m.at
        ? ` at <time datetime="${esc(m.at)}">${esc(m.at.slice(0, 19).replace('T', ' '))} UTC</time>`
        : '';
      const who = m.by ? ` by ${esc(m.by)}` : '';
      const open = m.alertId
        ? `<p><a href="/console/alerts/${esc(encodeURIComponent(m.alertId))}">Open the alert in the console</a></p>`
        : '';
      return page(
        'Done',
        `<h1>${m.action === 'acknowledge' ? 'Acknowledged' : 'Resolved'}</h1><p>“${esc(m.title)}” is now <strong>${esc(m.state)}</strong>${who}${when}.</p>${open}`,
      );
    }
    case 'failed':
      return page(
        'Could not act',
        `<h1>That did not work</h1><p>“${esc(m.title)}”: ${esc(m.detail ?? 'the alert could not be changed')}.</p>`,
      );
  }
}
