/**
 * Atom and RSS feeds of a public status page (spec 4.9). Pure: the route loads the page's
 * feed-eligible incident messages and maintenance events, sorts them newest first, limits them and
 * hands them here as FeedEntry values; everything below only formats.
 */

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';
export const RSS_CONTENT_TYPE = 'application/rss+xml';
export const FEED_CACHE_CONTROL = 'public, max-age=60';
export const FEED_LIMIT_DEFAULT = 50;
export const FEED_LIMIT_MAX = 200;

/** A feed entry: one incident message or one maintenance lifecycle event. */
export interface FeedEntry {
  /** Stable unique id, e.g. 'incident-message:<uuid>' or 'maintenance:<uuid>:started'. */
  id: string;
  /** Plain text. */
  title: string;
  /** Plain text (may contain newlines). */
  body: string;
  /** The event time (entry updated/pubDate). */
  at: Date;
  /** Path on the page host, e.g. '/incidents/<uuid>' or '/maintenances/<uuid>'. */
  link_path: string;
  /** e.g. 'Investigating', 'Resolved', 'maintenance.started'. */
  category: string;
}

export interface FeedMeta {
  title: string;
  description: string;
  /** Absolute page URL ending in '/', e.g. 'http://acme.status.localhost:3000/'. */
  site_url: string;
  /** Absolute URL of this feed. */
  self_url: string;
  author_name: string;
  /** Feed-level updated: the latest event time (or a fixed epoch when there is none). */
  updated: Date;
}

export function incidentMessageEntry(
  i: { id: string; title: string; severity: string },
  m: { id: string; type: string; body: string; posted_at: Date },
): FeedEntry {
  return {
    id: `incident-message:${m.id}`,
    title: `${i.title}: ${m.type}`,
    body: m.body,
    at: m.posted_at,
    link_path: `/incidents/${i.id}`,
    category: m.type,
  };
}

export type MaintenanceEvent = 'scheduled' | 'started' | 'completed' | 'canceled';

const MAINTENANCE_TITLES: Record<MaintenanceEvent, string> = {
  scheduled: 'Maintenance scheduled',
  started: 'Maintenance started',
  completed: 'Maintenance completed',
  canceled: 'Maintenance canceled',
};

export function maintenanceEntry(
  m: { id: string; title: string; description: string | null; scheduled_start_at: Date; scheduled_end_at: Date },
  event: MaintenanceEvent,
  at: Date,
): FeedEntry {
  const window = `Scheduled window (UTC): ${m.scheduled_start_at.toISOString()} to ${m.scheduled_end_at.toISOString()}`;
  return {
    id: `maintenance:${m.id}:${event}`,
    title: `${m.title}: ${MAINTENANCE_TITLES[event]}`,
    body: m.description ? `${window}\n\n${m.description}` : window,
    at,
    link_path: `/maintenances/${m.id}`,
    category: `maintenance.${event}`,
  };
}

/** The spec's ETag: `"vigil-feed-<count>-<latestMs>"`. */
export function feedEtag(count: number, latestMs: number): string {
  return `"vigil-feed-${count}-${latestMs}"`;
}

const opaqueTag = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match per RFC 9110 13.1.2: a list of entity tags compared weakly, or '*'. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const want = opaqueTag(etag);
  const tags = (Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch).split(',').map((t) => t.trim());
  return tags.some((t) => t === '*' || (t !== '' && opaqueTag(t) === want));
}

/** The `limit` query value: default 50, larger than 200 clamps; null means 400 validation_failed. */
export function parseFeedLimit(raw: unknown): number | null {
  if (raw === undefined || raw === '') return FEED_LIMIT_DEFAULT;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n < 1 ? null : Math.min(n, FEED_LIMIT_MAX);
}

// XML 1.0 Char production; with the u flag a lone surrogate is its own code point, so it matches too.
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Element text or attribute value. */
function esc(value: string): string {
  return value.replace(ILLEGAL_XML_CHARS, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function entryUrl(meta: FeedMeta, entry: FeedEntry): string {
  return `${meta.site_url.replace(/\/+$/, '')}/${entry.link_path.replace(/^\/+/, '')}`;
}

/** Atom ids must be IRIs; the entry id is percent-encoded except for its ':' separators. */
function entryUrn(entry: FeedEntry): string {
  return `urn:vigil:${encodeURIComponent(entry.id.replace(ILLEGAL_XML_CHARS, '')).replace(/%3A/gi, ':')}`;
}

export function buildAtom(meta: FeedMeta, entries: readonly FeedEntry[]): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${esc(meta.site_url)}</id>`,
    `  <title type="text">${esc(meta.title)}</title>`,
    `  <subtitle type="text">${esc(meta.description)}</subtitle>`,
    `  <updated>${meta.updated.toISOString()}</updated>`,
    `  <author><name>${esc(meta.author_name)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${esc(meta.self_url)}"/>`,
    `  <link rel="alternate" type="text/html" href="${esc(meta.site_url)}"/>`,
  ];
  for (const e of entries) {
    const at = e.at.toISOString();
    lines.push(
      '  <entry>',
      `    <id>${esc(entryUrn(e))}</id>`,
      `    <title type="text">${esc(e.title)}</title>`,
      `    <updated>${at}</updated>`,
      `    <published>${at}</published>`,
      `    <link rel="alternate" type="text/html" href="${esc(entryUrl(meta, e))}"/>`,
      `    <category term="${esc(e.category)}"/>`,
      `    <content type="text">${esc(e.body)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

export function buildRss(meta: FeedMeta, entries: readonly FeedEntry[]): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${esc(meta.title)}</title>`,
    `    <link>${esc(meta.site_url)}</link>`,
    `    <description>${esc(meta.description)}</description>`,
    `    <lastBuildDate>${meta.updated.toUTCString()}</lastBuildDate>`,
    `    <atom:link rel="self" type="application/rss+xml" href="${esc(meta.self_url)}"/>`,
    // RSS ttl is in minutes; it mirrors Cache-Control max-age=60.
    '    <ttl>1</ttl>',
  ];
  for (const e of entries) {
    lines.push(
      '    <item>',
      `      <title>${esc(e.title)}</title>`,
      `      <link>${esc(entryUrl(meta, e))}</link>`,
      `      <guid isPermaLink="false">${esc(e.id)}</guid>`,
      `      <pubDate>${e.at.toUTCString()}</pubDate>`,
      // Readers render an RSS description as HTML: escaping twice makes the plain text show as written.
      `      <description>${esc(esc(e.body))}</description>`,
      `      <category>${esc(e.category)}</category>`,
      '    </item>',
    );
  }
  lines.push('  </channel>', '</rss>', '');
  return lines.join('\n');
}
