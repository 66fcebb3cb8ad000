/**
 * Issue 27's journey in a real headless Chromium (Debian's, driven by playwright-core): from an
 * organization with nothing in it to a live public status page, by clicking and typing only. An
 * operator signs in by the emailed link, creates a service, a cloud HTTP metric against a loopback
 * target (Test this probe first, then save) and waits for its live value, creates a status page
 * showing both, opens the live page, publishes an incident with an impact, and a reader subscribes
 * through the public page, confirms by the emailed link and gets the incident's next update by
 * email. Then a viewer and a finance user find each of those tasks refused: no button, 403 on the
 * form, 403 on a post. API and database reads only check what the browser did.
 *
 * Every console page of the journey is checked as test/support/console-page-checks.ts checks pages
 * (axe-core, no sideways scroll or cut-off control at 390 px, no console error), in a second
 * context of the same session that lets axe in (the journey's own context keeps the strict CSP).
 * Screenshots (1280 × 800) go to test-artifacts/console-journey/; docs/images takes copies by hand.
 *
 * Behind the browser: the real API on PostgreSQL, a real Temporal server and worker (metric rounds
 * and first checks, cloud probe tests, the outbox relay and subscriber email), and an SMTP sink.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { createConsoleUser } from '../../src/usecases/console/users';
import type { ConsoleRole } from '../../src/domain/console-roles';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInPathFromMail } from '../support/console-browser';
import {
  NARROW_WIDTH,
  collectConsoleErrors,
  findClippedControls,
  hasHorizontalScroll,
  logPageTiming,
  runAxe,
} from '../support/console-page-checks';
import { testLinkKey } from '../support/env';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/console-journey');
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: NARROW_WIDTH, height: 800 };
/** What Temporal does on a loaded 2-core machine: probe tests, rounds, email runs. */
const TEMPORAL_WAIT = 30_000;
/** A new metric's first samples and its confirmed status (first check at once, then rounds every 10 s). */
const LIVE_WAIT = 90_000;

const run = randomUUID().slice(0, 8);
const SERVICE = 'Checkout API';
const METRIC = 'Queue depth';
const PAGE_TITLE = 'Acme Status';
const SUBDOMAIN = `journey-${run}`;
const INCIDENT = 'Card payments failing';
const OPERATOR = `operator-${run}@acme.example`;
const READER = `reader-${run}@customer.example`;

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let org: TestOrg;
let target: http.Server;
let targetUrl: string;
/** The live page's base URL: `http://<subdomain>.status.localhost:<port>` (launchBrowser maps the host to loopback). */
let pageBase: string;
/** Where the subscriber email links point; the API's port is known only once it listens. */
const site = { statusHost: 'status.localhost', publicBaseUrl: 'http://127.0.0.1' };

let operator: { context: BrowserContext; page: Page; errors: string[] };
/** What the journey made, by id, for the refusal checks and clean-up. */
const made: { service?: string; metric?: string; statusPage?: string; incident?: string } = {};
/** Each journey page's check failures (axe, sideways scroll, cut-off controls), by label; asserted at the end. */
const pageProblems: [string, unknown][] = [];
const checkedPages: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  // The cloud prober may reach loopback (where the target listens): the documented allow-list. The relay and email deps send subscriber mail.
  h = await startTemporalHarness({
    cloudAllowCidrs: '127.0.0.0/8,::1/128',
    relay: true,
    email: { mailer, linkKey: testLinkKey(), site, retryBaseMs: 300 },
  });
  // Wired as `vigil start` wires it: cloud probe tests start eagerly on this worker; the metric form lists this installation's locations.
  api = await startApi({
    console: { mail: mailer, temporalUiUrl: 'http://127.0.0.1:8233' },
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    probeTestExpiryMs: 60_000,
    metricScheduler: temporalMetricScheduler(h.temporal),
    taskQueue: h.taskQueue,
  });
  site.publicBaseUrl = api.baseUrl;
  pageBase = `http://${SUBDOMAIN}.status.localhost:${new URL(api.baseUrl).port}`;
  org = await api.createOrg('enterprise', 'Acme');
  browser = await launchBrowser();

  target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ queue_depth: 17 }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/stats`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  // Deleted, the cloud metric leaves its bucket; the bucket's next run finds it empty and retires its Schedule.
  if (made.metric) await api.request('DELETE', `/v1/metrics/${made.metric}`, { key: org.key }).catch(() => undefined);
  target?.closeAllConnections();
  await new Promise((r) => (target ? target.close(r) : r(undefined)));
  await api?.close();
  await h?.close();
  await mailer?.close();
  await smtp?.close();
});

/** A console user of `role`, signed in through the emailed link in a context of their own. */
async function signedIn(email: string, role: ConsoleRole, ignore: (text: string) => boolean = () => false) {
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role }, new Date());
  const context = await browser.newContext({ viewport: WIDE });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors = collectConsoleErrors(page, ignore);
  page.on('response', (r) => {
    if (r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${api.baseUrl}/console`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  await page.goto(`${api.baseUrl}${await signInPathFromMail(smtp, email)}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { context, page, errors };
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

let checker: Page | null = null;
let checkerErrors: string[] = [];
/**
 * Checks a console page of the journey as console-page-checks does, in a context of the operator's
 * session that lets axe-core in (bypassCSP): no serious or critical axe violation at 1280 px, no
 * sideways scroll and no cut-off control at 390 px. Failures are kept for the last test.
 */
async function checkPage(label: string, url: string): Promise<void> {
  if (!checker) {
    const ctx = await browser.newContext({
      viewport: WIDE,
      bypassCSP: true,
      storageState: await operator.context.storageState(),
    });
    checker = await ctx.newPage();
    checkerErrors = collectConsoleErrors(checker);
  }
  const res = await checker.goto(url);
  if (!res || res.status() !== 200) {
    pageProblems.push([label, `answered ${res?.status()}`]);
    return;
  }
  await logPageTiming(`journey ${label}`, res);
  checkedPages.push(label);
  const violations = await runAxe(checker);
  if (violations.length) pageProblems.push([label, violations]);
  await checker.setViewportSize(NARROW);
  if (await hasHorizontalScroll(checker)) pageProblems.push([label, 'scrolls sideways at 390 px']);
  const clipped = await findClippedControls(checker);
  if (clipped.length) pageProblems.push([label, clipped]);
  await checker.setViewportSize(WIDE);
}

/** The facts list's value for `term` (`<dt>term</dt><dd>…</dd>`). */
const fact = (page: Page, term: string) => page.locator(`dl.facts dt:text-is("${term}") + dd`);

const recipient = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

describe('from an empty organization to a live status page, in the browser', () => {
  it('signs the operator in by the emailed link to an empty overview', async () => {
    operator = await signedIn(OPERATOR, 'operator');
    await shot(operator.page, 'overview-empty');
    await checkPage('overview (empty)', `${api.baseUrl}/console`);
    expect(operator.errors).toEqual([]);
  }, 60_000);

  it('creates a service with the form', async () => {
    const { page, errors } = operator;
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Services', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Services', level: 1 }).waitFor();
    await page.getByText('No services yet.').waitFor();
    await page.getByRole('link', { name: 'New service' }).click();
    await page.getByRole('heading', { name: 'New service', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(SERVICE);
    await page.getByLabel('Description (optional)').fill('Takes card payments for the shop.');
    await shot(page, 'service-form');
    await checkPage('new service form', `${api.baseUrl}/console/services/new`);
    await page.getByRole('button', { name: 'Create service' }).click();
    await page.getByRole('status').getByText(`Created ${SERVICE}.`).waitFor();
    await page.getByRole('cell', { name: new RegExp(`^${SERVICE}`) }).waitFor();
    await checkPage('services', `${api.baseUrl}/console/services`);

    const services = (await api.request('GET', '/v1/services', { key: org.key })).body.items;
    expect(services.map((s: { name: string; description: string }) => [s.name, s.description])).toEqual([
      [SERVICE, 'Takes card payments for the shop.'],
    ]);
    made.service = services[0].id;
    expect(errors).toEqual([]);
  }, 60_000);

  it('creates a cloud HTTP metric with thresholds, tests its probe from the form first, and sees it get a live value', async () => {
    const { page, errors } = operator;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Metrics', exact: true }).click();
    await page.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New metric' }).click();
    await page.getByRole('heading', { name: 'New metric', level: 1 }).waitFor();

    // The type chooser (a GET form) shows the settings of the type chosen, for the service chosen.
    const chooser = page.getByRole('form', { name: 'Choose the type' });
    await chooser.getByLabel('Type').selectOption('http');
    await chooser.getByRole('button', { name: 'Show its settings' }).click();
    await page.waitForURL(/type=http/);

    // One Service select, in the form itself.
    const metric = page.getByRole('group', { name: 'Metric', exact: true });
    await metric.getByLabel('Service').selectOption({ label: SERVICE });
    await metric.getByLabel('Name', { exact: true }).fill(METRIC);
    await metric.getByLabel('Check every (seconds)').fill('10');
    await metric.getByLabel('Unit (optional)').fill('jobs');
    const source = page.getByRole('group', { name: /^What to check/ });
    await source.getByLabel('URL', { exact: true }).fill(targetUrl);
    // The optional settings, locations and confirmation wait under Advanced settings; thresholds are optional for HTTP.
    await page.getByText('Advanced settings', { exact: true }).click();
    const more = page.getByRole('group', { name: /^More .* settings$/ });
    await more.getByLabel(/^JSON path/).fill('$.queue_depth');
    await more.getByLabel(/^Unit/).fill('jobs');
    await page.getByText('Response-time thresholds (optional)').click();
    const thresholds = page.getByRole('group', { name: 'Thresholds' });
    await thresholds.getByLabel('Unhealthy when the value is', { exact: true }).selectOption('over');
    await thresholds.getByLabel(/^Unhealthy value/).fill('100');
    await thresholds.getByLabel('Healthy when the value is', { exact: true }).selectOption('under');
    await thresholds.getByLabel(/^Healthy value/).fill('50');
    const confirm = page.getByRole('group', { name: 'Locations and confirmation' });
    await confirm.getByLabel('Good rounds before it returns').fill('1');

    await page.getByRole('button', { name: 'Test this probe' }).click();
    const result = page.locator('#probe-test-result');
    await result.getByText('Test result.').waitFor({ timeout: TEMPORAL_WAIT });
    await expect(result.locator('dt:text-is("Value") + dd').innerText()).resolves.toBe(
      '17 jobs (Number at $.queue_depth)',
    );
    await expect(result.locator('dt:text-is("Status against the thresholds") + dd').innerText()).resolves.toBe(
      'healthy',
    );
    // The test stored nothing, and the form kept what was typed.
    expect((await api.request('GET', '/v1/metrics', { key: org.key })).body.items).toEqual([]);
    await expect(source.getByLabel('URL', { exact: true }).inputValue()).resolves.toBe(targetUrl);
    await expect(page.locator('#thresholds-words').innerText()).resolves.toBe(
      'Unhealthy when the value is above 100 jobs; healthy when it is below 50 jobs; degraded in between.',
    );
    await shot(page, 'metric-form-tested');
    await checkPage(
      'new metric form',
      `${api.baseUrl}/console/metrics/new?source_type=http&service_id=${made.service}`,
    );

    await page.getByRole('button', { name: 'Create metric' }).click();
    await page.getByRole('heading', { name: new RegExp(`${METRIC}$`), level: 1 }).waitFor();
    await page.getByRole('status').getByText(`Created ${METRIC}.`).waitFor();
    made.metric = /\/console\/metrics\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const stored = (await api.request('GET', `/v1/metrics/${made.metric}`, { key: org.key })).body;
    expect(stored).toMatchObject({
      service_id: made.service,
      source_type: 'http',
      interval_seconds: 10,
      unit: 'jobs',
      source_config: { url: targetUrl, json_path: '$.queue_depth', unit: 'jobs' },
      thresholds: { healthy_operation: 'under', healthy_value: 50, unhealthy_operation: 'over', unhealthy_value: 100 },
    });

    // Live: the page is rendered on the server, so reload until the first samples show.
    const deadline = Date.now() + LIVE_WAIT;
    for (;;) {
      const value = await fact(page, 'Latest value').innerText();
      const status = await fact(page, 'Status').innerText();
      if (value === '17 jobs' && status.startsWith('healthy')) break;
      if (Date.now() > deadline)
        throw new Error(`no live value within ${LIVE_WAIT / 1000} s: Latest value "${value}", Status "${status}"`);
      await page.waitForTimeout(2_000);
      await page.reload();
    }
    await shot(page, 'metric-live');
    await checkPage('metric', page.url());
    expect(errors).toEqual([]);
  }, 180_000);

  it('shows the service operational on the overview', async () => {
    const { page, errors } = operator;
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Overview', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: SERVICE });
    await row.getByText('healthy').first().waitFor();
    await shot(page, 'overview');
    await checkPage('overview', `${api.baseUrl}/console`);
    expect(errors).toEqual([]);
  }, 60_000);

  it('creates a status page showing the service and its metric, and opens the live page', async () => {
    const { page, errors } = operator;
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Status pages', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Status pages', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New status page' }).click();
    await page.getByRole('heading', { name: 'New status page', level: 1 }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill(PAGE_TITLE);
    await page.getByLabel('Subdomain', { exact: true }).fill(SUBDOMAIN);
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    const group = page.getByRole('group', { name: 'Group 1' });
    await group.getByLabel(/^Heading/).fill('Payments');
    await group.getByLabel('Component 1').selectOption({ label: SERVICE });
    // Rows are added by a submit button that re-renders the form with what was typed.
    await group.getByRole('button', { name: 'Add a component to group 1' }).click();
    await page.getByRole('group', { name: 'Group 1' }).getByLabel('Component 2').waitFor();
    await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe(PAGE_TITLE);
    await page
      .getByRole('group', { name: 'Group 1' })
      .getByLabel('Component 2')
      .selectOption({ label: `${METRIC} (${SERVICE})` });
    await page.getByRole('group', { name: 'What the page shows, in order' }).scrollIntoViewIfNeeded();
    await shot(page, 'status-page-form');
    await checkPage('new status page form', `${api.baseUrl}/console/status-pages/new`);
    await page.getByRole('button', { name: 'Create status page' }).click();
    await page
      .getByRole('status')
      .getByText(/^Status page created; it is live at/)
      .waitFor();
    made.statusPage = /\/console\/status-pages\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await checkPage('status page', page.url());
    const stored = (await api.request('GET', `/v1/status-pages/${made.statusPage}`, { key: org.key })).body;
    expect(stored).toMatchObject({
      title: PAGE_TITLE,
      subdomain: SUBDOMAIN,
      groups: [
        {
          name: 'Payments',
          components: [
            { kind: 'service', id: made.service },
            { kind: 'metric', id: made.metric },
          ],
        },
      ],
    });

    // The live page, as anyone on the internet opens it.
    const reader = await browser.newContext({ viewport: WIDE });
    const live = await reader.newPage();
    const liveErrors = collectConsoleErrors(live);
    const res = await live.goto(`${pageBase}/`);
    expect(res?.status()).toBe(200);
    await live.getByRole('heading', { name: PAGE_TITLE, level: 1 }).waitFor();
    await live.getByText('All systems operational').waitFor();
    const main = live.locator('main');
    await main.getByText(SERVICE).first().waitFor();
    await main.getByText(METRIC).first().waitFor();
    expect(await main.getByText('Operational', { exact: true }).count()).toBeGreaterThanOrEqual(2);
    await live.screenshot({ path: path.join(ARTIFACTS, 'public-page.png') });
    await reader.close();
    expect(liveErrors).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it('publishes an incident with an impact on the service, and the live page shows it', async () => {
    const { page, errors } = operator;
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Incidents', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New incident' }).click();
    await page.getByRole('heading', { name: 'New incident', level: 1 }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill(INCIDENT);
    await page.getByLabel('Severity (impact)').selectOption('major');
    await page
      .getByRole('group', { name: /^Affected services/ })
      .getByRole('checkbox', { name: SERVICE })
      .check();
    await page
      .getByRole('group', { name: /^Impact per service/ })
      .getByLabel(SERVICE)
      .selectOption('major_outage');
    const first = page.getByRole('group', { name: 'First message (optional)' });
    await first.getByLabel('Status (type)').selectOption('Investigating');
    await first.getByLabel('Message', { exact: true }).fill('Some card payments fail; we are looking into it.');
    expect(await first.getByRole('checkbox', { name: /^Notify subscribers/ }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: /^Publish now/ }).check();
    await page.getByRole('group', { name: /^Affected services/ }).scrollIntoViewIfNeeded();
    await shot(page, 'incident-form');
    await checkPage('new incident form', `${api.baseUrl}/console/incidents/new`);
    await page.getByRole('button', { name: 'Create incident' }).click();
    await page.getByRole('heading', { name: INCIDENT, level: 1 }).waitFor();
    await page.getByRole('status').getByText('Incident created and published.').waitFor();
    made.incident = /\/console\/incidents\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await expect(fact(page, 'State').innerText()).resolves.toBe('published');
    await expect(fact(page, 'Impact per service').innerText()).resolves.toBe(`${SERVICE}: Major outage`);
    await shot(page, 'incident');
    await checkPage('incident', page.url());
    expect((await api.request('GET', `/v1/incidents/${made.incident}`, { key: org.key })).body).toMatchObject({
      state: 'published',
      severity: 'major',
      affected_services: [made.service],
    });

    const reader = await browser.newContext({ viewport: WIDE });
    const live = await reader.newPage();
    const liveErrors = collectConsoleErrors(live);
    await live.goto(`${pageBase}/`);
    const main = live.locator('main');
    await main.getByText(INCIDENT).first().waitFor();
    await main.getByText('Some card payments fail; we are looking into it.').first().waitFor();
    await main.getByText('Major outage').first().waitFor();
    await live.screenshot({ path: path.join(ARTIFACTS, 'public-page-incident.png') });
    await reader.close();
    expect(liveErrors).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it("a reader subscribes on the live page, confirms by the emailed link, and gets the incident's next update by email", async () => {
    const reader = await browser.newContext({ viewport: WIDE });
    const live = await reader.newPage();
    const liveErrors = collectConsoleErrors(live);
    await live.goto(`${pageBase}/`);
    await live.getByLabel('Get incident updates by email').fill(READER);
    await live.getByRole('button', { name: 'Subscribe' }).click();
    await live.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    const confirmation = await smtp.waitFor(
      (m) => recipient(m) === READER && m.subject === `Confirm your subscription to ${PAGE_TITLE}`,
      TEMPORAL_WAIT,
    );
    const link = new URL(/https?:\/\/\S+\/confirm\?token=[\w.-]+/.exec(confirmation.text ?? '')![0]);
    expect(link.host).toBe(new URL(pageBase).host);
    await live.goto(link.href);
    await live.getByRole('heading', { name: 'Confirm your subscription' }).waitFor();
    await live.getByRole('button', { name: 'Confirm subscription' }).click();
    await live.getByRole('heading', { name: 'You are subscribed' }).waitFor();
    await reader.close();
    expect(liveErrors).toEqual([]);

    const { page, errors } = operator;
    await page.goto(`${api.baseUrl}/console/incidents/${made.incident}`);
    const post = page.getByRole('region', { name: 'Post a message' });
    await post.getByLabel('Status (type)').selectOption('Identified');
    await post
      .getByLabel('Message', { exact: true })
      .fill('A certificate expired at the payment provider; it is being renewed.');
    expect(await post.getByRole('checkbox', { name: /^Notify subscribers/ }).isChecked()).toBe(true);
    await post.getByRole('button', { name: 'Post message' }).click();
    await page.getByRole('status').getByText('Message posted.').waitFor();

    const update = await smtp.waitFor(
      (m) => recipient(m) === READER && (m.subject ?? '').includes(INCIDENT),
      TEMPORAL_WAIT,
    );
    expect(update.subject).toBe(`[${PAGE_TITLE}] Identified: ${INCIDENT}`);
    expect(update.text).toContain('A certificate expired at the payment provider; it is being renewed.');
    expect(errors).toEqual([]);
  }, 120_000);

  for (const role of ['viewer', 'finance'] as const) {
    it(`refuses each of those tasks to a ${role}: no button, 403 on the form, 403 on a post`, async () => {
      // Chromium logs each refused document ("status of 403"); only those are set aside.
      const { context, page, errors } = await signedIn(`${role}-${run}@acme.example`, role, (t) =>
        /status of 403 \(Forbidden\)/.test(t),
      );
      const csrf = await page.locator('input[name="_csrf"]').first().getAttribute('value');
      const origin = { origin: api.baseUrl };
      const lists: [string, string, string, string, Record<string, string>][] = [
        ['/console/services', 'Services', 'New service', '/console/services/new', { name: 'Refused service' }],
        [
          '/console/metrics',
          'Metrics',
          'New metric',
          '/console/metrics/new',
          { service_id: made.service!, name: 'Refused', source_type: 'manual' },
        ],
        [
          '/console/status-pages',
          'Status pages',
          'New status page',
          '/console/status-pages/new',
          { title: 'Refused', subdomain: `refused-${run}`, _op: 'save' },
        ],
        [
          '/console/incidents',
          'Incidents',
          'New incident',
          '/console/incidents/new',
          { title: 'Refused', severity: 'minor' },
        ],
      ];
      const seen: [string, unknown][] = [];
      for (const [list, heading, button, form, body] of lists) {
        await page.goto(`${api.baseUrl}${list}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        seen.push([button, await page.getByRole('link', { name: button }).count()]);
        seen.push([`GET ${form}`, (await page.goto(`${api.baseUrl}${form}`))?.status()]);
        seen.push([
          `POST ${form}`,
          (
            await page.request.post(`${api.baseUrl}${form}`, {
              form: { ...body, _csrf: csrf! },
              headers: origin,
              maxRedirects: 0,
            })
          ).status(),
        ]);
      }
      // The journey's items: their edit forms and actions are refused too.
      for (const form of [`/console/services/${made.service}/edit`, `/console/metrics/${made.metric}/edit`])
        seen.push([`GET ${form}`, (await page.goto(`${api.baseUrl}${form}`))?.status()]);
      const post = (p: string, body: Record<string, string>) =>
        page.request.post(`${api.baseUrl}${p}`, { form: { ...body, _csrf: csrf! }, headers: origin, maxRedirects: 0 });
      seen.push([
        'POST metric test',
        (
          await post('/console/metrics/new', { _action: 'test', source_type: 'http', 'source_config.url': targetUrl })
        ).status(),
      ]);
      seen.push([
        'POST status page edit',
        (
          await post(`/console/status-pages/${made.statusPage}`, {
            title: 'Hijacked',
            subdomain: SUBDOMAIN,
            _op: 'save',
          })
        ).status(),
      ]);
      seen.push([
        'POST incident message',
        (await post(`/console/incidents/${made.incident}/message`, { type: 'Update', body: 'Hijacked' })).status(),
      ]);
      seen.push(['POST incident resolve', (await post(`/console/incidents/${made.incident}/resolve`, {})).status()]);

      // Reading is allowed: the status page without its form, the incident without its actions.
      await page.goto(`${api.baseUrl}/console/status-pages/${made.statusPage}`);
      await page.getByRole('heading', { name: `Status page: ${PAGE_TITLE}`, level: 1 }).waitFor();
      seen.push(['status page Save changes', await page.getByRole('button', { name: 'Save changes' }).count()]);
      await page.goto(`${api.baseUrl}/console/incidents/${made.incident}`);
      await page.getByRole('heading', { name: INCIDENT, level: 1 }).waitFor();
      seen.push(['incident Post message', await page.getByRole('button', { name: 'Post message' }).count()]);
      await page.goto(`${api.baseUrl}/console/services/new`);
      await page.screenshot({ path: path.join(ARTIFACTS, `refused-${role}.png`) });

      const refusedForms = lists.flatMap(([, , button, form]) => [
        [button, 0],
        [`GET ${form}`, 403],
        [`POST ${form}`, 403],
      ]);
      expect(seen).toEqual([
        ...refusedForms,
        [`GET /console/services/${made.service}/edit`, 403],
        [`GET /console/metrics/${made.metric}/edit`, 403],
        ['POST metric test', 403],
        ['POST status page edit', 403],
        ['POST incident message', 403],
        ['POST incident resolve', 403],
        ['status page Save changes', 0],
        ['incident Post message', 0],
      ]);
      // Nothing changed behind the refusals.
      expect(
        (await api.request('GET', '/v1/services', { key: org.key })).body.items.map((s: { name: string }) => s.name),
      ).toEqual([SERVICE]);
      expect((await api.request('GET', `/v1/status-pages/${made.statusPage}`, { key: org.key })).body.title).toBe(
        PAGE_TITLE,
      );
      expect((await api.request('GET', `/v1/incidents/${made.incident}`, { key: org.key })).body.state).toBe(
        'published',
      );
      await context.close();
      expect(errors).toEqual([]);
    }, 90_000);
  }

  it('every console page of the journey passes the page checks (axe, 390 px, no console errors)', async () => {
    expect(pageProblems).toEqual([]);
    expect(checkedPages).toEqual([
      'overview (empty)',
      'new service form',
      'services',
      'new metric form',
      'metric',
      'overview',
      'new status page form',
      'status page',
      'new incident form',
      'incident',
    ]);
    expect(checkerErrors).toEqual([]);
    await operator.context.close();
    expect(operator.errors).toEqual([]);
  });
});
