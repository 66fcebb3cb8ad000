import { esc, safeHttpUrl } from '../../html';
import { exportLink, managedMarker } from '../config-as-code';
import { link, pager, table, zonedTime } from '../parts';

export interface ConsoleStatusPage {
  id: string;
  title: string;
  subdomain: string;
  description: string | null;
  time_zone: string;
  /** The live page: `<subdomain>.<STATUS_HOST>`. */
  url: string;
  feeds: { atom: string; rss: string };
  /** Pages with a viewer key show private components only to signed-in viewers. */
  private_components: boolean;
  config_key: string | null;
  created_at: string;
}

export const statusPageHref = (id: string) => `/console/status-pages/${encodeURIComponent(id)}`;

/** An external link (opened as any link is; never script). */
function outLink(url: string, text: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `<a href="${esc(safe)}" rel="noopener">${esc(text)}</a>` : esc(text);
}

/** `zone`: the viewer's, which every time on the page is shown in. */
export function statusPageListBody(
  pages: ConsoleStatusPage[],
  nextCursor: string | null,
  canWrite: boolean,
  zone: string,
): string {
  const rows = pages.map((p) => [
    `${link(statusPageHref(p.id), p.title)}${managedMarker(p.config_key)}${p.description ? `<br><span class="muted">${esc(p.description)}</span>` : ''}`,
    `<code>${esc(p.subdomain)}</code>`,
    `${outLink(p.url, p.url)}${p.private_components ? '<br><span class="muted">with a viewer key</span>' : ''}`,
    `${outLink(p.feeds.atom, 'Atom')}, ${outLink(p.feeds.rss, 'RSS')}`,
    esc(p.time_zone),
    zonedTime(p.created_at, zone),
  ]);
  const create = canWrite
    ? '<p class="actions"><a class="button" href="/console/status-pages/new">New status page</a></p>'
    : '';
  return `${create}${exportLink('status_page')}
${table(['Title', 'Subdomain', 'Live page', 'Feeds', 'Time zone', 'Created'], rows, canWrite ? 'No status pages yet.' : 'No status pages yet. Create them through the API or a configuration document.')}
${pager('/console/status-pages', nextCursor)}`;
}
