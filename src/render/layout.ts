import { esc, lines, safeHttpUrl, timeTag } from './html';
import { renderStyles, resolveTheme } from './styles';
import type { PageHeader } from '../domain/status-page/model';

export interface DocumentParts {
  title: string;
  header: PageHeader | null;
  /** Adds the Atom/RSS alternate links to the head. */
  feeds: boolean;
  headerHtml: string;
  mainHtml: string;
  generatedAt: string | null;
  /** The page refreshes its content every this many seconds while open (/live.js; nothing without script). */
  live?: number;
}

export function htmlDocument(d: DocumentParts): string {
  const feedTitle = esc(d.header?.title ?? 'Status');
  const feeds = d.feeds
    ? `<link rel="alternate" type="application/atom+xml" href="/feed.atom" title="${feedTitle} (Atom)">
<link rel="alternate" type="application/rss+xml" href="/feed.rss" title="${feedTitle} (RSS)">
`
    : '';
  const zone = d.header?.time_zone ?? 'UTC';
  // /live.js rewrites the times into the visitor's zone and this note with them.
  const updated = d.generatedAt
    ? `\n<p>Last updated ${timeTag(d.generatedAt, zone)}</p>\n<p class="zone-note" data-zone-note>Times are shown in ${esc(zone)}.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${esc(d.title)}</title>
${feeds}${d.live ? '<script src="/live.js" defer></script>\n' : ''}<style>
${renderStyles(resolveTheme(d.header?.branding ?? null))}
</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
${d.headerHtml}
<main id="main" tabindex="-1"${d.live ? ` data-live-seconds="${d.live}"` : ''}>
<div class="wrap">
${d.mainHtml}
</div>
</main>
<footer class="site-footer">
<div class="wrap">
<p>Powered by Vigil</p>${updated}
</div>
</footer>
</body>
</html>
`;
}

export interface HeaderOptions {
  /** The page title is the document's h1 (the status page); elsewhere main holds the h1. */
  titleIsHeading: boolean;
  subscribe: boolean;
  viewerName: string | null;
}

const SUBSCRIBE_FORM = `<form class="subscribe" method="post" action="/subscribe">
<label for="subscribe-email">Get incident updates by email</label>
<div class="subscribe-row"><input id="subscribe-email" type="email" name="email" required autocomplete="email" inputmode="email"><button type="submit">Subscribe</button></div>
</form>`;

export function siteHeader(h: PageHeader, o: HeaderOptions): string {
  // https only: the pages' Content-Security-Policy allows no other image source.
  const logoUrl = h.branding.logo_url ? safeHttpUrl(h.branding.logo_url, ['https:']) : null;
  const logo = logoUrl ? `<img class="logo" src="${esc(logoUrl)}" alt="${esc(h.title)} logo" height="40">` : '';
  const titleTag = o.titleIsHeading ? 'h1' : 'p';
  const links = [
    '<li><a href="/history">Incident history</a></li>',
    '<li><a href="/feed.atom">Atom feed</a></li>',
    '<li><a href="/feed.rss">RSS feed</a></li>',
    ...h.links.flatMap((l) => {
      const url = safeHttpUrl(l.url);
      return url ? [`<li><a href="${esc(url)}">${esc(l.label)}</a></li>`] : [];
    }),
  ];
  return lines(
    '<header class="site-header">',
    '<div class="wrap">',
    `<div class="brand">${logo}<${titleTag} class="site-title"><a href="/">${esc(h.title)}</a></${titleTag}></div>`,
    h.description ? `<p class="description">${esc(h.description)}</p>` : '',
    o.viewerName !== null ? `<p class="viewer">Signed in as <strong>${esc(o.viewerName)}</strong></p>` : '',
    '<nav aria-label="Status page"><ul class="links">',
    ...links,
    '</ul></nav>',
    o.subscribe ? SUBSCRIBE_FORM : '',
    '</div>',
    '</header>',
  );
}

/** Header of pages that belong to no status page (unknown subdomain). */
export function plainHeader(): string {
  return `<header class="site-header">
<div class="wrap"><p class="site-title">Status</p></div>
</header>`;
}
