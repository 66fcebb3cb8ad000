/**
 * The console on a 390 px phone, in a real headless Chromium: the navigation takes one line (it
 * scrolls sideways) instead of five, and stays the wrapped row it is at 1280 px; a card's labels
 * (tables read as cards, fact lists) never run into their value or into the next row. Checked on
 * the overview, a metric's page, the alerts page and an incident's page.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { commitSamples } from '../../src/usecases/metrics/ingest';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInInBrowser } from '../support/console-browser';
import { NARROW_WIDTH, collectConsoleErrors, hasHorizontalScroll } from '../support/console-page-checks';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/console-phone');
const PHONE = { width: NARROW_WIDTH, height: 844 };
const WIDE = { width: 1280, height: 900 };
const EMAIL = 'owner@phone-layout.test';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let org: OrgFixture<never, 'Checkout API for card payments in the European Union' | 'Search'>;
let metricId: string;
let incidentId: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  [api, browser] = await Promise.all([startApi({ console: { mail: mailer } }), launchBrowser()]);
  org = await orgWithKeys(api, {
    services: ['Checkout API for card payments in the European Union', 'Search'] as const,
  });
  const service = org.services['Checkout API for card payments in the European Union'];
  const metric = await org.call('POST', '/v1/metrics', {
    service_id: service,
    name: 'Checkout latency measured from every region',
    source_type: 'heartbeat',
    source_config: {},
    thresholds: { healthy_operation: 'under', healthy_value: 500, unhealthy_operation: 'over', unhealthy_value: 2000 },
    unit: 'ms',
  });
  metricId = metric.body.id;
  const now = Date.now();
  const samples = [5, 4, 3, 2, 1].map((hoursAgo, i) => ({
    metricId,
    sampledAt: new Date(now - hoursAgo * 3_600_000),
    value: 120 + i * 900,
    status: i === 3 ? 'unhealthy' : i === 2 ? 'degraded' : 'healthy',
    reason: null,
  }));
  await commitSamples(api.orm.em.fork() as EntityManager, org.id, samples, new Date());
  const incident = await org.call('POST', '/v1/incidents', {
    title: 'Card payments in the European Union fail for some customers',
    severity: 'major',
    affected_services: [service],
    publish: true,
    initial_message: { body: 'We are looking into failing card payments.' },
  });
  incidentId = incident.body.id;
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: EMAIL, role: 'owner' }, new Date());
  context = await browser.newContext({ viewport: WIDE });
  page = await context.newPage();
  errors = collectConsoleErrors(page);
  await signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, EMAIL);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

const nav = () => page.getByRole('navigation', { name: 'Console' });

/** The tops of the navigation's links (one distinct top: one line), and whether its list scrolls sideways. */
async function navLayout(): Promise<{ tops: number[]; height: number; scrolls: boolean; links: number }> {
  return page.evaluate(`(() => {
    const ul = document.querySelector('nav.main ul');
    const links = [...ul.querySelectorAll('a')];
    return {
      tops: [...new Set(links.map((a) => Math.round(a.getBoundingClientRect().top)))],
      height: Math.round(ul.getBoundingClientRect().height),
      scrolls: ul.scrollWidth > ul.clientWidth + 1,
      links: links.length,
    };
  })()`);
}

/**
 * Where a card's label reaches into its value or past its cell (into the next row), and where a
 * fact list's term and description boxes overlap one another. A table cell's label is its
 * `::before` (the column's name), drawn from the cell's top-left corner inside its left padding.
 */
async function labelOverlaps(): Promise<string[]> {
  return page.evaluate(`(() => {
    const out = [];
    const text = (el) => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    for (const td of document.querySelectorAll('.table-wrap td[data-label]')) {
      const label = getComputedStyle(td, '::before');
      if (label.content === 'none' || label.display === 'none') continue;
      const cell = td.getBoundingClientRect();
      const style = getComputedStyle(td);
      const height = parseFloat(label.height);
      const width = parseFloat(label.width);
      const bottom = cell.top + parseFloat(style.paddingTop) + height;
      if (bottom > cell.bottom + 1) out.push('label "' + td.dataset.label + '" of "' + text(td) + '" reaches ' + Math.round(bottom - cell.bottom) + ' px into the next row');
      if (cell.left + width > cell.left + parseFloat(style.paddingLeft) + 1) out.push('label "' + td.dataset.label + '" runs into its value "' + text(td) + '"');
    }
    for (const dl of document.querySelectorAll('dl.facts')) {
      const boxes = [...dl.children].filter((c) => c.tagName === 'DT' || c.tagName === 'DD').map((c) => ({ el: c, r: c.getBoundingClientRect() }));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r, b = boxes[j].r;
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x > 1 && y > 1) out.push(boxes[i].el.tagName.toLowerCase() + ' "' + text(boxes[i].el) + '" overlaps ' + boxes[j].el.tagName.toLowerCase() + ' "' + text(boxes[j].el) + '"');
        }
      }
    }
    return out;
  })()`);
}

describe('the console on a 390 px phone', () => {
  it('shows the navigation as one line at 390 px, wrapped and complete at 1280 px, and its links still lead where they say', async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${api.baseUrl}/console`);
    const wide = await navLayout();
    expect(wide.links).toBeGreaterThanOrEqual(18);
    // At 1280 px every link is in view, over as many lines as they need: nothing to scroll to.
    expect(wide.scrolls).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'nav-1280.png') });

    await page.setViewportSize(PHONE);
    const narrow = await navLayout();
    expect(narrow.links).toBe(wide.links);
    expect(narrow.tops).toHaveLength(1);
    expect(narrow.height).toBeLessThan(56);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'nav-390.png') });

    // The last link, off to the right on a phone, is reached and followed like any other.
    await nav().getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const current = nav().getByRole('link', { name: 'Settings', exact: true });
    expect(await current.getAttribute('aria-current')).toBe('page');
    // The page it opens shows where the reader is: the current link is scrolled into view.
    const box = (await current.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: path.join(ARTIFACTS, 'nav-settings-390.png') });
    await nav().getByRole('link', { name: 'Metrics', exact: true }).click();
    await page.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  }, 60_000);

  it('keeps every card label beside or above its value, never over it or the next row, on the overview, a metric, the alerts and an incident', async () => {
    await page.setViewportSize(PHONE);
    const pages: [string, string][] = [
      ['overview', '/console'],
      ['metric', `/console/metrics/${metricId}`],
      ['alerts', '/console/alerts'],
      ['incident', `/console/incidents/${incidentId}`],
    ];
    const found: [string, string[], boolean][] = [];
    for (const [name, href] of pages) {
      const res = await page.goto(`${api.baseUrl}${href}`);
      expect([name, res?.status()]).toEqual([name, 200]);
      await page.getByRole('heading', { level: 1 }).waitFor();
      found.push([name, await labelOverlaps(), await hasHorizontalScroll(page)]);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-390.png`), fullPage: true });
    }
    expect(found).toEqual(pages.map(([name]) => [name, [], false]));
    // The pages have cards to check: the metric's samples and the incident's facts.
    await page.goto(`${api.baseUrl}/console/metrics/${metricId}`);
    expect(await page.locator('.table-wrap td[data-label]').count()).toBeGreaterThan(10);
    expect(await page.locator('dl.facts dt').count()).toBeGreaterThan(5);
    expect(errors).toEqual([]);
  }, 60_000);
});
