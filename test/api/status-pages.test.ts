import { parseFeed } from '@rowanmanning/feed-parser';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { OutboxEventSchema, SubscriberSchema } from '../../src/db/entities';
import { signLinkToken } from '../../src/crypto/signed-links';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testLinkKey } from '../support/env';
import { eventually } from '../support/eventually';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { formBody, pageRequest } from '../support/status-host';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { createMailer } from '../../src/infra/mailer';
import { planEmails, sendEmailBatch } from '../../src/usecases/status-pages/notifications';

let api: ApiHarness;
let org: OrgFixture<never, 'API' | 'Dashboard' | 'Internal batch'>;
let other: OrgFixture;
let svcA: string;
let svcB: string;
let offPage: string;
let metricA: string;
let metricB: string;
let customerA: string;
let customerB: string;
let pageId: string;

const call: Call = (...args) => org.call(...args);
const page = (path: string, opts: Parameters<typeof pageRequest>[3] = {}) =>
  pageRequest(api.baseUrl, 'acme-status', path, opts);

beforeAll(async () => {
  api = await startApi({ subscribeLimits: { perIpPerHour: 1_000, perPagePerHour: 1_000 } });
  [org, other] = await Promise.all([
    orgWithKeys(api, { name: 'pages', services: ['API', 'Dashboard', 'Internal batch'] }),
    orgWithKeys(api, { name: 'stranger' }),
  ]);
  ({ API: svcA, Dashboard: svcB, 'Internal batch': offPage } = org.services);
  metricA = (
    await call('POST', '/v1/metrics', {
      service_id: svcA,
      name: 'API latency',
      source_type: 'manual',
      source_config: {},
    })
  ).body.id;
  metricB = (
    await call('POST', '/v1/metrics', {
      service_id: svcB,
      name: 'Dashboard errors',
      source_type: 'manual',
      source_config: {},
    })
  ).body.id;
  customerA = (await call('POST', '/v1/customers', { name: 'Customer A' })).body.id;
  customerB = (await call('POST', '/v1/customers', { name: 'Customer B' })).body.id;
  const created = await call('POST', '/v1/status-pages', {
    subdomain: 'acme-status',
    title: 'Acme Status',
    description: 'Live status of Acme',
    time_zone: 'Europe/Berlin',
    branding: { accent_color: '#ffff00', header_color: '#777777' },
    links: [{ label: 'Website', url: 'https://acme.example' }],
    groups: [
      { name: 'Core', components: [{ kind: 'service', id: svcA }] },
      { name: 'Apps', components: [{ kind: 'service', id: svcB }] },
    ],
  });
  expect(created.status).toBe(201);
  pageId = created.body.id;
});
afterAll(async () => api.close());

describe('/v1/status-pages', () => {
  it('creates a page with its public URL and feed URLs, and reads it back', async () => {
    const got = await call('GET', `/v1/status-pages/${pageId}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      subdomain: 'acme-status',
      title: 'Acme Status',
      time_zone: 'Europe/Berlin',
      url: expect.stringMatching(/^http:\/\/acme-status\.status\.localhost(:\d+)?\/$/),
      feeds: { atom: expect.stringMatching(/\/feed\.atom$/), rss: expect.stringMatching(/\/feed\.rss$/) },
      groups: [
        { name: 'Core', components: [{ kind: 'service', id: svcA }] },
        { name: 'Apps', components: [{ kind: 'service', id: svcB }] },
      ],
    });
  });

  it('rejects bad subdomains, taken subdomains and unknown components with field paths', async () => {
    for (const subdomain of ['ab', '-acme', 'Acme', 'acme--x', 'www', 'a'.repeat(64), 'acme_status']) {
      const r = await call('POST', '/v1/status-pages', { subdomain, title: 'x' });
      expect([subdomain, r.status, r.body.title, r.body.errors?.[0]?.path]).toEqual([
        subdomain,
        400,
        'validation_failed',
        'subdomain',
      ]);
    }
    const taken = await other.call('POST', '/v1/status-pages', { subdomain: 'acme-status', title: 'again' });
    expect([taken.status, taken.body.title]).toEqual([409, 'subdomain_taken']);
    const unknown = await call('POST', '/v1/status-pages', {
      subdomain: 'unknown-parts',
      title: 'x',
      groups: [
        {
          name: null,
          components: [
            { kind: 'service', id: svcA },
            { kind: 'metric', id: svcA },
          ],
        },
      ],
    });
    expect([unknown.status, unknown.body.title, unknown.body.errors]).toEqual([
      400,
      'validation_failed',
      [{ path: 'groups.0.components.1.id', message: 'No such metric' }],
    ]);
    const foreign = await other.call('POST', '/v1/status-pages', {
      subdomain: 'foreign-parts',
      title: 'x',
      groups: [{ name: null, components: [{ kind: 'service', id: svcA }] }],
    });
    expect([foreign.status, foreign.body.errors?.[0]?.path]).toEqual([400, 'groups.0.components.0.id']);
    const zone = await call('POST', '/v1/status-pages', { subdomain: 'zoned', title: 'x', time_zone: 'Mars/Olympus' });
    expect([zone.status, zone.body.errors?.[0]?.path]).toEqual([400, 'time_zone']);
    const key = await call('POST', '/v1/status-pages', {
      subdomain: 'keyed',
      title: 'x',
      viewer_public_key: 'not a key',
    });
    expect([key.status, key.body.errors?.[0]?.path]).toEqual([400, 'viewer_public_key']);
    const color = await call('POST', '/v1/status-pages', {
      subdomain: 'coloured',
      title: 'x',
      branding: { accent_color: 'red' },
    });
    expect([color.status, color.body.errors?.[0]?.path]).toEqual([400, 'branding.accent_color']);
  });

  it("never shows one organization's page to another's key, and pages the list", async () => {
    expect((await other.call('GET', `/v1/status-pages/${pageId}`)).status).toBe(404);
    expect((await other.call('GET', '/v1/status-pages')).body.items.map((p: { id: string }) => p.id)).not.toContain(
      pageId,
    );
    const second = (await call('POST', '/v1/status-pages', { subdomain: 'second-page', title: 'Second' })).body.id;
    const first = await call('GET', '/v1/status-pages?limit=1');
    expect(first.body.items).toHaveLength(1);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await call('GET', `/v1/status-pages?limit=1&cursor=${first.body.next_cursor}`);
    expect([first.body.items[0].id, rest.body.items[0].id].sort()).toEqual([pageId, second].sort());
    expect((await call('DELETE', `/v1/status-pages/${second}`)).status).toBe(200);
  });

  it('enforces the plan quota of pages (team: 3)', async () => {
    const team = await orgWithKeys(api, { plan: 'team', name: 'quota' });
    for (let i = 0; i < 3; i++)
      expect((await team.call('POST', '/v1/status-pages', { subdomain: `team-page-${i}`, title: 'x' })).status).toBe(
        201,
      );
    const over = await team.call('POST', '/v1/status-pages', { subdomain: 'team-page-3', title: 'x' });
    expect([over.status, over.body.title, over.body.quota]).toEqual([
      403,
      'quota_exceeded',
      { capability: 'status_pages', used: 3, cap: 3, plan: 'team' },
    ]);
  });

  it('patches fields, frees the subdomain on delete, and answers 404 on the page host after it', async () => {
    const p = (await call('POST', '/v1/status-pages', { subdomain: 'short-lived', title: 'Short' })).body.id;
    const patched = await call('PATCH', `/v1/status-pages/${p}`, {
      title: 'Renamed',
      links: [{ label: 'Docs', url: 'https://docs.example' }],
      branding: { logo_url: 'https://cdn.example/logo.png' },
    });
    expect(patched.body).toMatchObject({
      title: 'Renamed',
      links: [{ label: 'Docs', url: 'https://docs.example' }],
      branding: { logo_url: 'https://cdn.example/logo.png', accent_color: null },
    });
    expect((await pageRequest(api.baseUrl, 'short-lived', '/')).status).toBe(200);
    const deleted = await call('DELETE', `/v1/status-pages/${p}`);
    expect(deleted.body.deleted_at).toEqual(expect.any(String));
    expect((await call('DELETE', `/v1/status-pages/${p}`)).status).toBe(200);
    await eventually(async () => expect((await pageRequest(api.baseUrl, 'short-lived', '/')).status).toBe(404));
    expect((await call('POST', '/v1/status-pages', { subdomain: 'short-lived', title: 'Reborn' })).status).toBe(201);
  });
});

describe('references from pages (in_use)', () => {
  it('refuses to delete a service, metric or SLO a live page shows, naming the page', async () => {
    const svc = (await call('POST', '/v1/services', { name: 'Shown' })).body.id;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: svc,
        name: 'Shown metric',
        source_type: 'manual',
        source_config: {},
      })
    ).body.id;
    const other = (await call('POST', '/v1/services', { name: 'SLO target' })).body.id;
    const slo = (
      await call('POST', '/v1/slos', {
        name: 'Shown SLO',
        service_id: other,
        objective: '99.9',
        window: { kind: 'rolling', days: 30 },
      })
    ).body.id;
    const p = (
      await call('POST', '/v1/status-pages', {
        subdomain: 'refs-page',
        title: 'Refs',
        groups: [
          {
            name: null,
            components: [
              { kind: 'metric', id: metric },
              { kind: 'slo', id: slo },
            ],
          },
        ],
      })
    ).body.id;
    for (const [path, what] of [
      [`/v1/services/${svc}`, 'service'],
      [`/v1/metrics/${metric}`, 'metric'],
      [`/v1/slos/${slo}`, 'SLO'],
    ] as const) {
      const r = await call('DELETE', path);
      expect([what, r.status, r.body.title, r.body.referenced_by.pages]).toEqual([
        what,
        409,
        'in_use',
        [{ id: p, config_key: null, name: 'Refs' }],
      ]);
      expect(r.body.detail).toContain('1 status page');
    }
    await call('PATCH', `/v1/status-pages/${p}`, { groups: [] });
    expect((await call('DELETE', `/v1/slos/${slo}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/metrics/${metric}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/services/${svc}`)).status).toBe(200);
  });
});

describe('the page at <subdomain>.<STATUS_HOST>', () => {
  it('serves server-rendered HTML with the feed links, statuses and the worst-of rollup', async () => {
    await call('POST', `/v1/metrics/${metricA}/status`, { status: 'healthy' });
    await call('POST', `/v1/metrics/${metricB}/status`, { status: 'degraded' });
    const res = await eventually(async () => {
      const r = await page('/');
      expect(r.text).toContain('data-status="degraded"');
      return r;
    }, 15_000);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<link rel="alternate" type="application/atom+xml" href="/feed.atom"');
    expect(res.text).toContain('<link rel="alternate" type="application/rss+xml" href="/feed.rss"');
    // No script but the optional live update from the page's own host.
    expect(res.text.match(/<script[^>]*>[^<]*<\/script>/gi)).toEqual(['<script src="/live.js" defer></script>']);
    expect(res.text).toMatch(
      /id="overall-status"[^>]*data-state="degraded_performance"[^>]*>[^]*?<p>Degraded performance<\/p>/,
    );
    expect(res.text).toContain(`data-component-id="${svcA}"`);
    expect(res.text).toContain('Acme Status');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const summary = JSON.parse((await page('/summary.json')).text);
    expect(summary.status).toBe('degraded');
    // What the page says, as the HTML says it (one derivation, page-state.ts).
    expect(summary.headline).toEqual({ state: 'degraded_performance', text: 'Degraded performance' });
    expect(summary.quiet).toBe(true);
    expect(summary.groups.map((g: { name: string; status: string }) => [g.name, g.status])).toEqual([
      ['Core', 'healthy'],
      ['Apps', 'degraded'],
    ]);
    expect(summary.groups[0].components[0].uptime).toHaveLength(90);
    // Each day's uptime, and nothing of how it was measured.
    for (const day of summary.groups[0].components[0].uptime)
      expect(Object.keys(day).sort()).toEqual(['date', 'uptime_pct']);
  });

  it('answers 404 for unknown subdomains and paths', async () => {
    const res = await pageRequest(api.baseUrl, 'no-such-page', '/');
    expect([res.status, res.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect((await pageRequest(api.baseUrl, 'no-such-page', '/feed.atom')).status).toBe(404);
    expect((await page('/nope')).status).toBe(404);
  });

  /** A feed reader gets a problem it can parse, not the HTML page meant for people. */
  const expectFeedProblem = (res: Awaited<ReturnType<typeof pageRequest>>) => {
    expect([res.status, res.headers['content-type']]).toEqual([
      404,
      expect.stringMatching(/^application\/problem\+json\b/),
    ]);
    expect(JSON.parse(res.text)).toEqual({
      type: 'https://docs.vigil.test/api/getting-started/errors#not_found',
      title: 'not_found',
      status: 404,
      detail: expect.any(String),
    });
  };

  it('answers a 404 not_found problem, not HTML, for the feeds of an unknown subdomain', async () => {
    for (const feed of ['/feed.atom', '/feed.rss', '/feed.atom?limit=5', '/feed.rss?limit=0'])
      expectFeedProblem(await pageRequest(api.baseUrl, 'no-such-page', feed));
  });

  it("answers the same 404 problem for a deleted page's feeds", async () => {
    const p = (await call('POST', '/v1/status-pages', { subdomain: 'feeds-then-gone', title: 'Gone soon' })).body.id;
    expect((await pageRequest(api.baseUrl, 'feeds-then-gone', '/feed.atom')).status).toBe(200);
    expect((await pageRequest(api.baseUrl, 'feeds-then-gone', '/feed.rss')).status).toBe(200);
    expect((await call('DELETE', `/v1/status-pages/${p}`)).status).toBe(200);
    await eventually(async () =>
      expect((await pageRequest(api.baseUrl, 'feeds-then-gone', '/feed.atom')).status).toBe(404),
    );
    expectFeedProblem(await pageRequest(api.baseUrl, 'feeds-then-gone', '/feed.atom'));
    expectFeedProblem(await pageRequest(api.baseUrl, 'feeds-then-gone', '/feed.rss'));
    expect((await pageRequest(api.baseUrl, 'feeds-then-gone', '/')).headers['content-type']).toBe(
      'text/html; charset=utf-8',
    );
  });
});

/** Creates a published incident with messages; returns its id. */
async function incident(body: Record<string, unknown>) {
  const r = await call('POST', '/v1/incidents', { severity: 'major', ...body });
  expect(r.status).toBe(201);
  return r.body;
}

describe('feeds (spec §4.9)', () => {
  let expectedCount = 0;
  beforeAll(async () => {
    const pub = await incident({
      title: 'API errors',
      affected_services: [svcA],
      publish: true,
      initial_message: { type: 'Investigating', body: 'Errors <b>up</b> & rising' },
    });
    await call('POST', `/v1/incidents/${pub.id}/messages`, { type: 'Identified', body: 'Bad deploy' });
    await call('POST', `/v1/incidents/${pub.id}/resolve`, { message: 'Rolled back' });
    expectedCount += 3;
    // Excluded: a draft, a customer-scoped incident, a deleted one, and one on a service the page does not show.
    await incident({ title: 'Draft only', affected_services: [svcA], initial_message: { body: 'not yet' } });
    await incident({
      title: 'Secret for A',
      affected_services: [svcA],
      publish: true,
      visible_to_customer_ids: [customerA],
      initial_message: { body: 'only A' },
    });
    const gone = await incident({
      title: 'Deleted later',
      affected_services: [svcA],
      publish: true,
      initial_message: { body: 'oops' },
    });
    await call('DELETE', `/v1/incidents/${gone.id}`);
    await incident({
      title: 'Elsewhere',
      affected_services: [offPage],
      publish: true,
      initial_message: { body: 'not on this page' },
    });
    const m = await call('POST', '/v1/maintenances', {
      title: 'DB upgrade',
      affected_services: [svcB],
      scheduled_start_at: '2099-01-01T00:00:00.000Z',
      scheduled_end_at: '2099-01-01T02:00:00.000Z',
    });
    await call('POST', `/v1/maintenances/${m.body.id}/start`);
    await call('POST', `/v1/maintenances/${m.body.id}/complete`);
    expectedCount += 3; // scheduled, started, completed
  });

  /** The ETag computed from the API's own records: count of eligible entries and the latest event time. */
  async function expectedEtag(): Promise<string> {
    const incidents = (await call('GET', '/v1/incidents?limit=200')).body.items.filter(
      (i: any) =>
        i.published_at &&
        !i.deleted_at &&
        i.visible_to_customer_ids.length === 0 &&
        (i.affected_services.length === 0 || i.affected_services.some((s: string) => [svcA, svcB].includes(s))),
    );
    const maints = (await call('GET', '/v1/maintenances?limit=200')).body.items.filter(
      (m: any) =>
        !m.deleted_at &&
        (m.affected_services.length === 0 || m.affected_services.some((s: string) => [svcA, svcB].includes(s))),
    );
    const count =
      incidents.reduce((n: number, i: any) => n + i.messages.length, 0) +
      maints.reduce(
        (n: number, m: any) => n + 1 + [m.actual_start_at, m.actual_end_at, m.canceled_at].filter(Boolean).length,
        0,
      );
    const times = [
      ...incidents.flatMap((i: any) => [i.published_at, i.resolved_at, ...i.messages.map((x: any) => x.posted_at)]),
      ...maints.flatMap((m: any) => [m.actual_start_at, m.actual_end_at, m.canceled_at]),
    ]
      .filter(Boolean)
      .map((t: string) => Date.parse(t));
    return `"vigil-feed-${count}-${Math.max(0, ...times)}"`;
  }

  it('serves Atom with the spec headers, one entry per message and maintenance event, newest first', async () => {
    const res = await eventually(async () => {
      const r = await page('/feed.atom');
      expect(r.headers.etag).toBe(await expectedEtag());
      return r;
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.etag).toBe(
      `"vigil-feed-${expectedCount}-${res.headers.etag!.split('-').at(-1)!.replace('"', '')}"`,
    );
    const feed = parseFeed(res.text);
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('Acme Status');
    expect(feed.items).toHaveLength(expectedCount);
    const titles = feed.items.map((i) => i.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'API errors: Investigating',
        'API errors: Identified',
        'API errors: Resolved',
        'DB upgrade: Maintenance scheduled',
        'DB upgrade: Maintenance started',
        'DB upgrade: Maintenance completed',
      ]),
    );
    for (const hidden of ['Draft only', 'Secret for A', 'Deleted later', 'Elsewhere'])
      expect(titles.join('\n')).not.toContain(hidden);
    const dates = feed.items.map((i) => i.updated!.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(feed.items.find((i) => i.title === 'API errors: Investigating')!.content).toContain(
      'Errors <b>up</b> & rising',
    );
  });

  it('serves RSS 2.0 with its content type and the same entries', async () => {
    const res = await page('/feed.rss');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const feed = parseFeed(res.text);
    expect(feed.meta.type).toBe('rss');
    expect(feed.items).toHaveLength(expectedCount);
    expect(feed.url).toMatch(/^http:\/\/acme-status\.status\.localhost:\d+\/$/);
  });

  it('answers 304 with no body to a matching If-None-Match, and a new ETag after a change', async () => {
    const first = await page('/feed.atom');
    const again = await page('/feed.atom', { headers: { 'if-none-match': first.headers.etag! } });
    expect([again.status, again.text, again.headers.etag]).toEqual([304, '', first.headers.etag]);
    expect(
      (await page('/feed.atom', { headers: { 'if-none-match': `W/${first.headers.etag}, "other"` } })).status,
    ).toBe(304);
    expect((await page('/feed.atom', { headers: { 'if-none-match': '"vigil-feed-0-0"' } })).status).toBe(200);
    const inc = await incident({
      title: 'Later',
      affected_services: [svcB],
      publish: true,
      initial_message: { body: 'new' },
    });
    const after = await eventually(async () => {
      const r = await page('/feed.atom', { headers: { 'if-none-match': first.headers.etag! } });
      expect(r.status).toBe(200);
      return r;
    });
    expect(after.headers.etag).toBe(await expectedEtag());
    expect(after.headers.etag).toBe(`"vigil-feed-${expectedCount + 1}-${Date.parse(inc.published_at)}"`);
    expectedCount += 1;
  });

  it('compresses the page, summary and feeds for clients that accept gzip', async () => {
    for (const path of ['/', '/summary.json', '/feed.atom', '/feed.rss']) {
      const plain = await page(path);
      const port = new URL(api.baseUrl).port;
      const res = await request(`${api.baseUrl}${path}`, {
        headers: { host: `acme-status.status.localhost:${port}`, 'accept-encoding': 'gzip, deflate, br' },
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      expect([path, res.statusCode, res.headers['content-encoding'], String(res.headers.vary)]).toEqual([
        path,
        200,
        'gzip',
        expect.stringContaining('Accept-Encoding'),
      ]);
      expect(gunzipSync(body).toString('utf8')).toBe(plain.text);
    }
    const refused = await page('/feed.atom', { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('takes limit: default 50, clamps to 200, rejects junk', async () => {
    const svc = (await call('POST', '/v1/services', { name: 'Busy' })).body.id;
    await call('PATCH', `/v1/status-pages/${pageId}`, {
      groups: [
        { name: 'Core', components: [{ kind: 'service', id: svcA }] },
        {
          name: 'Apps',
          components: [
            { kind: 'service', id: svcB },
            { kind: 'service', id: svc },
          ],
        },
      ],
    });
    const many = await incident({
      title: 'Chatty',
      affected_services: [svc],
      publish: true,
      initial_message: { body: 'm0' },
    });
    await api.orm.em.getConnection().execute(
      `insert into incident_messages (id, organization_id, incident_id, type, body, posted_at)
       select gen_random_uuid(), ?, ?, 'Update', 'm' || g, now() - (g || ' seconds')::interval from generate_series(1, 230) g`,
      [org.id, many.id],
    );
    const items = async (q: string) => parseFeed((await page(`/feed.atom${q}`)).text).items.length;
    await eventually(async () => expect(await items('?limit=200')).toBe(200), 5_000);
    expect(await items('')).toBe(50);
    expect(await items('?limit=5')).toBe(5);
    expect(await items('?limit=100000')).toBe(200);
    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const r = await page(`/feed.atom?limit=${bad}`);
      expect([bad, r.status, JSON.parse(r.text).title]).toEqual([bad, 400, 'validation_failed']);
    }
  });
});

describe('customer-scoped viewing', () => {
  let secretA: string;
  beforeAll(async () => {
    secretA = (
      await incident({
        title: 'Private outage for A',
        affected_services: [svcA],
        publish: true,
        visible_to_customer_ids: [customerA],
        initial_message: { body: 'A only' },
      })
    ).id;
    await incident({
      title: 'Private outage for B',
      affected_services: [svcA],
      publish: true,
      visible_to_customer_ids: [customerB],
      initial_message: { body: 'B only' },
    });
  });

  it("shows a signed-in customer its incidents and nobody else's; feeds never", async () => {
    const minted = await call('POST', `/v1/status-pages/${pageId}/viewer-tokens`, {
      customer_id: customerA,
      ttl_seconds: 600,
    });
    expect(minted.status).toBe(201);
    expect(minted.body.url).toContain('viewer_token=');
    const signedIn = await page(`/?viewer_token=${minted.body.token}`);
    expect(signedIn.text).toContain('Private outage for A');
    expect(signedIn.text).not.toContain('Private outage for B');
    expect(signedIn.text).toContain('Customer A');
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    expect(signedIn.headers['set-cookie']).toMatch(/^vigil_viewer=.+; Path=\/; HttpOnly; SameSite=Lax/);
    const byCookie = await page('/', { headers: { cookie: `vigil_viewer=${minted.body.token}` } });
    expect(byCookie.text).toContain('Private outage for A');
    const json = JSON.parse(
      (await page('/summary.json', { headers: { authorization: `Bearer ${minted.body.token}` } })).text,
    );
    expect(json.active_incidents.map((i: any) => i.title)).toContain('Private outage for A');
    expect(json.active_incidents.find((i: any) => i.id === secretA).customer_scoped).toBe(true);
    for (const path of ['/feed.atom', '/feed.rss'])
      expect((await page(path, { headers: { cookie: `vigil_viewer=${minted.body.token}` } })).text).not.toContain(
        'Private outage',
      );
    const publicView = await page('/');
    expect(publicView.text).not.toContain('Private outage');
  });

  it('accepts tokens the organization signs with its own key (viewer_public_key), and only for this page', async () => {
    for (const alg of ['ES256', 'EdDSA'] as const) {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const patched = await call('PATCH', `/v1/status-pages/${pageId}`, {
        viewer_public_key: await exportSPKI(publicKey),
      });
      expect(patched.status).toBe(200);
      const sign = (aud: string, exp: string | number = '5m') =>
        new SignJWT({ customer_id: customerA })
          .setProtectedHeader({ alg })
          .setAudience(aud)
          .setIssuedAt()
          .setExpirationTime(exp)
          .sign(privateKey);
      // The page's settings reach the public pages' cache through LISTEN: a loaded machine may answer
      // from the page as it was for a moment after the PATCH.
      await eventually(async () => {
        const own = await page('/', {
          headers: { authorization: `Bearer ${await sign(`vigil:status-page:${pageId}`)}` },
        });
        expect([alg, own.text.includes('Private outage for A')]).toEqual([alg, true]);
      }, 10_000);
      for (const bad of [
        await sign('vigil:status-page:00000000-0000-4000-8000-000000000000'),
        await sign(`vigil:status-page:${pageId}`, Math.floor(Date.now() / 1000) - 60),
      ]) {
        expect((await page('/', { headers: { authorization: `Bearer ${bad}` } })).text).not.toContain('Private outage');
      }
    }
    await call('PATCH', `/v1/status-pages/${pageId}`, { viewer_public_key: null });
  });

  it("keeps drafts, deleted and other customers' incidents off the page, history and incident pages", async () => {
    const history = await page('/history');
    expect(history.status).toBe(200);
    expect(history.text).toContain('API errors');
    for (const hidden of ['Draft only', 'Deleted later', 'Private outage', 'Elsewhere']) {
      expect([hidden, history.text.includes(hidden), (await page('/')).text.includes(hidden)]).toEqual([
        hidden,
        false,
        false,
      ]);
    }
    expect((await page(`/incidents/${secretA}`)).status).toBe(404);
    const minted = (await call('POST', `/v1/status-pages/${pageId}/viewer-tokens`, { customer_id: customerA })).body
      .token;
    const mine = await page(`/incidents/${secretA}`, { headers: { cookie: `vigil_viewer=${minted}` } });
    expect([mine.status, mine.text.includes('Private outage for A')]).toEqual([200, true]);
  });

  it('falls back to the public view for expired, foreign, tampered and other-organization tokens', async () => {
    const otherPage = (await call('POST', '/v1/status-pages', { subdomain: 'other-page', title: 'Other' })).body.id;
    const foreign = (await call('POST', `/v1/status-pages/${otherPage}/viewer-tokens`, { customer_id: customerA })).body
      .token;
    const good = (
      await call('POST', `/v1/status-pages/${pageId}/viewer-tokens`, { customer_id: customerA, ttl_seconds: 60 })
    ).body.token;
    const tampered = good.slice(0, -4) + (good.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const token of [foreign, tampered, 'garbage']) {
      const r = await page(`/?viewer_token=${token}`);
      expect([r.status, r.text.includes('Private outage'), r.headers['set-cookie']]).toEqual([200, false, undefined]);
    }
    const stranger = await other.call('POST', `/v1/status-pages/${pageId}/viewer-tokens`, { customer_id: customerA });
    expect(stranger.status).toBe(404);
    const unknownCustomer = await call('POST', `/v1/status-pages/${pageId}/viewer-tokens`, {
      customer_id: (await other.call('POST', '/v1/customers', { name: 'X' })).body.id,
    });
    expect([unknownCustomer.status, unknownCustomer.body.title]).toEqual([400, 'unknown_customers']);
  });
});

describe('subscribers', () => {
  const subscribe = (body: unknown) => api.request('POST', '/v1/status-page/acme-status/subscribe', { body });

  it('accepts a public subscribe with the same answer every time, and queues one confirmation', async () => {
    const first = await subscribe({ email: 'Reader@Example.com' });
    expect([first.status, first.body.status]).toEqual([202, 'pending_confirmation']);
    const second = await subscribe({ email: 'reader@example.com' });
    expect(second.body).toEqual(first.body);
    const em = api.orm.em.fork();
    const rows = await em.find(SubscriberSchema, { email: 'reader@example.com' });
    expect(rows.map((r) => [r.state, r.source])).toEqual([['pending', 'form']]);
    const events = await em.find(OutboxEventSchema, {
      type: 'subscriber.confirmation_requested',
      resourceId: rows[0]!.id,
    });
    expect(events).toHaveLength(1);
    expect((await subscribe({ email: 'not-an-email' })).body.errors[0].path).toBe('email');
    expect(
      (await api.request('POST', '/v1/status-page/no-such-page/subscribe', { body: { email: 'a@example.com' } }))
        .status,
    ).toBe(404);
    const wrongComponent = await subscribe({ email: 'c@example.com', components: [offPage] });
    expect([wrongComponent.status, wrongComponent.body.errors[0].path]).toEqual([400, 'components.0']);
  });

  it('gives the same answer to the same address subscribing several times at once, with one row and one confirmation', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => subscribe({ email: 'race@example.com' })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 202]);
    const em = api.orm.em.fork();
    const rows = await em.find(SubscriberSchema, { email: 'race@example.com' });
    expect(rows).toHaveLength(1);
    expect(
      await em.count(OutboxEventSchema, { type: 'subscriber.confirmation_requested', resourceId: rows[0]!.id }),
    ).toBe(1);
  });

  it('confirms through GET (a button, no change) then POST, and unsubscribes with an RFC 8058 one-click POST', async () => {
    await subscribe({ email: 'clicker@example.com' });
    const em = api.orm.em.fork();
    const s = await em.findOneOrFail(SubscriberSchema, { email: 'clicker@example.com' });
    const confirm = signLinkToken(testLinkKey(), {
      purpose: 'confirm',
      subscriberId: s.id,
      expiresAtMs: Date.now() + 60_000,
    });
    const shown = await page(`/confirm?token=${confirm}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<form method="post" action="/confirm">');
    expect((await em.fork().findOneOrFail(SubscriberSchema, s.id)).state).toBe('pending');
    const done = await page('/confirm', { method: 'POST', ...formBody({ token: confirm }) });
    expect(done.status).toBe(200);
    expect((await em.fork().findOneOrFail(SubscriberSchema, s.id)).state).toBe('confirmed');
    const expired = signLinkToken(testLinkKey(), {
      purpose: 'confirm',
      subscriberId: s.id,
      expiresAtMs: Date.now() - 1,
    });
    expect((await page(`/confirm?token=${expired}`)).status).toBe(400);
    const wrongPurpose = signLinkToken(testLinkKey(), {
      purpose: 'unsubscribe',
      subscriberId: s.id,
      expiresAtMs: null,
    });
    expect((await page('/confirm', { method: 'POST', ...formBody({ token: wrongPurpose }) })).status).toBe(400);
    const off = await page(`/unsubscribe?token=${wrongPurpose}`, {
      method: 'POST',
      ...formBody({ 'List-Unsubscribe': 'One-Click' }),
    });
    expect(off.status).toBe(200);
    expect((await em.fork().findOneOrFail(SubscriberSchema, s.id)).state).toBe('unsubscribed');
    expect(
      (await pageRequest(api.baseUrl, 'other-page', `/unsubscribe?token=${wrongPurpose}`, { method: 'POST' })).status,
    ).toBe(400);
  });

  it('subscribes from the page form', async () => {
    const r = await page('/subscribe', { method: 'POST', ...formBody({ email: 'form@example.com' }) });
    expect(r.status).toBe(200);
    expect(r.text).toContain('Check your inbox');
    expect((await page('/subscribe', { method: 'POST', ...formBody({ email: 'nope' }) })).status).toBe(400);
  });

  it('imports JSON and CSV with per-row errors, optionally skipping confirmation', async () => {
    const json = await call('POST', `/v1/status-pages/${pageId}/subscribers/import`, {
      subscribers: [
        { email: 'one@example.com' },
        { email: 'bad address' },
        { email: 'two@example.com', components: [svcA], customer_id: customerA },
        { email: 'three@example.com', components: [offPage] },
        { email: 'ONE@example.com' },
      ],
      skip_confirmation: true,
    });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({
      received: 5,
      created: 2,
      existing: 0,
      confirmations_queued: 0,
      errors: [
        { row: 2, path: 'email', message: 'Not a valid email address' },
        { row: 4, path: 'components.0', message: 'Not a service shown on this page' },
        { row: 5, path: 'email', message: 'Repeats an earlier row' },
      ],
    });
    const csv = await call('POST', `/v1/status-pages/${pageId}/subscribers/import`, {
      csv: `email,components\nfour@example.com,${svcA};${svcB}\none@example.com,\n"five@example.com",`,
    });
    expect(csv.body).toMatchObject({ received: 3, created: 2, existing: 1, confirmations_queued: 2, errors: [] });
    const confirmed = await call('GET', `/v1/status-pages/${pageId}/subscribers?state=confirmed&limit=200`);
    expect(confirmed.body.items.map((s: { email: string }) => s.email)).toEqual(
      expect.arrayContaining(['one@example.com', 'two@example.com']),
    );
    expect(confirmed.body.items.find((s: any) => s.email === 'two@example.com')).toMatchObject({
      components: [svcA],
      customer_id: customerA,
      source: 'import',
    });
    const four = (await call('GET', `/v1/status-pages/${pageId}/subscribers?state=pending&limit=200`)).body.items.find(
      (s: any) => s.email === 'four@example.com',
    );
    expect(four.components.sort()).toEqual([svcA, svcB].sort());
    const both = await call('POST', `/v1/status-pages/${pageId}/subscribers/import`, {
      csv: 'email\na@example.com',
      subscribers: [],
    });
    expect(both.status).toBe(400);
    expect(
      (await call('POST', `/v1/status-pages/${pageId}/subscribers/import`, { csv: 'name\nx' })).body.errors[0].path,
    ).toBe('csv');
    expect((await other.call('GET', `/v1/status-pages/${pageId}/subscribers`)).status).toBe(404);
  });

  it('refuses to delete a page that has subscribers (in_use), erases subscribers on delete', async () => {
    const blocked = await call('DELETE', `/v1/status-pages/${pageId}`);
    expect([blocked.status, blocked.body.title]).toEqual([409, 'in_use']);
    expect(blocked.body.referenced_by.subscribers).toBeGreaterThan(0);
    const list = await call('GET', `/v1/status-pages/${pageId}/subscribers?limit=200`);
    const victim = list.body.items[0];
    expect((await other.call('DELETE', `/v1/status-pages/${pageId}/subscribers/${victim.id}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/status-pages/${pageId}/subscribers/${victim.id}`)).body.email).toBe(victim.email);
    expect((await call('GET', `/v1/status-pages/${pageId}/subscribers/${victim.id}`)).status).toBe(404);
  });
});

describe('development mail (SMTP_URL unset)', () => {
  it('writes the confirmation email to the outbox folder and logs its link', async () => {
    await api.request('POST', '/v1/status-page/acme-status/subscribe', { body: { email: 'folder@example.com' } });
    const em = api.orm.em.fork();
    const s = await em.findOneOrFail(SubscriberSchema, { email: 'folder@example.com' });
    const event = await em.findOneOrFail(OutboxEventSchema, {
      type: 'subscriber.confirmation_requested',
      resourceId: s.id,
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-mail-'));
    const logged: string[] = [];
    const deps = {
      mailer: createMailer({ from: 'Vigil <status@vigil.test>', outboxDir: dir, log: (l) => logged.push(l) }),
      linkKey: testLinkKey(),
      site: { statusHost: 'status.localhost', publicBaseUrl: api.baseUrl },
      log: (l: string) => logged.push(l),
    };
    expect(await planEmails(em.fork(), event.id, new Date())).toEqual({ recipients: 1 });
    expect(await sendEmailBatch(em.fork(), deps, event.id, 50, new Date())).toMatchObject({ sent: 1, pending: 0 });
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(readFileSync(path.join(dir, files[0]!)));
    expect([mail.subject, (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.text]).toEqual([
      'Confirm your subscription to Acme Status',
      'folder@example.com',
    ]);
    const link = logged.find((l) => l.startsWith('confirmation link for folder@example.com: '))!;
    expect(link).toMatch(/http:\/\/acme-status\.status\.localhost:\d+\/confirm\?token=[\w.-]+$/);
    expect(mail.text).toContain(link.split(': ')[1]);
  });
});

describe('subscribe abuse limits', () => {
  it('answers 429 subscribe_limited past the per-page limit, whatever the address', async () => {
    const limited = await startApi({ subscribeLimits: { perIpPerHour: 10_000, perPagePerHour: 2 } });
    try {
      const o = await orgWithKeys(limited, { name: 'page-limits' });
      await o.call('POST', '/v1/status-pages', { subdomain: 'page-limited', title: 'Limited' });
      const send = () =>
        limited.request('POST', '/v1/status-page/page-limited/subscribe', {
          body: { email: `p${Math.random()}@example.com` },
        });
      expect([(await send()).status, (await send()).status]).toEqual([202, 202]);
      const third = await send();
      expect([third.status, third.body.title, third.body.detail]).toEqual([
        429,
        'subscribe_limited',
        expect.stringContaining('to this page'),
      ]);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 subscribe_limited with Retry-After past the per-address limit', async () => {
    const limited = await startApi({ subscribeLimits: { perIpPerHour: 2, perPagePerHour: 1_000 } });
    try {
      const o = await orgWithKeys(limited, { name: 'limits' });
      await o.call('POST', '/v1/status-pages', { subdomain: 'limited-page', title: 'Limited' });
      const send = () =>
        limited.request('POST', '/v1/status-page/limited-page/subscribe', {
          body: { email: `x${Math.random()}@example.com` },
        });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await send()).status);
      expect(codes.slice(-1)).toEqual([429]);
      const r = await send();
      expect([r.status, r.body.title]).toEqual([429, 'subscribe_limited']);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.body.retry_after).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('incident history', () => {
  it('pages past incidents 20 at a time, newest first, with an Older link', async () => {
    for (let i = 0; i < 22; i++)
      await incident({
        title: `Past incident ${String(i).padStart(2, '0')}`,
        affected_services: [svcB],
        publish: true,
        initial_message: { type: 'Resolved', body: 'done' },
      });
    const first = await page('/history');
    const next = first.text.match(
      /<a[^>]*rel="next"[^>]*href="\?cursor=([^"]+)"|<a[^>]*href="\?cursor=([^"]+)"[^>]*rel="next"/,
    );
    expect(next).not.toBeNull();
    expect(first.text).toContain('Past incident 21');
    expect(first.text).toContain('Past incident 02');
    expect(first.text).not.toContain('Past incident 01');
    const older = await page(`/history?cursor=${next![1] ?? next![2]}`);
    expect(older.text).toContain('Past incident 01');
    expect(older.text).toContain('Past incident 00');
    expect(older.text).not.toContain('Past incident 21');
    expect((await page('/history?cursor=garbage')).status).toBe(200);
  });
});

describe('odd input on the page host', () => {
  it('never answers 5xx', async () => {
    const cases: [string, Parameters<typeof pageRequest>[3]?][] = [
      ['/history?cursor=%ZZ'],
      ['/history?cursor=eyJjIjoiYm9ndXMiLCJpIjoibm9wZSJ9'],
      ['/feed.atom?limit=1&limit=2'],
      ['/feed.rss?limit=%00'],
      ['/incidents/not-a-uuid'],
      ['/incidents/' + 'f'.repeat(36)],
      ['/maintenances/' + '-'.repeat(36)],
      ['/incidents/00000000-0000-4000-8000-000000000000'],
      ['/maintenances/00000000-0000-4000-8000-000000000000'],
      ['/confirm'],
      ['/confirm?token=a.b'],
      ['/unsubscribe?token=' + 'x'.repeat(5000)],
      ['/?viewer_token=' + 'a.b.c'],
      ['/', { headers: { cookie: 'vigil_viewer=%E0%A4%A' } }],
      ['/', { headers: { authorization: 'Bearer' } }],
      ['/subscribe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email": 5}' }],
      [
        '/subscribe',
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=%' },
      ],
      ['/subscribe', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' }],
      ['/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }],
      ['/unsubscribe', { method: 'POST' }],
    ];
    for (const [path, opts] of cases) {
      const r = await page(path, opts);
      expect([path, r.status < 500]).toEqual([path, true]);
    }
  });
});
