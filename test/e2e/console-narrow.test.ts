/**
 * Issue 27 at 390 px in a real headless Chromium (Debian's, driven by playwright-core): the overview
 * and a service page scroll only vertically, tables read as cards, the 90-day bars end at today's
 * bar at the right edge, and console.js shows times in the browser's zone without a CSP error.
 * A missing Chromium fails this file; it is never skipped.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Browser } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { commitSamples } from '../../src/usecases/metrics/ingest';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(s: string): ArrayLike<{
    getAttribute(n: string): string | null;
    textContent: string | null;
    getBoundingClientRect(): { left: number; right: number; width: number };
  }>;
};
declare const window: { innerWidth: number };
declare function getComputedStyle(el: never, pseudo: string): { content: string };

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/console');
const PHONE = { width: 390, height: 844 };
const HEARTBEAT = {
  healthy_operation: 'under',
  healthy_value: 500,
  unhealthy_operation: 'over',
  unhealthy_value: 2000,
};

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let org: OrgFixture<never, 'Checkout API with a long name that wraps on phones' | 'Search'>;
let cookie: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  [api, browser] = await Promise.all([startApi({ console: { mail: mailer } }), launchBrowser()]);
  org = await orgWithKeys(api, { services: ['Checkout API with a long name that wraps on phones', 'Search'] as const });
  const metric = (
    await org.call('POST', '/v1/metrics', {
      service_id: org.services['Checkout API with a long name that wraps on phones'],
      name: 'Checkout latency',
      source_type: 'heartbeat',
      source_config: {},
      thresholds: HEARTBEAT,
      unit: 'ms',
    })
  ).body.id;
  const now = Date.now();
  const rows = [40, 20, 3, 2, 1].map((daysAgo, i) => ({
    metricId: metric,
    sampledAt: new Date(now - daysAgo * 86_400_000 - (i === 2 ? 0 : 3_600_000)),
    value: 100 + i * 40,
    status: i === 3 ? 'unhealthy' : 'healthy',
    reason: null,
  }));
  rows.push({ metricId: metric, sampledAt: new Date(now - 600_000), value: 180, status: 'healthy', reason: null });
  await commitSamples(api.orm.em.fork() as EntityManager, org.id, rows, new Date());
  await org.call('POST', '/v1/incidents', {
    title: 'Checkout is slow for some card payments in Europe',
    severity: 'major',
    affected_services: [org.services['Checkout API with a long name that wraps on phones']],
    publish: true,
  });
  const client = await signedInClient(api, smtp, org.id, 'phone@narrow.test', 'operator');
  cookie = client.cookie;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

async function phonePage(zone: string) {
  const context = await browser.newContext({ viewport: PHONE, timezoneId: zone });
  const eq = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: api.baseUrl }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

describe('the console at 390 px (issue 27)', () => {
  it('shows the overview without horizontal scrolling, tables as cards, and the 90-day bars ending at today', async () => {
    const { context, page, errors } = await phonePage('Asia/Tokyo');
    const res = await page.goto(`${api.baseUrl}/console`);
    expect(res?.status()).toBe(200);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    // Cards: the header row is hidden, each cell shows its column's name.
    expect(
      await page
        .locator('.table-wrap thead')
        .first()
        .evaluate((el) => (el as unknown as { offsetHeight: number }).offsetHeight),
    ).toBeLessThanOrEqual(1);
    expect(
      await page
        .locator('td[data-label="Status"]')
        .first()
        .evaluate((el) => getComputedStyle(el as never, '::before').content),
    ).toBe('"Status"');
    // The last bar is today's and is drawn inside the row, at its right edge.
    const today = new Date().toISOString().slice(0, 10);
    const bars = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.bars')).map((b) => {
        const last = (
          b as unknown as {
            querySelector(s: string): {
              getAttribute(n: string): string | null;
              getBoundingClientRect(): { right: number };
            };
          }
        ).querySelector('rect:last-of-type')!;
        return {
          last: last.getAttribute('data-last'),
          right: last.getBoundingClientRect().right,
          boxRight: b.getBoundingClientRect().right,
          innerWidth: window.innerWidth,
        };
      }),
    );
    expect(bars.length).toBeGreaterThan(0);
    for (const b of bars) {
      expect(b.last).toBe(today);
      expect(Math.abs(b.right - b.boxRight)).toBeLessThan(1.5);
      expect(b.right).toBeLessThanOrEqual(b.innerWidth);
    }
    // console.js: no zone chosen, so times read in the browser's zone (Tokyo), naming it.
    const zoned = await page.evaluate(() =>
      Array.from(document.querySelectorAll('time[datetime]')).map((t) => [t.getAttribute('data-zone'), t.textContent]),
    );
    expect(zoned.length).toBeGreaterThan(0);
    for (const [zone, text] of zoned) {
      expect(zone).toBe('Asia/Tokyo');
      expect(text).toMatch(/(GMT\+9|JST)$/);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, 'overview-390.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a service page with its chart without horizontal scrolling', async () => {
    const { context, page, errors } = await phonePage('UTC');
    const res = await page.goto(
      `${api.baseUrl}/console/services/${org.services['Checkout API with a long name that wraps on phones']}?range=30d`,
    );
    expect(res?.status()).toBe(200);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    const chart = await page.locator('figure.chart > svg').boundingBox();
    expect(chart!.x).toBeGreaterThanOrEqual(0);
    expect(chart!.x + chart!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.locator('path.series').count()).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'service-390.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("shows times in the zone the user chose, not the browser's", async () => {
    const setZone = (zone: string | null) =>
      api.orm.em
        .fork()
        .getConnection()
        .execute('update console_users set time_zone = ? where email = ?', [zone, 'phone@narrow.test']);
    await setZone('Europe/Berlin');
    try {
      const { context, page, errors } = await phonePage('Asia/Tokyo');
      expect((await page.goto(`${api.baseUrl}/console/incidents`))?.status()).toBe(200);
      const zoned = await page.evaluate(() =>
        Array.from(document.querySelectorAll('time[datetime]')).map((t) => [
          t.getAttribute('data-zone'),
          t.textContent,
        ]),
      );
      expect(zoned.length).toBeGreaterThan(0);
      // Rendered in the chosen zone by the server, or rewritten into it by console.js: never the browser's.
      for (const [zone, text] of zoned) {
        expect([null, 'Europe/Berlin']).toContain(zone);
        expect(text).toMatch(/(CET|CEST|GMT\+1|GMT\+2)$/);
      }
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await setZone(null);
    }
  }, 60_000);
});
