/**
 * The public status page as a real headless Chromium (Debian's package, driven by playwright-core)
 * renders it: statuses, uptime bars, feed links, incidents and maintenance, the subscribe form,
 * a narrow screen, and no console errors. Full-page screenshots are kept in test-artifacts/.
 * A missing Chromium fails this file (launchBrowser throws); it is never skipped.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';

// The project compiles without the DOM lib; these are the browser globals the page.evaluate callbacks use.
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  body: { scrollWidth: number };
  scripts: { length: number };
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
};
declare function getComputedStyle(element: unknown): { backgroundColor: string; display: string };

const SUBDOMAIN = 'browser-check';
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 360, height: 740 };

let api: ApiHarness;
let org: OrgFixture<never, 'Public API' | 'Dashboard' | 'Database'>;
let browser: Browser;
let base: string;
const ids = { api: '', dashboard: '', database: '', incident: '', secret: '', maintenance: '' };

const call = async (method: string, url: string, body?: unknown) => {
  const r = await org.call(method, url, body);
  if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
  return r.body;
};

/** YYYY-MM-DD of the UTC day `n` days before today (the page's bars are UTC days). */
const daysAgo = (n: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - n * 86_400_000)
    .toISOString()
    .slice(0, 10);
};

/** How the page names the UTC day `n` days ago in "uptime since …" (the year only when not this year's). */
function sinceLabel(n: number): string {
  const [y, m, d] = daysAgo(n).split('-');
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m) - 1];
  return `${Number(d)} ${month}${y === daysAgo(0).slice(0, 4) ? '' : ` ${y}`}`;
}

/** The page's uptime colours (render-styles), as computed styles report them. */
const LEVEL_RGB = {
  good: 'rgb(26, 127, 55)',
  minor: 'rgb(108, 154, 31)',
  degraded: 'rgb(191, 135, 0)',
  bad: 'rgb(209, 36, 47)',
  none: 'rgb(209, 217, 224)',
};

/** A status flip seeded below: from this instant the metric had this status (and reason). */
interface SeedFlip {
  /** Days before today (UTC) and minutes into that day. */
  day: number;
  minute: number;
  status: 'healthy' | 'degraded' | 'unhealthy' | 'no_data';
  reason?: string;
}

/** A day's expected title after the date, and its colour. */
interface SeedDay {
  day: number;
  label: string;
  level: keyof typeof LEVEL_RGB;
}

/**
 * Uptime is measured in time from the status flips (issue 24 §3): up time over measured time,
 * where no_data with a target reason (ECONNREFUSED) is measured and down, and no_data with a
 * measurement reason (stale_agent_silent) is a gap. Seeded below, before each metric's own
 * status change of today (what it shows now).
 */
const SEEDED: Record<'api' | 'dashboard' | 'database', { flips: SeedFlip[]; days: SeedDay[]; total: RegExp }> = {
  api: {
    flips: [
      // 95 days ago, before the 90 days: down, then silent. It must not add a 91st day or count.
      { day: 95, minute: 0, status: 'unhealthy' },
      { day: 95, minute: 10, status: 'no_data', reason: 'stale_agent_silent' },
      // 89 days ago (the bar's first day): 10 minutes up, then silent until 2 days ago.
      { day: 89, minute: 0, status: 'healthy' },
      { day: 89, minute: 10, status: 'no_data', reason: 'stale_agent_silent' },
      // 2 days ago: down 10 of 1,440 minutes; then up.
      { day: 2, minute: 0, status: 'healthy' },
      { day: 2, minute: 720, status: 'unhealthy' },
      { day: 2, minute: 730, status: 'healthy' },
    ],
    days: [
      { day: 1, label: '100% uptime', level: 'good' },
      { day: 2, label: '99.3% uptime', level: 'minor' },
      { day: 3, label: 'no data', level: 'none' },
      { day: 89, label: '100% uptime', level: 'good' },
    ],
    // Measured since the bar's first day: the whole span.
    total: /^\d{1,3}(\.\d{1,2})?% uptime over 90 days$/,
  },
  dashboard: {
    // Yesterday: up (healthy, then degraded, which is up) but for 72 of 1,440 minutes down.
    flips: [
      { day: 1, minute: 0, status: 'healthy' },
      { day: 1, minute: 360, status: 'unhealthy' },
      { day: 1, minute: 432, status: 'degraded' },
    ],
    days: [{ day: 1, label: '95% uptime', level: 'degraded' }],
    // Measured only since yesterday: the total says since when, not "over 90 days".
    total: new RegExp(`^\\d{1,3}(\\.\\d{1,2})?% uptime since ${sinceLabel(1)}$`),
  },
  database: {
    // Yesterday: up 40%, unhealthy 20%, refused (a target reason: down) 20%, silent (a gap) 20%.
    flips: [
      { day: 1, minute: 0, status: 'healthy' },
      { day: 1, minute: 576, status: 'unhealthy' },
      { day: 1, minute: 864, status: 'no_data', reason: 'ECONNREFUSED' },
      { day: 1, minute: 1152, status: 'no_data', reason: 'stale_agent_silent' },
    ],
    days: [{ day: 1, label: '50% uptime', level: 'bad' }],
    total: new RegExp(`^\\d{1,3}(\\.\\d{1,2})?% uptime since ${sinceLabel(1)}$`),
  },
};

interface OpenedPage {
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Responses of 400 and above (favicon included). */
  failed: string[];
  close(): Promise<void>;
}

async function open(viewport: { width: number; height: number }): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport });
  // Missing elements fail fast instead of waiting out Playwright's 30 s default.
  context.setDefaultTimeout(5_000);
  const page = await context.newPage();
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  const res = await page.goto(`${base}/`, { waitUntil: 'load' });
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
  return { page, errors, failed, close: () => context.close() };
}

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { name: 'browser pages', services: ['Public API', 'Dashboard', 'Database'] });
  base = `http://${SUBDOMAIN}.status.localhost:${new URL(api.baseUrl).port}`;

  ({ 'Public API': ids.api, Dashboard: ids.dashboard, Database: ids.database } = org.services);
  const metric = async (service: string, name: string, status: string) => {
    const m = await call('POST', '/v1/metrics', {
      service_id: service,
      name,
      source_type: 'manual',
      source_config: {},
    });
    await call('POST', `/v1/metrics/${m.id}/status`, { status });
    return m.id as string;
  };
  const metrics = {
    api: await metric(ids.api, 'API availability', 'healthy'),
    dashboard: await metric(ids.dashboard, 'Dashboard errors', 'degraded'),
    database: await metric(ids.database, 'Database reachability', 'unhealthy'),
  };

  for (const key of Object.keys(SEEDED) as (keyof typeof SEEDED)[]) {
    let from = 'no_data';
    for (const f of SEEDED[key].flips) {
      const at = new Date(Date.parse(`${daysAgo(f.day)}T00:00:00.000Z`) + f.minute * 60_000);
      await api.orm.em
        .getConnection()
        .execute(
          `insert into metric_status_flips (id, organization_id, metric_id, from_status, to_status, value, reason, at) values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?)`,
          [org.id, metrics[key], from, f.status, f.status === 'no_data' ? null : 1, f.reason ?? null, at],
        );
      from = f.status;
    }
  }

  const customer = (await call('POST', '/v1/customers', { name: 'Customer Secret Co' })).id;
  const incident = await call('POST', '/v1/incidents', {
    title: 'Database unreachable',
    severity: 'major',
    affected_services: [ids.database],
    publish: true,
    initial_message: { type: 'Investigating', body: 'Connections to the primary time out.' },
  });
  ids.incident = incident.id;
  await call('POST', `/v1/incidents/${incident.id}/messages`, {
    type: 'Identified',
    body: 'A failed disk on the primary; failing over.',
  });
  ids.secret = (
    await call('POST', '/v1/incidents', {
      title: 'Private trouble for one customer',
      severity: 'minor',
      affected_services: [ids.dashboard],
      publish: true,
      visible_to_customer_ids: [customer],
      initial_message: { type: 'Investigating', body: 'Only this customer may read this.' },
    })
  ).id;
  const start = new Date(Date.now() + 86_400_000);
  const maintenance = await call('POST', '/v1/maintenances', {
    title: 'API gateway upgrade',
    description: 'Rolling restart of the gateways.',
    affected_services: [ids.api],
    scheduled_start_at: start.toISOString(),
    scheduled_end_at: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
  });
  ids.maintenance = maintenance.id;
  expect((await call('POST', `/v1/maintenances/${maintenance.id}/start`)).state).toBe('in_progress');

  await call('POST', '/v1/status-pages', {
    subdomain: SUBDOMAIN,
    title: 'Browser Check Status',
    description: 'Checked in a real browser',
    groups: [
      {
        name: 'Core',
        components: [
          { kind: 'service', id: ids.api },
          { kind: 'service', id: ids.database },
        ],
      },
      { name: 'Apps', components: [{ kind: 'service', id: ids.dashboard }] },
    ],
  });

  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('the status page in headless Chromium', () => {
  it('shows statuses, 90-day uptime bars, feed links, the incident and maintenance, and logs no errors (1280px)', async () => {
    const { page, errors, failed, close } = await open(WIDE);
    try {
      expect(await page.title()).toBe('Browser Check Status: Major outage');
      const overall = page.locator('#overall-status');
      expect(await overall.getAttribute('data-state')).toBe('major_outage');
      expect((await overall.innerText()).trim()).toBe('Major outage');
      expect(await overall.isVisible()).toBe(true);

      // data-status is what the metrics say; the words are what the page says (the API is under maintenance).
      const expected = {
        [ids.api]: ['healthy', 'Under maintenance'],
        [ids.dashboard]: ['degraded', 'Degraded performance'],
        [ids.database]: ['unhealthy', 'Major outage'],
      };
      for (const [id, [status, text]] of Object.entries(expected)) {
        const row = page.locator(`li.component[data-component-id="${id}"]`);
        expect(await row.count()).toBe(1);
        expect([id, await row.getAttribute('data-status')]).toEqual([id, status]);
        expect(await row.locator('.status-text').innerText()).toBe(text);
      }
      expect(await page.locator('li.component').count()).toBe(3);
      expect(
        await page
          .locator('.group')
          .evaluateAll((gs) => gs.map((g) => [g.querySelector('h3')?.textContent, g.getAttribute('data-status')])),
      ).toEqual([
        ['Core', 'unhealthy'],
        ['Apps', 'degraded'],
      ]);
      // The maintenance in progress marks the service it covers.
      expect(await page.locator(`li.component[data-component-id="${ids.api}"] .badge-maintenance`).innerText()).toBe(
        'Under maintenance',
      );

      // Uptime bars: 90 visible, labelled, coloured days per service, oldest first, ending today.
      for (const key of ['api', 'dashboard', 'database'] as const) {
        const bar = page.locator(`li.component[data-component-id="${ids[key]}"] ol.uptime-bar`);
        expect(await bar.count()).toBe(1);
        const days = await bar.locator(':scope > li[data-date]').evaluateAll((lis) =>
          lis.map((li) => {
            const box = li.getBoundingClientRect();
            return {
              date: li.getAttribute('data-date')!,
              title: li.getAttribute('title')!,
              bg: getComputedStyle(li).backgroundColor,
              width: box.width,
              height: box.height,
            };
          }),
        );
        expect(days).toHaveLength(90);
        expect(days.map((d) => d.date)).toEqual(Array.from({ length: 90 }, (_, i) => daysAgo(89 - i)));
        for (const d of days) {
          expect(d.title).toMatch(new RegExp(`^${d.date}: (\\d{1,3}(\\.\\d{1,2})?% uptime|no data)$`));
          expect([d.date, d.width > 0 && d.height > 0]).toEqual([d.date, true]);
        }
        for (const s of SEEDED[key].days) {
          const day = days.find((d) => d.date === daysAgo(s.day))!;
          expect([key, day.title, day.bg]).toEqual([key, `${daysAgo(s.day)}: ${s.label}`, LEVEL_RGB[s.level]]);
        }
        // A day nothing was measured on is grey and says so.
        const empty = days.find((d) => d.date === daysAgo(10))!;
        expect([empty.title, empty.bg]).toEqual([`${daysAgo(10)}: no data`, LEVEL_RGB.none]);
        expect([key, await bar.locator('xpath=following-sibling::p[@class="uptime-total"][1]').innerText()]).toEqual([
          key,
          expect.stringMatching(SEEDED[key].total),
        ]);
      }

      // Feed discovery in the head.
      const alternates = await page.evaluate(() => ({
        atom: document.querySelector('link[rel=alternate][type="application/atom+xml"]')?.getAttribute('href') ?? null,
        rss: document.querySelector('link[rel=alternate][type="application/rss+xml"]')?.getAttribute('href') ?? null,
        scripts: Array.from(
          document.scripts as unknown as ArrayLike<{ getAttribute(name: string): string | null }>,
        ).map((x) => x.getAttribute('src')),
      }));
      // The one script is the optional live update, from the page's own host; the page reads without it.
      expect(alternates).toEqual({ atom: '/feed.atom', rss: '/feed.rss', scripts: ['/live.js'] });

      // The active incident with both updates (newest first), and the maintenance in progress.
      const incident = page.locator(`article[data-incident-id="${ids.incident}"]`);
      expect(await incident.isVisible()).toBe(true);
      expect(await page.locator('section[aria-labelledby="active-incidents"] article[data-incident-id]').count()).toBe(
        1,
      );
      expect(await incident.locator('h3').innerText()).toBe('Database unreachable');
      expect(await incident.locator('.timeline .entry .text').allInnerTexts()).toEqual([
        'A failed disk on the primary; failing over.',
        'Connections to the primary time out.',
      ]);
      const maintenance = page.locator(
        `section[aria-labelledby="maintenance-now"] article[data-maintenance-id="${ids.maintenance}"]`,
      );
      expect(await maintenance.isVisible()).toBe(true);
      expect(await maintenance.getAttribute('data-state')).toBe('in_progress');
      expect(await maintenance.innerText()).toContain('Maintenance: In progress');

      // The customer-scoped incident is nowhere on the public page.
      const body = await page.content();
      for (const secret of [
        ids.secret,
        'Private trouble for one customer',
        'Only this customer may read this.',
        'Customer Secret Co',
      ])
        expect(body).not.toContain(secret);

      await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-wide.png'), fullPage: true });
      expect(errors).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await close();
    }
  });

  it('fits a 360px-wide screen without horizontal scrolling, showing the last 30 days', async () => {
    const { page, errors, failed, close } = await open(NARROW);
    try {
      const widths = await page.evaluate(() => ({
        doc: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.client).toBe(360);
      expect(widths.doc).toBeLessThanOrEqual(360);
      expect(widths.body).toBeLessThanOrEqual(360);
      for (const id of [ids.api, ids.dashboard, ids.database]) {
        const shown = await page
          .locator(`li.component[data-component-id="${id}"] ol.uptime-bar > li[data-date]`)
          .evaluateAll((lis) =>
            lis
              .filter((li) => getComputedStyle(li).display !== 'none' && li.getBoundingClientRect().width > 0)
              .map((li) => li.getAttribute('data-date')),
          );
        expect(shown).toEqual(Array.from({ length: 30 }, (_, i) => daysAgo(29 - i)));
      }
      expect(await page.locator('#overall-status').isVisible()).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-mobile.png'), fullPage: true });
      expect(errors).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await close();
    }
  });

  it('follows the Atom and RSS alternate links in the browser', async () => {
    const { page, errors, close } = await open(WIDE);
    try {
      expect(errors).toEqual([]);
      for (const [type, contentType, root] of [
        ['application/atom+xml', 'application/atom+xml; charset=utf-8', 'feed'],
        ['application/rss+xml', 'application/rss+xml', 'rss'],
      ] as const) {
        await page.goto(`${base}/`);
        const href = await page.evaluate(
          (t) => document.querySelector(`link[rel=alternate][type="${t}"]`)?.getAttribute('href') ?? null,
          type,
        );
        expect([type, href]).toEqual([type, expect.stringMatching(/^\/feed\.(atom|rss)$/)]);
        const res = await page.goto(new URL(href!, page.url()).href);
        expect([type, res?.status(), res?.headers()['content-type']]).toEqual([type, 200, contentType]);
        const text = await res!.text();
        expect(text).toMatch(new RegExp(`<${root}[\\s>]`));
        expect(text).toContain('Database unreachable');
        expect(text).not.toContain('Private trouble for one customer');
      }
      // Chromium's XML viewer asks for /favicon.ico too: the page host answers it, so no errors at all.
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('subscribes through the page form', async () => {
    const { page, errors, failed, close } = await open(WIDE);
    try {
      await page.fill('input[name=email]', 'browser-reader@example.com');
      const [res] = await Promise.all([page.waitForNavigation(), page.click('form.subscribe button[type=submit]')]);
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/subscribe');
      expect(await page.locator('h1').innerText()).toBe('Check your inbox');
      expect(errors).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await close();
    }
  });
});

/**
 * The page never tells two stories (page-state.ts): a reviewer's walk through an outage, a
 * maintenance window, an incident and its resolve, each step read as a visitor reads it.
 */
describe('one story at a time, through an outage, a maintenance and an incident', () => {
  const WALK = 'browser-walk';
  let walk: OrgFixture<never, 'Checkout' | 'Search'>;
  let walkBase: string;
  let checkoutMetric: string;
  const RED = 'rgb(209, 36, 47)';
  const ok = async (method: string, url: string, body?: unknown) => {
    const r = await walk.call(method, url, body);
    if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
    return r.body;
  };
  const headline = async (page: Page) => {
    const banner = page.locator('#overall-status');
    return {
      text: (await banner.innerText()).trim(),
      bg: await banner.evaluate((b) => getComputedStyle(b).backgroundColor),
    };
  };
  const componentText = (page: Page, id: string) =>
    page.locator(`li.component[data-component-id="${id}"] .status-text`).innerText();

  beforeAll(async () => {
    walk = await orgWithKeys(api, { name: 'browser walk', services: ['Checkout', 'Search'] });
    walkBase = `http://${WALK}.status.localhost:${new URL(api.baseUrl).port}`;
    for (const [svc, name] of [
      [walk.services.Checkout, 'Checkout errors'],
      [walk.services.Search, 'Search latency'],
    ] as const) {
      const m = await ok('POST', '/v1/metrics', { service_id: svc, name, source_type: 'manual', source_config: {} });
      await ok('POST', `/v1/metrics/${m.id}/status`, { status: 'healthy' });
      if (svc === walk.services.Checkout) checkoutMetric = m.id;
    }
    await ok('POST', '/v1/status-pages', {
      subdomain: WALK,
      title: 'Walk Status',
      groups: [
        {
          name: 'Shop',
          components: [
            { kind: 'service', id: walk.services.Checkout },
            { kind: 'service', id: walk.services.Search },
          ],
        },
      ],
    });
  });

  it('updates itself while open: an incident posted appears without a reload, and the page still reads without script', async () => {
    const context = await browser.newContext({ viewport: WIDE });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const loads: string[] = [];
    try {
      // The page's clock runs on command, so the test need not wait out the real 30 s period.
      await page.clock.install();
      await page.goto(`${walkBase}/`);
      page.on('load', () => loads.push(page.url()));
      expect(await page.locator('main').getAttribute('data-live-seconds')).toBe('30');
      const incident = await ok('POST', '/v1/incidents', {
        title: 'Search is slow',
        severity: 'minor',
        affected_services: [walk.services.Search],
        publish: true,
        initial_message: { type: 'Investigating', body: 'Searches take seconds.' },
      });
      expect(await page.locator(`article[data-incident-id="${incident.id}"]`).count()).toBe(0);
      await page.clock.fastForward(31_000);
      await page
        .locator(`section[aria-labelledby="active-incidents"] article[data-incident-id="${incident.id}"]`)
        .waitFor();
      expect(await page.locator('main').getAttribute('data-live-updated')).toBeTruthy();
      expect(loads).toEqual([]);
      await ok('POST', `/v1/incidents/${incident.id}/resolve`, { message: 'Fast again.' });
      await page.clock.fastForward(31_000);
      await page
        .locator(`section[aria-labelledby="active-incidents"] article[data-incident-id="${incident.id}"]`)
        .waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    // Without script the same page is complete: the incident list is in the HTML itself.
    const noScript = await browser.newContext({ viewport: WIDE, javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      await page.goto(`${walkBase}/`);
      expect(await page.locator('#overall-status').isVisible()).toBe(true);
    } finally {
      await noScript.close();
    }
  });

  it('says outage, then maintenance, then the incident, then all clear at once after the resolve', async () => {
    const context = await browser.newContext({ viewport: WIDE });
    context.setDefaultTimeout(5_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const checkout = walk.services.Checkout;
    try {
      // 1. Checkout is down: the page says outage.
      await ok('POST', `/v1/metrics/${checkoutMetric}/status`, { status: 'unhealthy' });
      await page.goto(`${walkBase}/`);
      expect(await headline(page)).toEqual({ text: 'Major outage', bg: RED });
      expect(await componentText(page, checkout)).toBe('Major outage');
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-walk-1-outage.png'), fullPage: true });

      // 2. Announced maintenance covering Checkout is in progress: maintenance, and no red outage anywhere.
      const start = Date.now() + 3_600_000;
      const window = await ok('POST', '/v1/maintenances', {
        title: 'Payment provider switch',
        affected_services: [checkout],
        scheduled_start_at: new Date(start).toISOString(),
        scheduled_end_at: new Date(start + 3_600_000).toISOString(),
      });
      await ok('POST', `/v1/maintenances/${window.id}/start`);
      await page.goto(`${walkBase}/`);
      const during = await headline(page);
      expect(during.text).toBe('Under maintenance');
      expect(during.bg).not.toBe(RED);
      expect(await page.locator('#overall-status').getAttribute('data-state')).toBe('under_maintenance');
      expect(await page.title()).toBe('Walk Status: Under maintenance');
      expect(await componentText(page, checkout)).toBe('Under maintenance');
      expect(await page.getByText('Major outage').count()).toBe(0);
      expect(
        await page.locator('section[aria-labelledby="maintenance-now"] article[data-maintenance-id]').count(),
      ).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-walk-2-maintenance.png'), fullPage: true });

      // 3. The window ends, metrics recover, and a major incident is published: its impact is the headline.
      await ok('POST', `/v1/maintenances/${window.id}/complete`);
      await ok('POST', `/v1/metrics/${checkoutMetric}/status`, { status: 'healthy' });
      const incident = await ok('POST', '/v1/incidents', {
        title: 'Card payments fail',
        severity: 'minor',
        affected_services: [checkout],
        service_impacts: [{ service_id: checkout, impact: 'major_outage' }],
        publish: true,
        initial_message: { type: 'Investigating', body: 'Card payments are declined.' },
      });
      await page.goto(`${walkBase}/`);
      expect(await headline(page)).toEqual({ text: 'Major outage', bg: RED });
      expect(await componentText(page, checkout)).toBe('Major outage');
      expect(
        await page
          .locator(`section[aria-labelledby="active-incidents"] article[data-incident-id="${incident.id}"]`)
          .isVisible(),
      ).toBe(true);
      expect(await page.getByText('All systems operational').count()).toBe(0);
      expect(await page.getByText('No incidents in the last 7 days').count()).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-walk-3-incident.png'), fullPage: true });

      // 4. Resolved: the visitor opens the history, then goes back to the home page by its link.
      await ok('POST', `/v1/incidents/${incident.id}/resolve`, { message: 'Payments work again.' });
      await page.locator('section[aria-labelledby="recent-incidents"] a[href="/history"]').click();
      await page.waitForURL(`${walkBase}/history`);
      expect(await page.locator(`article[data-incident-id="${incident.id}"]`).getAttribute('data-state')).toBe(
        'resolved',
      );
      await page.getByRole('link', { name: 'Back to current status' }).click();
      await page.waitForURL(`${walkBase}/`);
      expect(await page.locator('section[aria-labelledby="active-incidents"]').count()).toBe(0);
      expect(await headline(page)).toEqual({ text: 'All systems operational', bg: 'rgb(26, 127, 55)' });
      expect(await componentText(page, checkout)).toBe('Operational');
      expect(
        await page
          .locator(`section[aria-labelledby="recent-incidents"] article[data-incident-id="${incident.id}"]`)
          .getAttribute('data-state'),
      ).toBe('resolved');
      expect(await page.getByText('Ongoing', { exact: true }).count()).toBe(0);
      expect(await page.getByText('No incidents in the last 7 days').count()).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'status-walk-4-resolved.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
