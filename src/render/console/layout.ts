import { esc } from '../html';
import { CONSOLE_CSS } from './styles';
import { csrfField } from './forms';

export interface NavItem {
  href: string;
  label: string;
}

export interface ConsoleChrome {
  organization: string;
  email: string;
  role: string;
  csrf: string;
  nav: NavItem[];
  /** The nav entry to mark as the current page. */
  active: string;
  /** The user chose no zone: times are rendered in UTC and console.js rewrites them into the browser's. */
  browserZone?: boolean;
  /** The zone the user chose: console.js rewrites any time a page still renders in UTC into it. */
  timeZone?: string;
}

export interface ConsolePage {
  title: string;
  body: string;
  /** Shown once at the top (after a redirect): what just happened. */
  flash?: string | null;
  /** Refresh the page's content every this many seconds while it is open (console.js; nothing without script). */
  live?: number;
}

function document(
  title: string,
  header: string,
  body: string,
  zone: string | null = null,
  live: number | null = null,
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="referrer" content="same-origin">
<title>${esc(title)} · Vigil console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body${zone ? ` data-time-zone="${esc(zone)}"` : ''}>
<a class="skip-link" href="#main">Skip to main content</a>
${header}
<main id="main" tabindex="-1"${live ? ` data-live-seconds="${live}"` : ''}>
${body}
</main>
</body>
</html>`;
}

/** A page of the signed-in console: header with the organization and user, the role's navigation, the body. */
export function consolePage(chrome: ConsoleChrome, page: ConsolePage): string {
  const nav = chrome.nav
    .map(
      (n) =>
        `<li><a href="${esc(n.href)}"${n.href === chrome.active ? ' aria-current="page"' : ''}>${esc(n.label)}</a></li>`,
    )
    .join('');
  const header = `<header class="top">
<a class="brand" href="/console">Vigil · ${esc(chrome.organization)}</a>
<div><span class="muted">${esc(chrome.email)} (${esc(chrome.role)})</span>
<form class="inline" method="post" action="/console/sign-out">${csrfField(chrome.csrf)}<button class="secondary" type="submit">Sign out</button></form></div>
</header>
<nav class="main" aria-label="Console"><ul>${nav}</ul></nav>`;
  const flash = page.flash ? `<div class="flash" role="status">${esc(page.flash)}</div>\n` : '';
  return document(
    page.title,
    header,
    `${flash}<h1>${esc(page.title)}</h1>\n${page.body}`,
    chrome.browserZone ? 'browser' : chrome.timeZone && chrome.timeZone !== 'UTC' ? chrome.timeZone : null,
    page.live ?? null,
  );
}

/** A page outside a session (sign-in): no navigation. */
export function publicConsolePage(title: string, body: string): string {
  return document(
    title,
    `<header class="top"><span class="brand">Vigil console</span></header>`,
    `<h1>${esc(title)}</h1>\n${body}`,
  );
}

export { CONSOLE_CSS };
