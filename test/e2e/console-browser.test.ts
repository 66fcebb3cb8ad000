/**
 * The console as a real headless Chromium (Debian's, driven by playwright-core) uses it: sign-in by
 * the emailed link, every area at 1280 and 360 px without horizontal scrolling or console errors,
 * keyboard focus, and the flows operators and finance run. Screenshots go to test-artifacts/console/.
 * A missing Chromium fails this file; it is never skipped.
 *
 * Behind the browser: the real API (PostgreSQL), a real Temporal server and worker (maintenance
 * workflows, metric schedules, cloud probe tests against a loopback target, SLA statement
 * workflows with the Chromium PDF printer), and a real SMTP sink for sign-in links and statements.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AlertSchema, AlertTimelineEntrySchema, MetricStatusFlipSchema } from '../../src/db/entities';
import { tzDataVersion } from '../../src/domain/sla/period';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type StatementPdfRenderer, createStatementPdfRenderer } from '../../src/infra/statement-pdf';
import { formatInZone } from '../../src/render/format-time';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { createConsoleUser } from '../../src/usecases/console/users';
import { pdfSource } from '../../src/usecases/sla/documents';
import { type ApiHarness, type HttpResult, type TestOrg, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInPathFromMail } from '../support/console-browser';
import { testSecretBox } from '../support/env';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  activeElement: { tagName: string; textContent: string | null } | null;
};

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/console');
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 360, height: 740 };
/** Waits for what Temporal does (workflows, probe tests, statement updates, delivery mail). */
const TEMPORAL_WAIT = 30_000;

const run = randomUUID().slice(0, 8);
const links = {
  jwksUrl: 'http://vigil.test/.well-known/jwks.json',
  verifyDocsUrl: 'https://docs.vigil.test/sla-verification',
};

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let printer: StatementPdfRenderer;
let browser: Browser;
let org: TestOrg;
let services: Record<'Checkout API' | 'Search' | 'Payments', string>;
let target: http.Server;
let targetUrl: string;

/** What this file created and opened in the browser, for the 360 px walk at the end. */
const created: { incident?: string; maintenance?: string; metric?: string; statement?: string; webhook?: string } = {};
/** Every console error, page error and 5xx response of every page of the file. */
const allErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  printer = createStatementPdfRenderer();
  // The cloud prober may reach loopback (where this file's HTTP target listens): the documented allow-list.
  h = await startTemporalHarness({
    cloudAllowCidrs: '127.0.0.0/8,::1/128',
    sla: {
      signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) },
      mail: { mailer, pdf: pdfSource(printer, links), ...links, consoleUrl: 'http://vigil.test/console' },
    },
  });
  // Wired as `vigil start` wires it: cloud tests start eagerly on the worker in this process.
  api = await startApi({
    console: { mail: mailer, temporalUiUrl: process.env.VIGIL_TEST_TEMPORAL_UI_URL || 'http://127.0.0.1:8233' },
    sla: { workflows: temporalSlaWorkflows(h.temporal), printer, links },
    probeTestRunner: temporalProbeTestRunner(h.temporal, { eagerClient: h.worker.eagerClient }),
    localProbeJobs: h.worker.localProbeJobs,
    probeTestExpiryMs: 60_000,
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    metricScheduler: temporalMetricScheduler(h.temporal),
  });
  org = await api.createOrg('enterprise', 'Acme Operations');
  browser = await launchBrowser();
  const ids: Record<string, string> = {};
  for (const name of ['Checkout API', 'Search', 'Payments'])
    ids[name] = (await ok(api.request('POST', '/v1/services', { key: org.key, body: { name } }))).body.id;
  services = ids as typeof services;

  target = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ queue_depth: 17 }));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/stats`;
}, 90_000);
afterAll(async () => {
  await browser?.close();
  // Deleted, the cloud metric leaves its bucket; the bucket's next run finds it empty and retires its Schedule.
  if (created.metric)
    await api.request('DELETE', `/v1/metrics/${created.metric}`, { key: org.key }).catch(() => undefined);
  target?.closeAllConnections();
  await new Promise((r) => (target ? target.close(r) : r(undefined)));
  await api?.close();
  await h?.close();
  await printer?.close();
  await mailer?.close();
  await smtp?.close();
});

async function ok<T = any>(res: Promise<HttpResult<T>>): Promise<HttpResult<T>> {
  const r = await res;
  if (r.status >= 300) throw new Error(`expected success, got ${r.status}: ${r.text}`);
  return r;
}
const call = (method: string, p: string, body?: unknown) => ok(api.request(method, p, { key: org.key, body }));

interface Watched {
  page: Page;
  /** Console errors, page errors and 5xx answers seen on this page. */
  errors: string[];
  /**
   * Declares that the next document answer for `pathname` is a refused form (a 4xx by design: the
   * console answers a refused form with the API's problem status). Chromium logs such an answer as
   * "Failed to load resource: the server responded with a status of 400"; only that one message,
   * for that document and status, is set aside (in `refusals`), never any other.
   */
  expectRefusal(pathname: string, status: number): void;
  refusals: string[];
}

/** A page that records console errors and failed requests, for the test to assert none happened. */
async function watchedPage(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const errors: string[] = [];
  const refusals: string[] = [];
  const expected: { pathname: string; status: number }[] = [];
  const record = (e: string) => {
    errors.push(e);
    allErrors.push(`${page.url()}: ${e}`);
  };
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const status = /^Failed to load resource: the server responded with a status of (4\d\d) /.exec(m.text())?.[1];
    const at = expected.findIndex(
      (x) =>
        status && x.status === Number(status) && m.location().url && new URL(m.location().url).pathname === x.pathname,
    );
    if (at >= 0) {
      expected.splice(at, 1);
      refusals.push(`${new URL(m.location().url).pathname}: ${m.text()}`);
      return;
    }
    record(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => record(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) record(`${r.status()} ${r.url()}`);
  });
  return { page, errors, refusals, expectRefusal: (pathname, status) => expected.push({ pathname, status }) };
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

/** A new console user of `role`, signed in through the browser in a context of their own. */
async function userSession(
  who: string,
  role: 'owner' | 'operator' | 'finance',
): Promise<Watched & { context: BrowserContext }> {
  const email = `${who}-${run}@acme.example`;
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role }, new Date());
  const context = await browser.newContext({ viewport: WIDE });
  context.setDefaultTimeout(15_000);
  const watched = await watchedPage(context);
  await signIn(watched.page, email);
  return { ...watched, context };
}

let operatorSession: Promise<Watched & { context: BrowserContext }> | null = null;
/** The operator's browser, signed in once and shared by the operator flows. */
function operator(): Promise<Watched & { context: BrowserContext }> {
  operatorSession ??= userSession('operator', 'operator');
  return operatorSession;
}

async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1);
}

/**
 * The innermost elements whose content reaches past the viewport's right edge (outside boxes that
 * scroll or clip), for a failure message: `h1 "Webhook: https://…" reaches 631 px`.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (el) => { for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) { if (getComputedStyle(p).overflowX !== 'visible') return true; } return false; };
    const reach = (el) => el.getBoundingClientRect().left + Math.max(el.scrollWidth, el.getBoundingClientRect().width);
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (reach(el) <= width + 1 || clipped(el) || [...el.children].some((c) => reach(c) > width + 1)) continue;
      const cls = el.getAttribute('class');
      out.push(el.tagName.toLowerCase() + (cls ? '.' + cls.split(' ').join('.') : '') + ' "' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60) + '" reaches ' + Math.round(reach(el)) + ' px');
    }
    return out.slice(0, 10);
  })()`);
}

/** Form controls without an accessible name (no label, aria-label or aria-labelledby; a button without text). */
async function unlabelled(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
    .filter((el) => el.tagName === 'BUTTON' ? !el.textContent.trim() && !el.getAttribute('aria-label') : !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => el.outerHTML.slice(0, 120))`);
}

/** Screenshots the whole page at 1280 px as `<name>.png`, then at 360 px as `<name>-360.png` (checking it does not scroll sideways), and goes back to 1280. */
async function screenshots(page: Page, name: string, opts: { narrow?: boolean } = {}): Promise<void> {
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  if (opts.narrow === false) return;
  await page.setViewportSize(NARROW);
  expect([name, (await noHorizontalScroll(page)) ? 'fits' : await overflowing(page)]).toEqual([name, 'fits']);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-360.png`), fullPage: true });
  await page.setViewportSize(WIDE);
}

/** The facts list's value for `term` (`<dt>term</dt><dd>…</dd>`). */
const fact = (page: Page, term: string) => page.locator(`dl.facts dt:text-is("${term}") + dd`);

/**
 * Something on every alerting page (issue 26): a channel, a schedule with `email` on call, a
 * policy, a rule, a silence, and an open alert with its timeline. Raising an alert needs a rule's
 * subject to flip; the alert's rows are written here as the alert workflow writes them.
 */
async function alertingRecords(
  email: string,
): Promise<{ channel: string; schedule: string; policy: string; alert: string }> {
  const channel = (
    await call('POST', '/v1/notification-channels', {
      name: '#ops-alerts',
      type: 'slack',
      url: 'https://hooks.slack.example/services/T0/B0/x',
    })
  ).body.id;
  const schedule = (
    await call('POST', '/v1/on-call/schedules', {
      name: 'Checkout primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Primary',
          rotation: { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-01-05', participants: [email] },
        },
      ],
    })
  ).body.id;
  const policy = (
    await call('POST', '/v1/escalation-policies', {
      name: 'Checkout escalation',
      levels: [
        { delay_minutes: 10, targets: [{ type: 'channel', id: channel }] },
        { delay_minutes: 30, targets: [{ type: 'schedule', id: schedule }] },
      ],
    })
  ).body.id;
  const rule = (
    await call('POST', '/v1/alert-rules', {
      name: 'Checkout down',
      kind: 'service_status',
      subject_id: services['Checkout API'],
      severity: 'critical',
      escalation_policy_id: policy,
    })
  ).body.id;
  await call('POST', '/v1/silences', {
    rule_ids: [rule],
    ends_at: new Date(Date.now() + HOUR).toISOString(),
    reason: 'Database migration',
  });
  const em = api.orm.em.fork();
  const now = new Date();
  const alert = em.create(AlertSchema, {
    id: randomUUID(),
    organization: org.id,
    rule,
    subjectKind: 'service',
    subjectId: services['Checkout API'],
    subjectName: 'Checkout API',
    workflowId: `alert:${rule}:${services['Checkout API']}`,
    state: 'triggered',
    severity: 'critical',
    title: 'Checkout API is unhealthy',
    summary: 'Checkout API (service) is unhealthy.',
    level: 1,
    triggerCount: 1,
    suppressedBy: null,
    snoozedUntil: null,
    triggeredAt: now,
    lastTriggeredAt: now,
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolvedBy: null,
    createdAt: now,
    updatedAt: now,
  });
  em.create(AlertTimelineEntrySchema, {
    id: randomUUID(),
    organization: org.id,
    alert: alert.id,
    key: 'triggered',
    at: now,
    kind: 'triggered',
    actor: null,
    detail: { status: 'unhealthy', severity: 'critical' },
  });
  await em.flush();
  return { channel, schedule, policy, alert: alert.id };
}

/** datetime-local text (UTC) `ms` from now, to the minute. */
const local = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);
const HOUR = 3_600_000;

describe('the console in a real browser', () => {
  it('signs in by the emailed link, shows the overview wide and at 360 px, and signs out', async () => {
    await createConsoleUser(
      api.orm.em.fork(),
      { organizationId: org.id, email: 'owner@acme.example', role: 'owner' },
      new Date(),
    );
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

  it('takes an incident from a draft made with the form to published, a message and resolved, each step on its timeline', async () => {
    const { page, errors } = await operator();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Incidents' }).click();
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New incident' }).click();
    await page.getByRole('heading', { name: 'New incident', level: 1 }).waitFor();

    const title = `Card payments failing ${run}`;
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Severity (impact)').selectOption('major');
    await page
      .getByRole('group', { name: 'Affected services' })
      .getByRole('checkbox', { name: 'Checkout API' })
      .check();
    const publish = page.getByRole('checkbox', { name: /Publish now/ });
    expect(await publish.isChecked()).toBe(false);
    await screenshots(page, 'incident-new-form');
    await page.getByRole('button', { name: 'Create incident' }).click();

    // The draft's page.
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('status').getByText('Draft incident created.').waitFor();
    created.incident = /\/console\/incidents\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await expect(fact(page, 'State').innerText()).resolves.toBe('draft');
    await expect(fact(page, 'Severity').innerText()).resolves.toBe('major');
    await expect(fact(page, 'Affected services').innerText()).resolves.toBe('Checkout API');
    await screenshots(page, 'incident-draft', { narrow: false });

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('status').getByText('Incident published.').waitFor();
    await fact(page, 'State').getByText('published').waitFor();
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete draft' }).count()).toBe(0);

    const post = page.getByRole('region', { name: 'Post a message' });
    await post.getByLabel('Type').selectOption('Identified');
    await post.getByLabel('Message', { exact: true }).fill('A certificate expired at the payment provider.');
    await post.getByRole('button', { name: 'Post message' }).click();
    await page.getByRole('status').getByText('Message posted.').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Message: Identified' }).waitFor();

    await page.getByLabel('Closing message (optional, posted as Resolved)').fill('Payments work again.');
    await page.getByRole('button', { name: 'Resolve incident' }).click();
    await page.getByRole('status').getByText('Incident resolved.').waitFor();
    await fact(page, 'State').getByText('resolved').waitFor();
    expect(await page.getByRole('button', { name: 'Resolve incident' }).count()).toBe(0);

    const steps = await page.getByRole('region', { name: 'Timeline' }).getByRole('listitem').allInnerTexts();
    expect(steps.map((s) => s.split(' · ')[0])).toEqual([
      'Created as a draft',
      'Published',
      'Message: Identified',
      'Resolved',
      'Message: Resolved',
    ]);
    expect(steps[2]).toContain('A certificate expired at the payment provider.');
    expect(steps[4]).toContain('Payments work again.');
    await screenshots(page, 'incident-resolved');

    const fromApi = (await call('GET', `/v1/incidents/${created.incident}`)).body;
    expect(fromApi).toMatchObject({
      title,
      severity: 'major',
      state: 'resolved',
      affected_services: [services['Checkout API']],
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it('schedules a maintenance window through the form, then reschedules it and shows the new times', async () => {
    const { page, errors } = await operator();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Maintenance' }).click();
    await page.getByRole('link', { name: 'Schedule maintenance' }).click();
    await page.getByRole('heading', { name: 'Schedule maintenance', level: 1 }).waitFor();

    const start = local(24 * HOUR);
    const end = local(26 * HOUR);
    const title = `Database upgrade ${run}`;
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Description (optional)').fill('PostgreSQL 17, about two hours.');
    await page.getByLabel('Starts at (UTC)').fill(start);
    await page.getByLabel('Ends at (UTC)').fill(end);
    // By keyboard: Space ticks the focused checkbox.
    const search = page.getByRole('group', { name: 'Affected services' }).getByRole('checkbox', { name: 'Search' });
    await search.focus();
    await page.keyboard.press('Space');
    expect(await search.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();

    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('status').getByText('Maintenance scheduled.').waitFor();
    created.maintenance = /\/console\/maintenances\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await expect(fact(page, 'State').innerText()).resolves.toBe('scheduled');
    await expect(fact(page, 'Scheduled start').innerText()).resolves.toBe(formatInZone(`${start}:00.000Z`, 'UTC'));
    await expect(fact(page, 'Scheduled end').innerText()).resolves.toBe(formatInZone(`${end}:00.000Z`, 'UTC'));
    await expect(fact(page, 'Affected services').innerText()).resolves.toBe('Search');
    await page.getByRole('link', { name: 'Open in Temporal UI' }).waitFor();
    await screenshots(page, 'maintenance-scheduled', { narrow: false });
    // The maintenance's workflow runs on the real Temporal server.
    expect(
      (await h.temporal.client.workflow.getHandle(`maintenance:${created.maintenance}`).describe()).status.name,
    ).toBe('RUNNING');

    const newStart = local(48 * HOUR);
    const newEnd = local(51 * HOUR);
    const form = page.getByRole('region', { name: 'Reschedule' });
    await expect(form.getByLabel('Starts at (UTC)').inputValue()).resolves.toBe(start);
    await form.getByLabel('Starts at (UTC)').fill(newStart);
    await form.getByLabel('Ends at (UTC)').fill(newEnd);
    await form.getByRole('button', { name: 'Save new times' }).click();
    await page.getByRole('status').getByText('New times saved.').waitFor();
    await fact(page, 'Scheduled start').locator(`time[datetime="${newStart}:00.000Z"]`).waitFor();
    await expect(fact(page, 'Scheduled start').innerText()).resolves.toBe(formatInZone(`${newStart}:00.000Z`, 'UTC'));
    await expect(fact(page, 'Scheduled end').innerText()).resolves.toBe(formatInZone(`${newEnd}:00.000Z`, 'UTC'));
    await expect(form.getByLabel('Starts at (UTC)').inputValue()).resolves.toBe(newStart);
    await expect(fact(page, 'State').innerText()).resolves.toBe('scheduled');
    await screenshots(page, 'maintenance-rescheduled');

    const fromApi = (await call('GET', `/v1/maintenances/${created.maintenance}`)).body;
    expect(fromApi).toMatchObject({
      state: 'scheduled',
      scheduled_start_at: `${newStart}:00.000Z`,
      scheduled_end_at: `${newEnd}:00.000Z`,
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it("tests a cloud HTTP metric's probe from its page against a loopback target and shows the value and its status", async () => {
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: services.Search,
        name: `Queue depth ${run}`,
        source_type: 'http',
        source_config: { url: targetUrl, json_path: '$.queue_depth', unit: 'jobs' },
        thresholds: {
          healthy_operation: 'under',
          healthy_value: 50,
          unhealthy_operation: 'over',
          unhealthy_value: 100,
        },
      })
    ).body;
    created.metric = metric.id;
    const { page, errors } = await operator();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Metrics' }).click();
    await page.getByRole('heading', { name: 'Metrics', level: 1 }).waitFor();
    await page.getByRole('link', { name: `Queue depth ${run}` }).click();
    await page.getByRole('heading', { name: `Metric: Queue depth ${run}`, level: 1 }).waitFor();
    await expect(fact(page, 'Mode').innerText()).resolves.toBe('cloud');

    await page.getByRole('button', { name: 'Test this probe' }).click();
    const result = page.locator('#probe-test-result');
    await result.getByText('Test result.').waitFor({ timeout: TEMPORAL_WAIT });
    expect(await result.getAttribute('role')).toBe('status');
    await expect(result.locator('dt:text-is("Value") + dd').innerText()).resolves.toBe(
      '17 jobs (Number at $.queue_depth)',
    );
    await expect(result.locator('dt:text-is("Status against the thresholds") + dd').innerText()).resolves.toBe(
      'healthy',
    );
    await expect(result.locator('dt:text-is("Ran on") + dd').innerText()).resolves.toBe('the cloud prober');
    expect(await result.locator('dt:text-is("Duration") + dd').innerText()).toMatch(/^\d+ ms$/);
    await screenshots(page, 'metric-probe-test');
    expect(errors).toEqual([]);
  }, 60_000);

  it('takes an SLA statement drafted through the API to delivered: finance A submits, finance B approves and delivers, the customer gets the email', async () => {
    // October 2026 of a contract over Payments, which was down 30 minutes: a draft statement (as test/temporal/console-sla.test.ts drafts it).
    const customer = (await call('POST', '/v1/customers', { name: `Globex ${run}`, contact_email: 'ops@globex.test' }))
      .body;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: services.Payments,
        name: 'availability',
        source_type: 'manual',
        source_config: {},
      })
    ).body;
    const em = api.orm.em.fork();
    await em
      .getConnection()
      .execute(`update metrics set created_at = '2026-09-01T00:00:00Z' where id = ?`, [metric.id]);
    let from = 'no_data';
    for (const [at, to] of [
      ['2026-09-30T00:00:00Z', 'healthy'],
      ['2026-10-10T10:00:00Z', 'unhealthy'],
      ['2026-10-10T10:30:00Z', 'healthy'],
    ] as const) {
      em.create(MetricStatusFlipSchema, {
        id: randomUUID(),
        organization: org.id,
        metric: metric.id,
        fromStatus: from,
        toStatus: to,
        value: null,
        reason: null,
        at: new Date(at),
      });
      from = to;
    }
    await em.flush();
    const billing = `billing-${run}@globex.test`;
    const contract = (
      await call('POST', '/v1/contracts', {
        customer_id: customer.id,
        name: 'Globex Gold',
        service_ids: [services.Payments],
        sla_target_pct: '99.95',
        timezone: 'Europe/Berlin',
        currency: 'EUR',
        monthly_fee_minor: 100_000,
        effective_from: '2026-01-01',
        credit_terms: {
          type: 'tiered',
          steps: [{ below_pct: '99.99', credit_pct: '10' }],
          maintenance_notice_hours: 48,
        },
        billing_email: billing,
      })
    ).body;
    created.statement = (await call('POST', `/v1/contracts/${contract.id}/statements`, { period: '2026-10' })).body.id;
    const heading = `SLA statement 2026-10: Globex ${run} (revision 1)`;

    // Finance A finds it in the queue and submits it.
    const a = await userSession('finance-a', 'finance');
    await a.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'SLA statements' }).click();
    const drafts = a.page.getByRole('region', { name: 'Draft' });
    await drafts
      .getByRole('row')
      .filter({ hasText: 'Globex Gold' })
      .getByRole('cell')
      .nth(4)
      .getByText('draft')
      .waitFor();
    await drafts.getByRole('link', { name: `Globex ${run}` }).click();
    await a.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await expect(fact(a.page, 'Attainment').innerText()).resolves.toMatch(/^99\.9328 %/);
    await screenshots(a.page, 'sla-draft', { narrow: false });
    await a.page.getByRole('button', { name: 'Submit for review' }).click();
    await a.page.getByRole('status').getByText('Submitted for review.').waitFor({ timeout: TEMPORAL_WAIT });
    await fact(a.page, 'State').locator('.badge', { hasText: 'in review' }).waitFor();
    await a.page.getByText('You submitted this statement: someone else must approve it').waitFor();
    await screenshots(a.page, 'sla-in-review', { narrow: false });

    // Finance B, in a browser context of their own, approves it, then delivers it.
    const b = await userSession('finance-b', 'finance');
    await b.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'SLA statements' }).click();
    await b.page
      .getByRole('region', { name: 'In review' })
      .getByRole('link', { name: `Globex ${run}` })
      .click();
    await b.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect(await b.page.getByText('You submitted this statement').count()).toBe(0);
    // By keyboard: focus the button, press Enter.
    await b.page.getByRole('button', { name: 'Approve revision 1' }).focus();
    await b.page.keyboard.press('Enter');
    await b.page.getByRole('status').getByText('Approved revision 1.').waitFor({ timeout: TEMPORAL_WAIT });
    await fact(b.page, 'State').locator('.badge', { hasText: 'approved' }).waitFor();
    await screenshots(b.page, 'sla-approved', { narrow: false });
    await b.page.getByRole('button', { name: 'Deliver to the customer' }).click();
    await b.page
      .getByRole('status')
      .getByText('Delivered: the statement was emailed to the customer.')
      .waitFor({ timeout: TEMPORAL_WAIT });

    const mail = await smtp.waitFor(
      (m) => JSON.stringify(m.to ?? '').includes(billing) && m.subject?.startsWith('SLA statement 2026-10') === true,
      TEMPORAL_WAIT,
    );
    expect(mail.attachments.map((x) => x.filename).sort()).toEqual([
      'sla-statement-2026-10-r1.pdf',
      'statement.json',
      'statement.jws',
    ]);
    await b.page.reload();
    await fact(b.page, 'State').locator('.badge', { hasText: 'delivered' }).waitFor();
    await expect(fact(b.page, 'Delivered').innerText()).resolves.toContain(`to ${billing}`);
    expect(await b.page.getByRole('button', { name: 'Deliver to the customer' }).count()).toBe(0);
    await screenshots(b.page, 'sla-delivered');

    await b.page.getByRole('link', { name: 'Back to the queue' }).click();
    await b.page.getByRole('heading', { name: 'SLA statements', level: 1 }).waitFor();
    await b.page
      .getByRole('region', { name: 'Delivered' })
      .getByRole('link', { name: `Globex ${run}` })
      .waitFor();
    await screenshots(b.page, 'sla-queue');

    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
  }, 90_000);

  it("shows a refused form's error next to its field: an incident without a title", async () => {
    const { page, errors, expectRefusal, refusals } = await operator();
    await page.goto(`${api.baseUrl}/console/incidents/new`);
    const title = page.getByLabel('Title', { exact: true });
    // An empty title never leaves the browser (the field is required)...
    await page.getByRole('button', { name: 'Create incident' }).click();
    expect(
      await title.evaluate((el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing),
    ).toBe(true);
    expect(page.url()).toBe(`${api.baseUrl}/console/incidents/new`);
    // ...a blank one does, and the server's problem comes back next to the field. Enter submits, as a person would.
    await title.fill('   ');
    await page.getByLabel('Severity (impact)').selectOption('critical');
    expectRefusal('/console/incidents/new', 400);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      title.press('Enter'),
    ]);
    expect(answer.status()).toBe(400);
    await page.getByRole('alert').getByRole('heading', { name: 'Fix 1 problem to continue' }).waitFor();
    const error = page.locator('#f-title-error');
    await error.waitFor();
    expect(await error.isVisible()).toBe(true);
    expect((await error.innerText()).length).toBeGreaterThan(0);
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect((await title.getAttribute('aria-describedby'))?.split(' ')).toContain('f-title-error');
    // The error follows its field, and what was typed is kept.
    expect(
      await error.evaluate(
        (el) => (el as unknown as { previousElementSibling: { id: string } | null }).previousElementSibling?.id,
      ),
    ).toBe('f-title-hint');
    await expect(page.getByLabel('Severity (impact)').inputValue()).resolves.toBe('critical');
    await screenshots(page, 'incident-form-error');
    expect(errors).toEqual([]);
    // Chromium's own log line for the 400 document, and nothing else.
    expect(refusals).toEqual([
      '/console/incidents/new: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  }, 30_000);

  it('registers an agent from the agents page, copies the command that starts it, and creates an "Is it up?" HTTP metric on it without thresholds in a short form', async () => {
    const { page, context, errors } = await operator();
    const agentName = `Intranet edge ${run}`;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Register an agent' });
    await form.getByLabel('Agent name').fill(agentName);
    await form.getByRole('button', { name: 'Register agent' }).click();
    await page.getByRole('heading', { name: `Agent: ${agentName}`, level: 1 }).waitFor();
    await page.getByText('Start the agent now').waitFor();

    // Copy the command as a person does: select the read-only field, copy, read the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.baseUrl });
    const commandField = page.getByLabel('Command to run on the agent host');
    await commandField.click();
    await commandField.press('ControlOrMeta+a');
    await commandField.press('ControlOrMeta+c');
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    const token = await page.getByLabel('Agent token (VIGIL_AGENT_TOKEN)').inputValue();
    expect(copied).toBe(await commandField.inputValue());
    expect(copied).toContain(` VIGIL_AGENT_TOKEN=${token} `);
    expect(copied).toMatch(/^VIGIL_API_URL=http:\/\/\S+ VIGIL_AGENT_TOKEN=vgl_agt_[0-9A-Za-z]+ npx vigil-agent$/);
    await screenshots(page, 'agent-registered');
    // A reload shows the token no more.
    await page.reload();
    await page.getByText('The token is no longer shown').waitFor();
    expect(await page.content()).not.toContain(token);

    // The first monitor: a type picked by name, one Service select, URL, the agent, no thresholds.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Metrics', exact: true }).click();
    await page.getByRole('link', { name: 'New metric' }).click();
    await page.getByRole('heading', { name: 'New metric', level: 1 }).waitFor();
    const chooser = page.getByRole('form', { name: 'Choose the type' });
    await chooser.getByLabel('Type').selectOption({ label: 'HTTP(S): is it up?' });
    await chooser.getByRole('button', { name: 'Show its settings' }).click();
    await page.waitForURL(/[?&]type=http/);
    expect(await page.locator('select[name="service_id"]').count()).toBe(1);
    const metricForm = page.locator('form.metric-form');
    const height = (await metricForm.boundingBox())!.height;
    expect(height).toBeLessThan(1400);
    expect(await page.locator('body').innerText()).not.toContain('`');
    await page.getByLabel('Service').selectOption({ label: 'Payments' });
    await page.getByLabel('Name', { exact: true }).fill(`Intranet home ${run}`);
    await page.getByLabel('URL', { exact: true }).fill(targetUrl);
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: agentName });
    await page.locator('#up-down-note').getByText('Without thresholds this check is up').waitFor();
    await screenshots(page, 'metric-form-up-down');
    await page.getByRole('button', { name: 'Create metric' }).click();
    await page.getByRole('heading', { name: `Metric: Intranet home ${run}`, level: 1 }).waitFor();
    const made = (await call('GET', '/v1/metrics?limit=200')).body.items.find(
      (m: any) => m.name === `Intranet home ${run}`,
    );
    expect(made).toMatchObject({
      source_type: 'http',
      thresholds: null,
      mode: 'agent',
      source_config: { url: targetUrl },
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it('fits every area and every detail page opened here at 360 px, without horizontal scrolling, every control labelled', async () => {
    // Something in every list: a change, a status page, a webhook and an agent.
    await call('POST', '/v1/change-events', {
      kind: 'deploy',
      title: `Checkout API 4.2.0 ${run}`,
      service_ids: [services['Checkout API']],
      occurred_at: new Date().toISOString(),
    });
    await call('POST', '/v1/status-pages', { subdomain: `acme-${run}`, title: 'Acme status' });
    created.webhook = (
      await call('POST', '/v1/webhooks', {
        url: 'https://hooks.example.com/vigil/maintenance',
        event_types: ['maintenance.completed'],
        description: 'Pager bridge',
      })
    ).body.id;
    await call('POST', '/v1/agents', { name: `edge-${run}` });

    const { page, errors } = await operator();
    const alerting = await alertingRecords(`operator-${run}@acme.example`);
    await page.setViewportSize(NARROW);
    const areas: [string, string][] = [
      ['Overview', 'Overview'],
      ['Incidents', 'Incidents'],
      ['Maintenance', 'Maintenance'],
      ['Changes', 'Changes'],
      ['Metrics', 'Metrics'],
      ['Status pages', 'Status pages'],
      ['Webhooks', 'Webhooks'],
      ['Agents', 'Agents'],
      ['SLA statements', 'SLA statements'],
      ['Alerts', 'Alerts'],
      ['On call', 'On call'],
    ];
    const results: [string, string | string[]][] = [];
    const labels: [string, string[]][] = [];
    for (const [nav, heading] of areas) {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: nav, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect(
        await page
          .getByRole('navigation', { name: 'Console' })
          .getByRole('link', { name: nav, exact: true })
          .getAttribute('aria-current'),
      ).toBe('page');
      results.push([nav, (await noHorizontalScroll(page)) ? 'fits' : await overflowing(page)]);
      labels.push([nav, await unlabelled(page)]);
      await page.screenshot({
        path: path.join(ARTIFACTS, `area-${nav.toLowerCase().replace(/ /g, '-')}-360.png`),
        fullPage: true,
      });
    }
    const details: [string, string][] = [
      ['incident', `/console/incidents/${created.incident}`],
      ['maintenance', `/console/maintenances/${created.maintenance}`],
      ['metric', `/console/metrics/${created.metric}`],
      ['sla-statement', `/console/sla/${created.statement}`],
      ['webhook', `/console/webhooks/${created.webhook}`],
      ['sla-audit', `/console/sla/${created.statement}/audit`],
      ['incident-form', '/console/incidents/new'],
      ['maintenance-form', '/console/maintenances/new'],
      ['alert', `/console/alerts/${alerting.alert}`],
      ['notification-channel', `/console/alerts/channels/${alerting.channel}`],
      ['on-call-schedule', `/console/on-call/schedules/${alerting.schedule}`],
      ['alert-rules', '/console/alerts/rules'],
      ['silences', '/console/alerts/silences'],
      ['escalation-policies', '/console/on-call/policies'],
      ['channel-form', '/console/alerts/channels/new'],
      ['schedule-form', `/console/on-call/schedules/${alerting.schedule}/edit`],
      ['policy-form', `/console/on-call/policies/${alerting.policy}/edit`],
      ['rule-form', '/console/alerts/rules/new'],
      ['silence-form', '/console/alerts/silences/new'],
    ];
    for (const [kind, href] of details) {
      if (href.includes('undefined'))
        throw new Error(`no ${kind} to open: this walk opens what the flows above made, so run the whole file`);
      const res = await page.goto(`${api.baseUrl}${href}`);
      expect([kind, res?.status()]).toEqual([kind, 200]);
      await page.getByRole('heading', { level: 1 }).waitFor();
      results.push([kind, (await noHorizontalScroll(page)) ? 'fits' : await overflowing(page)]);
      labels.push([kind, await unlabelled(page)]);
      await page.screenshot({ path: path.join(ARTIFACTS, `detail-${kind}-360.png`), fullPage: true });
    }
    // Headings wrap long URLs (the webhook page's title is its URL).
    expect(results).toEqual(results.map(([name]) => [name, 'fits']));
    // Every input, select, textarea and button of every page has a name a screen reader reads out.
    expect(labels).toEqual(labels.map(([name]) => [name, []]));
    await page.setViewportSize(WIDE);
    expect(errors).toEqual([]);
  }, 60_000);

  it('had no console errors, page errors or 5xx answers on any page of this file', async () => {
    const session = await operatorSession;
    await session?.context.close();
    expect(allErrors).toEqual([]);
  });
});
