import path from 'node:path';
import { parseFeed } from '@rowanmanning/feed-parser';
import {
  ATOM_CONTENT_TYPE,
  FEED_CACHE_CONTROL,
  FEED_LIMIT_DEFAULT,
  FEED_LIMIT_MAX,
  RSS_CONTENT_TYPE,
  buildAtom,
  buildRss,
  etagMatches,
  feedEtag,
  incidentMessageEntry,
  maintenanceEntry,
  parseFeedLimit,
  type FeedEntry,
  type FeedMeta,
} from '../../src/domain/status-page/feed';

// feed-parser is lenient by design, so well-formedness is checked separately with the strict
// validator of the XML engine it ships with, plus the XML 1.0 Char production it does not check.
const { XMLValidator } = require(
  require.resolve('fast-xml-parser', { paths: [path.dirname(require.resolve('@rowanmanning/feed-parser'))] }),
) as {
  XMLValidator: { validate(xml: string): true | { err: { msg: string } } };
};
const NON_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
function expectWellFormed(xml: string): void {
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(NON_XML_CHAR.test(xml)).toBe(false);
  expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const RFC822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const tagValues = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);

const SITE = 'http://acme.status.localhost:3000/';
const INCIDENT = { id: '0b1c4a52-5a0e-4c55-9a44-2f8f7f0d2a01', title: 'API errors', severity: 'major' };
const MAINT = {
  id: '6d0a1f3e-3f7c-4d8e-8f7d-0e2c5b1a9c02',
  title: 'Database upgrade',
  description: 'Primary fails over to the replica.',
  scheduled_start_at: new Date('2026-11-22T15:00:00.000Z'),
  scheduled_end_at: new Date('2026-11-22T17:00:00.000Z'),
};
const t = (iso: string) => new Date(iso);

/** Newest first, as the route hands them over. */
const entries: FeedEntry[] = [
  incidentMessageEntry(INCIDENT, {
    id: 'b7f5e0c2-0000-4000-8000-000000000003',
    type: 'Resolved',
    body: 'All good now.',
    posted_at: t('2026-11-22T15:30:00.000Z'),
  }),
  maintenanceEntry(MAINT, 'started', t('2026-11-22T15:00:00.000Z')),
  incidentMessageEntry(INCIDENT, {
    id: 'b7f5e0c2-0000-4000-8000-000000000001',
    type: 'Investigating',
    body: 'Elevated 5xx on /v1.\nLooking into it.',
    posted_at: t('2026-11-22T14:45:12.345Z'),
  }),
];
const meta = (over: Partial<FeedMeta> = {}): FeedMeta => ({
  title: 'Acme status',
  description: 'Incidents and maintenance of Acme',
  site_url: SITE,
  self_url: `${SITE}feed.atom`,
  author_name: 'Acme',
  updated: t('2026-11-22T15:30:00.000Z'),
  ...over,
});

describe('feed constants', () => {
  it('match the spec', () => {
    expect(ATOM_CONTENT_TYPE).toBe('application/atom+xml; charset=utf-8');
    expect(RSS_CONTENT_TYPE).toBe('application/rss+xml');
    expect(FEED_CACHE_CONTROL).toBe('public, max-age=60');
    expect([FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX]).toEqual([50, 200]);
  });
});

describe('entry builders', () => {
  it('builds an incident message entry', () => {
    expect(entries[0]).toEqual({
      id: 'incident-message:b7f5e0c2-0000-4000-8000-000000000003',
      title: 'API errors: Resolved',
      body: 'All good now.',
      at: t('2026-11-22T15:30:00.000Z'),
      link_path: `/incidents/${INCIDENT.id}`,
      category: 'Resolved',
    });
  });

  it.each([
    ['scheduled', 'Maintenance scheduled'],
    ['started', 'Maintenance started'],
    ['completed', 'Maintenance completed'],
    ['canceled', 'Maintenance canceled'],
  ] as const)('builds a maintenance %s entry', (event, words) => {
    const at = t('2026-11-20T09:00:00.000Z');
    const e = maintenanceEntry(MAINT, event, at);
    expect(e).toMatchObject({
      id: `maintenance:${MAINT.id}:${event}`,
      title: `Database upgrade: ${words}`,
      at,
      link_path: `/maintenances/${MAINT.id}`,
      category: `maintenance.${event}`,
    });
    expect(e.body).toContain('2026-11-22T15:00:00.000Z');
    expect(e.body).toContain('2026-11-22T17:00:00.000Z');
    expect(e.body).toContain('UTC');
    expect(e.body).toContain(MAINT.description);
  });

  it('leaves the description out of a maintenance body when there is none', () => {
    const e = maintenanceEntry({ ...MAINT, description: null }, 'scheduled', t('2026-11-20T09:00:00.000Z'));
    expect(e.body).not.toContain('null');
    expect(e.body).toContain('2026-11-22T15:00:00.000Z');
  });
});

describe('buildAtom', () => {
  const xml = buildAtom(meta(), entries);
  const feed = parseFeed(xml);

  it('is a well-formed Atom 1.0 document with the feed metadata', () => {
    expectWellFormed(xml);
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(feed.meta).toEqual({ type: 'atom', version: '1.0' });
    expect(feed.title).toBe('Acme status');
    expect(feed.description).toBe('Incidents and maintenance of Acme');
    expect(feed.url).toBe(SITE);
    expect(feed.self).toBe(`${SITE}feed.atom`);
    expect(feed.updated).toEqual(t('2026-11-22T15:30:00.000Z'));
    expect(feed.authors.map((a) => a.name)).toEqual(['Acme']);
    expect(tagValues(xml, 'id')[0]).toBe(SITE);
    expect(xml).toContain(`<link rel="self" type="application/atom+xml" href="${SITE}feed.atom"/>`);
    expect(xml).toContain(`<link rel="alternate" type="text/html" href="${SITE}"/>`);
  });

  it('keeps the entries in the given order with ids, titles, links, dates, content and categories', () => {
    expect(feed.items.map((i) => i.id)).toEqual([
      'urn:vigil:incident-message:b7f5e0c2-0000-4000-8000-000000000003',
      `urn:vigil:maintenance:${MAINT.id}:started`,
      'urn:vigil:incident-message:b7f5e0c2-0000-4000-8000-000000000001',
    ]);
    expect(feed.items.map((i) => i.title)).toEqual([
      'API errors: Resolved',
      'Database upgrade: Maintenance started',
      'API errors: Investigating',
    ]);
    expect(feed.items.map((i) => i.url)).toEqual([
      `${SITE}incidents/${INCIDENT.id}`,
      `${SITE}maintenances/${MAINT.id}`,
      `${SITE}incidents/${INCIDENT.id}`,
    ]);
    expect(feed.items.map((i) => i.updated)).toEqual(entries.map((e) => e.at));
    expect(feed.items.map((i) => i.published)).toEqual(entries.map((e) => e.at));
    expect(feed.items.map((i) => i.content)).toEqual(entries.map((e) => e.body));
    expect(feed.items.map((i) => i.categories.map((c) => c.term))).toEqual([
      ['Resolved'],
      ['maintenance.started'],
      ['Investigating'],
    ]);
    expect(xml.match(/<content type="text">/g)).toHaveLength(3);
  });

  it('writes RFC 3339 dates', () => {
    const dates = [...tagValues(xml, 'updated'), ...tagValues(xml, 'published')];
    expect(dates).toHaveLength(7);
    for (const d of dates) expect(d).toMatch(RFC3339);
  });

  it('joins site and path without a double slash, with or without the trailing slash', () => {
    const noSlash = parseFeed(buildAtom(meta({ site_url: SITE.slice(0, -1) }), entries.slice(0, 1)));
    expect(noSlash.items[0]!.url).toBe(`${SITE}incidents/${INCIDENT.id}`);
    expect(feed.items[0]!.url).not.toMatch(/[^:]\/\//);
  });

  it('is still valid when empty', () => {
    const empty = buildAtom(meta({ updated: new Date(0) }), []);
    expectWellFormed(empty);
    const parsed = parseFeed(empty);
    expect(parsed.items).toEqual([]);
    expect(parsed.title).toBe('Acme status');
    expect(parsed.updated).toEqual(new Date(0));
  });
});

describe('buildRss', () => {
  const xml = buildRss(meta({ self_url: `${SITE}feed.rss` }), entries);
  const feed = parseFeed(xml);

  it('is a well-formed RSS 2.0 document with the channel metadata', () => {
    expectWellFormed(xml);
    expect(xml).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">');
    expect(feed.meta).toEqual({ type: 'rss', version: '2.0' });
    expect(feed.title).toBe('Acme status');
    expect(feed.description).toBe('Incidents and maintenance of Acme');
    expect(feed.url).toBe(SITE);
    expect(feed.self).toBe(`${SITE}feed.rss`);
    expect(feed.updated).toEqual(t('2026-11-22T15:30:00.000Z'));
    expect(xml).toContain('<ttl>1</ttl>');
    expect(xml).toContain(`<atom:link rel="self" type="application/rss+xml" href="${SITE}feed.rss"/>`);
  });

  it('keeps the items in the given order with guids, titles, links, dates, descriptions and categories', () => {
    expect(feed.items.map((i) => i.id)).toEqual(entries.map((e) => e.id));
    expect(xml.match(/<guid isPermaLink="false">/g)).toHaveLength(3);
    expect(feed.items.map((i) => i.title)).toEqual(entries.map((e) => e.title));
    expect(feed.items.map((i) => i.url)).toEqual([
      `${SITE}incidents/${INCIDENT.id}`,
      `${SITE}maintenances/${MAINT.id}`,
      `${SITE}incidents/${INCIDENT.id}`,
    ]);
    expect(feed.items.map((i) => i.published)).toEqual([
      t('2026-11-22T15:30:00.000Z'),
      t('2026-11-22T15:00:00.000Z'),
      t('2026-11-22T14:45:12.000Z'),
    ]);
    expect(feed.items.map((i) => i.description)).toEqual(entries.map((e) => e.body));
    expect(feed.items.map((i) => i.categories.map((c) => c.term))).toEqual([
      ['Resolved'],
      ['maintenance.started'],
      ['Investigating'],
    ]);
  });

  it('writes RFC 822 dates', () => {
    const dates = [...tagValues(xml, 'lastBuildDate'), ...tagValues(xml, 'pubDate')];
    expect(dates).toHaveLength(4);
    for (const d of dates) expect(d).toMatch(RFC822);
    expect(dates[0]).toBe('Sun, 22 Nov 2026 15:30:00 GMT');
  });

  it('is still valid when empty', () => {
    const empty = buildRss(meta({ updated: new Date(0) }), []);
    expectWellFormed(empty);
    const parsed = parseFeed(empty);
    expect(parsed.items).toEqual([]);
    expect(parsed.title).toBe('Acme status');
  });

  it('HTML-escapes the plain-text description, which readers render as HTML', () => {
    const one = buildRss(meta(), [{ ...entries[0]!, body: '<b>x</b>' }]);
    expect(one).toContain('<description>&amp;lt;b&amp;gt;x&amp;lt;/b&amp;gt;</description>');
  });
});

describe('hostile operator text', () => {
  const evil = `<script>alert("x")</script> & 'quoted' ]]> \u0000\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uD800 lone\uDC00 😀 ünïcode\ttab\nline`;
  const clean = `<script>alert("x")</script> & 'quoted' ]]>  lone 😀 ünïcode\ttab\nline`;
  const hostileMeta = meta({
    title: evil,
    description: evil,
    author_name: evil,
    self_url: `${SITE}feed?a=1&b="2"<'3'>`,
  });
  const hostileEntries: FeedEntry[] = [
    {
      id: 'incident-message:x',
      title: evil,
      body: evil,
      at: t('2026-11-22T15:00:00.000Z'),
      link_path: '/incidents/"<&>\'',
      category: evil,
    },
  ];

  it.each([
    ['atom', buildAtom],
    ['rss', buildRss],
  ] as const)('round-trips through %s as well-formed XML with illegal characters stripped', (kind, build) => {
    const xml = build(hostileMeta, hostileEntries);
    expectWellFormed(xml);
    expect(xml).not.toContain('<script>');
    const feed = parseFeed(xml);
    expect(feed.title).toBe(clean);
    expect(feed.description).toBe(clean);
    expect(feed.self).toBe(`${SITE}feed?a=1&b="2"<'3'>`);
    const item = feed.items[0]!;
    expect(item.title).toBe(clean);
    expect(kind === 'atom' ? item.content : item.description).toBe(clean);
    // feed-parser normalises URLs through WHATWG URL, which percent-encodes '"', '<' and '>'.
    expect(item.url).toBe(new URL(`${SITE}incidents/"<&>'`).href);
    // Attribute-value normalisation may turn the tab and newline of an Atom category term into spaces.
    expect(item.categories[0]!.term.replace(/[\t\n]/g, ' ')).toBe(clean.replace(/[\t\n]/g, ' '));
    if (kind === 'atom') expect(feed.authors[0]!.name).toBe(clean);
  });

  it('keeps Atom entry ids valid IRIs whatever the entry id holds', () => {
    const xml = buildAtom(meta(), [{ ...entries[0]!, id: 'weird id:<&>/ü' }]);
    expect(parseFeed(xml).items[0]!.id).toBe('urn:vigil:weird%20id:%3C%26%3E%2F%C3%BC');
  });
});

describe('feedEtag', () => {
  it('is the quoted prefix, count and latest event time joined by hyphens', () => {
    expect(feedEtag(3, 1763812345678)).toBe('"vigil-feed-3-1763812345678"');
    expect(feedEtag(0, 0)).toBe('"vigil-feed-0-0"');
  });
});

describe('etagMatches', () => {
  const etag = feedEtag(3, 1763812345678);

  it.each([
    ['exact', '"vigil-feed-3-1763812345678"', true],
    ['weak', 'W/"vigil-feed-3-1763812345678"', true],
    ['in a list', '"a", W/"vigil-feed-3-1763812345678" ,"b"', true],
    ['wildcard', '*', true],
    ['different', '"vigil-feed-3-1763812345679"', false],
    ['unquoted', 'vigil-feed-3-1763812345678', false],
    ['empty', '', false],
    ['list without it', '"a", "b"', false],
  ])('%s', (_name, header, expected) => expect(etagMatches(header, etag)).toBe(expected));

  it('treats a missing header as no match and repeated headers as one list', () => {
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches(['"a"', etag], etag)).toBe(true);
    expect(etagMatches(['"a"', '"b"'], etag)).toBe(false);
  });
});

describe('parseFeedLimit', () => {
  it.each([
    [undefined, 50],
    ['', 50],
    ['1', 1],
    ['10', 10],
    ['200', 200],
    ['201', 200],
    ['9999', 200],
    [25, 25],
    ['0', null],
    ['-1', null],
    ['1.5', null],
    ['abc', null],
    ['10abc', null],
    [' 10', null],
    ['1e2', null],
    [Number.NaN, null],
    [['10', '20'], null],
    [null, null],
  ])('%p → %p', (raw, expected) => expect(parseFeedLimit(raw)).toBe(expected));
});
