/**
 * An operator in a real headless Chromium drafts an incident from a metric's page: the draft
 * speaks to customers, the evidence sits apart in the internal note, the operator edits the
 * message, previews the subscriber email and publishes; the public page (fetched as HTML) shows
 * the plain words and none of the evidence. A missing Chromium fails this file.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInInBrowser } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { pageRequest } from '../support/status-host';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let org: TestOrg;
const subdomain = `plain-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer, temporalUiUrl: null } });
  org = await api.createOrg('enterprise', 'Plain Words Inc');
  browser = await launchBrowser();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

const call = async (method: string, p: string, body?: unknown) => {
  const r = await api.request(method, p, { key: org.key, body });
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
};

async function signIn(page: Page, email: string): Promise<void> {
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role: 'operator' }, new Date());
  await signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, email);
}

describe('Create incident from a metric, in the console', () => {
  it('drafts plain words, keeps the evidence internal, edits the message, previews the email, publishes', async () => {
    const service = (await call('POST', '/v1/services', { name: 'Checkout' })).id;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'Checkout p99 probe',
        source_type: 'manual',
        source_config: {},
      })
    ).id;
    await call('POST', `/v1/metrics/${metric}/status`, { status: 'healthy' });
    await call('POST', `/v1/metrics/${metric}/status`, { status: 'unhealthy' });
    await call('POST', '/v1/status-pages', {
      subdomain,
      title: 'Checkout Status',
      time_zone: 'Europe/Berlin',
      groups: [{ name: 'Shop', components: [{ kind: 'service', id: service }] }],
    });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
    });
    await signIn(page, `operator-${randomUUID().slice(0, 8)}@plain.example`);

    await page.goto(`${api.baseUrl}/console/metrics/${metric}`);
    await page.getByRole('button', { name: 'Create incident' }).click();
    await page.waitForURL(/\/console\/incidents\/[0-9a-f-]{36}$/);
    await page.getByText('Draft incident created').waitFor();
    const incidentId = new URL(page.url()).pathname.split('/').at(-1)!;

    // The message customers will read, and the evidence apart from it.
    const messages = page.locator('.incident-messages .message-body');
    await expect(messages.first().innerText()).resolves.toMatch(
      /^We are investigating problems with Checkout since (\d{1,2} [A-Z][a-z]+, )?\d{2}:\d{2} (CET|CEST)\.$/,
    );
    const note = await page.locator('[data-internal-note]').innerText();
    expect(note).toContain(`Metric Checkout p99 probe (${metric}) is unhealthy since`);
    expect(note).toContain('(was healthy)');
    expect(await messages.first().innerText()).not.toContain('Checkout p99 probe');

    // The subscriber email the publish would send, from the email renderer.
    expect(await page.locator('[data-preview-subject]').innerText()).toBe(
      '[Checkout Status] Investigating: Problems with Checkout',
    );
    expect(await page.locator('[data-preview-text]').innerText()).toContain(
      'We are investigating problems with Checkout since',
    );
    expect(await page.locator('[data-preview-text]').innerText()).not.toContain('Checkout p99 probe');

    // Edit the message before publishing.
    const item = page.locator('.incident-messages li').first();
    await item.locator('summary', { hasText: 'Edit' }).click();
    const plain = 'We are investigating failed payments at checkout. Orders already placed are safe.';
    await item.getByLabel('Message (Investigating)').fill(plain);
    await item.getByRole('button', { name: 'Save message' }).click();
    await page.getByText('Message saved.').waitFor();
    expect(await page.locator('.incident-messages .message-body').first().innerText()).toBe(plain);
    await expect(page.locator('.incident-messages [data-edited]').first().innerText()).resolves.toMatch(/^edited /);
    await page.locator('.incident-messages summary', { hasText: 'Earlier versions (1)' }).click();
    expect(await page.locator('.incident-messages li').first().innerText()).toContain(
      'We are investigating problems with Checkout since',
    );
    expect(await page.locator('[data-preview-text]').innerText()).toContain(plain);

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Incident published.').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // The public page, as a customer fetches it: the plain words, none of the evidence.
    const html = (await pageRequest(api.baseUrl, subdomain, '/')).text;
    expect(html).toContain('Problems with Checkout');
    expect(html).toContain('We are investigating failed payments at checkout.');
    for (const secret of ['Checkout p99 probe', metric, 'was healthy', note.slice(0, 40)])
      expect(html).not.toContain(secret);
    const detail = (await pageRequest(api.baseUrl, subdomain, `/incidents/${incidentId}`)).text;
    expect(detail).toContain('We are investigating failed payments at checkout.');
    expect(detail).not.toContain('Checkout p99 probe');
  });
});
