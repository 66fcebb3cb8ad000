/**
 * Times in the reader's zone, in a real headless Chromium whose zone is America/New_York: the public
 * page (its zone Europe/Berlin) shows its times in the visitor's zone through /live.js, naming it,
 * and in Berlin time without script; a console user who chose no zone sees the browser's zone,
 * and the timeline's note names it. A missing Chromium fails this file; it is never skipped.
 */
import type { Browser, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInPathFromMail } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const SUBDOMAIN = 'zones-check';
const VISITOR = 'America/New_York';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, 'Checkout'>;
let browser: Browser;
let base: string;
let incidentId: string;

const call = async (method: string, url: string, body?: unknown) => {
  const r = await org.call(method, url, body);
  if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
  return r.body;
};

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  org = await orgWithKeys(api, { name: 'zones in a browser', services: ['Checkout'] });
  base = `http://${SUBDOMAIN}.status.localhost:${new URL(api.baseUrl).port}`;
  await call('POST', '/v1/status-pages', {
    subdomain: SUBDOMAIN,
    title: 'Zones Status',
    time_zone: 'Europe/Berlin',
    groups: [{ name: 'Shop', components: [{ kind: 'service', id: org.services.Checkout }] }],
  });
  incidentId = (
    await call('POST', '/v1/incidents', {
      title: 'Checkout is slow',
      severity: 'major',
      affected_services: [org.services.Checkout],
      publish: true,
      initial_message: { type: 'Investigating', body: 'We are looking into it.' },
    })
  ).id;
  await createConsoleUser(
    api.orm.em.fork(),
    { organizationId: org.id, email: 'nozone@zones.test', role: 'viewer' },
    new Date(),
  );
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The text and tooltip of every `<time>` in the page. */
const timesOf = (page: Page) =>
  page
    .locator('time[datetime]')
    .evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', title: e.getAttribute('title') })));

describe("times in the reader's zone (Chromium in America/New_York)", () => {
  it("shows the public page's times in the visitor's zone, named, and says which zone", async () => {
    const context = await browser.newContext({ timezoneId: VISITOR });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/`, { waitUntil: 'load' });
      await page.locator('[data-zone-note]').filter({ hasText: VISITOR }).waitFor();
      const times = await timesOf(page);
      expect(times.length).toBeGreaterThan(1);
      for (const t of times) {
        expect(t.title).toBe(VISITOR);
        // en-GB names New York's offset GMT-4/GMT-5 (or EST/EDT): never the page's CET beside it.
        expect(t.text).toMatch(/(GMT-[45]|E[SD]T)$/);
      }
      expect(await page.locator('[data-zone-note]').textContent()).toBe(
        `Times are shown in your time zone, ${VISITOR}.`,
      );
      expect(await page.locator('#main').textContent()).not.toMatch(/\b(CET|CEST|UTC)\b/);
    } finally {
      await context.close();
    }
  });

  it("keeps the public page in the page's zone, named, without script", async () => {
    const context = await browser.newContext({ timezoneId: VISITOR, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/`, { waitUntil: 'load' });
      for (const t of await timesOf(page)) expect(t.text).toMatch(/ CES?T$/);
      expect(await page.locator('[data-zone-note]').textContent()).toBe('Times are shown in Europe/Berlin.');
    } finally {
      await context.close();
    }
  });

  it("shows a console user who chose no zone the browser's zone, and the timeline note names it", async () => {
    const context = await browser.newContext({ timezoneId: VISITOR });
    try {
      const page = await context.newPage();
      await page.goto(`${api.baseUrl}/console`);
      await page.getByLabel('Email address').fill('nozone@zones.test');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByText('a sign-in link is on its way').waitFor();
      await page.goto(`${api.baseUrl}${await signInPathFromMail(smtp, 'nozone@zones.test')}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.goto(`${api.baseUrl}/console/incidents/${incidentId}`);
      await page.locator('[data-zone-name]').filter({ hasText: VISITOR }).waitFor();
      expect(await page.locator('#timeline + p').textContent()).toBe(`Oldest first, times in ${VISITOR}.`);
      const times = await timesOf(page);
      expect(times.length).toBeGreaterThan(1);
      for (const t of times) {
        expect(t.title).toBe(VISITOR);
        expect(t.text).toMatch(/(GMT-[45]|E[SD]T)$/);
      }
    } finally {
      await context.close();
    }
  });
});
