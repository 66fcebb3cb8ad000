import { esc, safeHttpUrl, timeTag } from '../../html';
import { pager, table } from '../parts';

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
  created_at: string;
}

/** An external link (opened as any link is; never script). */
function outLink(url: string, text: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `<a href="${esc(safe)}" rel="noopener">${esc(text)}</a>` : esc(text);
}

export function statusPageListBody(pages: ConsoleStatusPage[], nextCursor: string | null): string {
  const rows = pages.map((p) => [
    `${esc(p.title)}${p.description ? `<br><span class="muted">${esc(p.description)}</span>` : ''}`,
    `<code>${esc(p.subdomain)}</code>`,
    `${outLink(p.url, p.url)}${p.private_components ? '<br><span class="muted">with a viewer key</span>' : ''}`,
    `${outLink(p.feeds.atom, 'Atom')}, ${outLink(p.feeds.rss, 'RSS')}`,
    esc(p.time_zone),
    timeTag(p.created_at, 'UTC'),
  ]);
  return `${table(['Title', 'Subdomain', 'Live page', 'Feeds', 'Time zone', 'Created'], rows, 'No status pages yet. Create them through the API or a configuration document.')}
${pager('/console/status-pages', nextCursor)}`;
}
