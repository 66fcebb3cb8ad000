/**
 * An outage as the people in it live it, in a real headless Chromium: an empty organization set up
 * by clicking through the console (a service, an agent, an "Is it up?" check, a Slack channel, an
 * escalation policy and a rule, a status page), the monitor up, its
 * target stopping, the console and the Slack message saying so, the on-call engineer pressing
 * Slack's Acknowledge button, an incident drafted from the flip in customers' words and published,
 * a maintenance window, the recovery. Each step asserts what a person sees — the console, the
 * message the Slack receiver recorded, the public page — and is photographed at 1280 and 390 px
 * (test-artifacts/outage-journey/).
 *
 * Behind the browser: the real API on PostgreSQL, a real Temporal server and worker (the outbox
 * relay, alert workflows, maintenance), a real `vigil-agent` process probing a loopback HTTP
 * target, a Slack receiver checking Slack's documented payload rules, and an SMTP sink.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { instantToLocalInput } from '../../src/domain/local-time-input';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInInBrowser } from '../support/console-browser';
import { NARROW_WIDTH, hasHorizontalScroll } from '../support/console-page-checks';
import { TEST_PUBLIC_BASE, testAlertDeps } from '../support/alert-deps';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type VendorReceiver, startVendorReceiver } from '../support/vendor-receivers';
import { testSlackReplies } from '../support/app-deps';

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/outage-journey');
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: NARROW_WIDTH, height: 900 };
const LINK_KEY = Buffer.alloc(32, 3);
const PUBLIC_BASE = TEST_PUBLIC_BASE;
const OUTAGE_WAIT = 45_000;
const SUBDOMAIN = 'outage-journey';

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture;
let smtp: SmtpSink;
let mailer: Mailer;
let slack: VendorReceiver;
let browser: Browser;
let agent: AgentProcess;
let target: http.Server;
let targetPort = 0;
let context: BrowserContext;
let page: Page;
let metricId: string;
let alertId: string;
let incidentId: string;
const errors: string[] = [];

function startTarget(port = 0): Promise<void> {
  target = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  return new Promise<void>((r) =>
    target.listen(port, '127.0.0.1', () => {
      targetPort = (target.address() as AddressInfo).port;
      r();
    }),
  );
}
async function stopTarget(): Promise<void> {
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <alerts@vigil.test>', outboxDir: '/nonexistent' });
  slack = await startVendorReceiver('slack');
  h = await startTemporalHarness({
    relay: true,
    location: false,
    alerts: testAlertDeps({ mailer: mailer, linkKey: LINK_KEY, minuteMs: 1_000 }),
  });
  api = await startApi({
    console: { mail: mailer },
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    alerts: {
      control: temporalAlertControl(h.temporal),
      tester: temporalChannelTester(h.temporal),
      linkKey: LINK_KEY,
      slackReplies: testSlackReplies(),
    },
  });
  org = await orgWithKeys(api);
  browser = await launchBrowser();
  await startTarget();
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await agent?.stop();
  if (target?.listening) await stopTarget();
  await api?.close();
  await h?.close();
  await Promise.all([slack?.close(), smtp?.close()]);
  await mailer?.close();
});

const ok = async (method: string, url: string, body?: unknown) => {
  const r = await org.call(method, url, body);
  if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
  return r.body;
};
const pageBase = () => `http://${SUBDOMAIN}.status.localhost:${new URL(api.baseUrl).port}`;

/** Photographs the page at 1280 and 390 px, and checks that nothing scrolls sideways at 390. */
async function both(name: string, p: Page = page): Promise<void> {
  await p.setViewportSize(WIDE);
  await p.screenshot({ path: path.join(ARTIFACTS, `${name}-1280.png`), fullPage: true });
  await p.setViewportSize(NARROW);
  expect([name, await hasHorizontalScroll(p)]).toEqual([name, false]);
  await p.screenshot({ path: path.join(ARTIFACTS, `${name}-390.png`), fullPage: true });
  await p.setViewportSize(WIDE);
}

/** The channel form, filled for a Slack incoming webhook. */
async function fillSlackChannel(name: string, url: string): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Type', { exact: true }).selectOption('slack');
  await page.getByLabel('URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: /^Create channel/ }).click();
}

/** The Slack message's button URLs by label. */
function slackButtons(body: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of body.blocks ?? [])
    for (const el of block.elements ?? []) if (el.type === 'button' && el.url) out[el.text.text] = el.url;
  return out;
}
const slackText = (body: unknown) => JSON.stringify(body);

describe('an outage, as the people in it see it', () => {
  it('an empty organization, set up in the console: a service, an agent, an "Is it up?" check, alerting in its three steps and a status page', async () => {
    const email = 'oncall@acme.example';
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role: 'owner' }, new Date());
    context = await browser.newContext({ viewport: WIDE });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, email);
    const nav = (name: string) =>
      page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
    const flash = (text: string | RegExp) => page.getByRole('status').getByText(text).waitFor();

    await nav('Services');
    await page.getByRole('link', { name: 'New service' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Checkout');
    await page.getByRole('button', { name: 'Create service' }).click();
    await flash('Created Checkout.');

    await nav('Agents');
    const register = page.getByRole('form', { name: 'Register an agent' });
    await register.getByLabel('Agent name').fill('office-rack');
    await register.getByRole('button', { name: 'Register agent' }).click();
    await page.getByRole('heading', { name: 'Agent: office-rack', level: 1 }).waitFor();
    agent = await startAgentProcess(api.baseUrl, await page.getByLabel('Agent token (VIGIL_AGENT_TOKEN)').inputValue());

    await nav('Metrics');
    await page.getByRole('link', { name: 'New metric' }).click();
    const chooser = page.getByRole('form', { name: 'Choose the type' });
    await chooser.getByLabel('Type').selectOption({ label: 'HTTP(S): is it up?' });
    await chooser.getByRole('button', { name: 'Show its settings' }).click();
    await page.waitForURL(/[?&]type=http/);
    await page.getByLabel('Service').selectOption({ label: 'Checkout' });
    await page.getByLabel('Name', { exact: true }).fill('Storefront');
    await page.getByLabel('URL', { exact: true }).fill(`http://127.0.0.1:${targetPort}/`);
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'office-rack' });
    await page.getByLabel('Check every (seconds)').fill('5');
    await page.getByRole('button', { name: 'Create metric' }).click();
    await page.getByRole('heading', { name: 'Metric: Storefront', level: 1 }).waitFor();
    metricId = /\/console\/metrics\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await both('1-first-monitor');

    // Alerting, in the order the checklist gives: a channel, a policy, a rule.
    await nav('Alerts');
    const checklist = page.getByRole('region', { name: 'Set up alerting in three steps' });
    await checklist
      .getByRole('listitem')
      .filter({ hasText: '1. A notification channel' })
      .getByRole('link', { name: 'Add one' })
      .click();
    await fillSlackChannel('#ops', slack.url);
    await flash(/^Channel created/);
    await nav('Alerts');
    await checklist
      .getByRole('listitem')
      .filter({ hasText: '2. An escalation policy' })
      .getByRole('link', { name: 'Add one' })
      .click();
    await page.getByLabel('Name', { exact: true }).fill('Ops');
    await page
      .getByRole('group', { name: 'Notification channels' })
      .first()
      .getByRole('checkbox', { name: '#ops' })
      .check();
    await page.getByRole('button', { name: 'Create policy' }).click();
    await flash(/Ops/);
    await nav('Alerts');
    await checklist
      .getByRole('listitem')
      .filter({ hasText: '3. An alert rule' })
      .getByRole('link', { name: 'Add one' })
      .click();
    const kind = page.getByRole('form', { name: 'What raises the alert' });
    await kind.getByLabel('Raise an alert when').selectOption('metric_status');
    await kind.getByRole('button', { name: 'Show what it can watch' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Storefront down');
    await page.getByLabel('Watching').selectOption({ label: 'Metric: Storefront' });
    await page.getByLabel('Escalation policy').selectOption({ label: 'Ops' });
    await page.getByRole('button', { name: 'Create rule' }).click();
    await flash(/Storefront down/);
    await nav('Alerts');
    expect(await page.getByRole('region', { name: 'Set up alerting in three steps' }).count()).toBe(0);

    await nav('Status pages');
    await page.getByRole('link', { name: 'New status page' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Acme Status');
    await page.getByLabel('Subdomain', { exact: true }).fill(SUBDOMAIN);
    const group = page.getByRole('group', { name: 'Group 1' });
    await group.getByLabel(/^Heading/).fill('Shop');
    await group.getByLabel('Component 1').selectOption({ label: 'Checkout' });
    await page.getByRole('button', { name: 'Create status page' }).click();
    await flash(/^Status page created; it is live at/);

    // What the clicks made, as the API reads it.
    const rules = await ok('GET', '/v1/alert-rules');
    expect(rules.items).toMatchObject([
      { name: 'Storefront down', kind: 'metric_status', subject_id: metricId, enabled: true },
    ]);
    const metric = await ok('GET', `/v1/metrics/${metricId}`);
    expect(metric).toMatchObject({
      source_type: 'http',
      thresholds: null,
      interval_seconds: 5,
      source_config: { url: `http://127.0.0.1:${targetPort}/` },
    });
  }, 180_000);

  it('a monitor that is up: the console shows it healthy, with its agent by name', async () => {
    await page.goto(`${api.baseUrl}/console/metrics/${metricId}`);
    // The page follows the first check by itself.
    await page.locator('main dd .badge.healthy').first().waitFor({ timeout: OUTAGE_WAIT });
    expect(await page.locator('dl.facts dt:text-is("Agent") + dd').innerText()).toContain('office-rack');
    await both('2-up');
  }, 120_000);

  it('the target stops: the metric reads Down in words, the overview opens with the critical alert, and Slack gets a message to act on', async () => {
    await stopTarget();
    await page.locator('main dd .badge.unhealthy').first().waitFor({ timeout: OUTAGE_WAIT });
    expect(await page.locator('main dd .badge.unhealthy').first().innerText()).toBe('Down (TCP connection refused)');
    await both('3-metric-down');

    const [message] = await slack.waitFor(1, OUTAGE_WAIT);
    const text = slackText(message!.body);
    expect(text).toContain(`http://127.0.0.1:${targetPort}/`);
    expect(text).toContain('TCP connection refused (ECONNREFUSED)');
    expect(text).toMatch(/so far/);
    expect(Object.keys(slackButtons(message!.body))).toEqual(
      expect.arrayContaining(['Acknowledge', 'Resolve', 'Open alert']),
    );

    await page.goto(`${api.baseUrl}/console`);
    await page.locator('#open-alerts').waitFor();
    expect(await page.locator('#open-alerts').innerText()).toContain('1 critical alert open');
    const alerts = await ok('GET', '/v1/alerts?state=open');
    alertId = alerts.items[0].id;
    await both('4-overview-alert');
  }, 120_000);

  it('the on-call engineer presses Acknowledge in Slack: the page says who and when, and the alert says so', async () => {
    const [message] = slack.requests;
    const ack = slackButtons(message!.body).Acknowledge!;
    const tab = await context.newPage();
    await tab.goto(ack.replace(PUBLIC_BASE, api.baseUrl));
    await tab.getByRole('button', { name: /Acknowledge/ }).click();
    await tab.getByRole('heading', { name: 'Acknowledged' }).waitFor();
    expect(await tab.locator('body').innerText()).toContain('by one-click link in slack channel “#ops”');
    await both('5-acknowledged', tab);
    await tab.close();
    expect((await ok('GET', `/v1/alerts/${alertId}`)).state).toBe('acknowledged');
  }, 60_000);

  it('an incident drafted from the flip speaks to customers; published, the public page shows it and not the evidence', async () => {
    await page.goto(`${api.baseUrl}/console/metrics/${metricId}`);
    await page.getByRole('button', { name: 'Create incident' }).click();
    await page.waitForURL(/\/console\/incidents\/[0-9a-f-]+/);
    incidentId = page.url().split('/').pop()!.split('?')[0]!;
    const draft = await page.locator('main').innerText();
    expect(draft).toMatch(/We are investigating problems with Checkout since/);
    await both('6-incident-draft');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('status').getByText('Incident published.').waitFor();
    const pub = await context.newPage();
    await pub.goto(`${pageBase()}/`);
    const body = await pub.locator('main').innerText();
    expect(body).toContain('We are investigating problems with Checkout since');
    expect(body).not.toContain('ECONNREFUSED');
    expect(body).not.toContain('office-rack');
    await both('7-public-incident', pub);
    await pub.close();
  }, 60_000);

  it('a maintenance window is announced and started: the public page says maintenance, not a second outage', async () => {
    const start = new Date(Date.now() + 3_600_000);
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Maintenance', exact: true })
      .click();
    await page.getByRole('link', { name: 'Schedule maintenance' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Storefront restart');
    const startsAt = page.getByLabel(/^Starts at/);
    const zone = /\(([^)]+)\)$/.exec(
      (await page.locator(`label[for="${await startsAt.getAttribute('id')}"]`).innerText()).trim(),
    )![1]!;
    await startsAt.fill(instantToLocalInput(start, zone));
    await page.getByLabel(/^Ends at/).fill(instantToLocalInput(new Date(start.getTime() + 3_600_000), zone));
    await page.getByRole('group', { name: 'Affected services' }).getByRole('checkbox', { name: 'Checkout' }).check();
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    await page.getByRole('status').getByText('Maintenance scheduled.').waitFor();
    await page.getByRole('button', { name: 'Start now' }).click();
    await page.getByRole('button', { name: 'Complete now' }).waitFor();
    const pub = await context.newPage();
    await pub.goto(`${pageBase()}/`);
    expect(await pub.locator('section[aria-labelledby="maintenance-now"]').innerText()).toContain('Storefront restart');
    // Down inside an announced window: the metric adds no outage of its own; the headline is the
    // published incident's impact (it is still open), beside the maintenance in progress.
    expect((await pub.locator('#overall-status').innerText()).trim()).not.toBe('Major outage');
    await both('8-public-maintenance', pub);
    await pub.close();
    await page.getByRole('button', { name: 'Complete now' }).click();
    await page.getByRole('button', { name: 'Complete now' }).waitFor({ state: 'detached' });
    // A completed window offers no cancel.
    expect(await page.getByRole('link', { name: /Cancel maintenance/ }).count()).toBe(0);
  }, 60_000);

  it('recovery: the metric is healthy again, the alert resolves itself, Slack hears how long it lasted, and the resolved incident leaves the page', async () => {
    await startTarget(targetPort);
    await page.goto(`${api.baseUrl}/console/metrics/${metricId}`);
    await page.locator('main dd .badge.healthy').first().waitFor({ timeout: OUTAGE_WAIT });
    await eventually(
      async () => expect((await ok('GET', `/v1/alerts/${alertId}`)).state).toBe('resolved'),
      OUTAGE_WAIT,
    );
    const resolved = await eventually(async () => {
      const m = slack.requests.find((r) => slackText(r.body).includes('Resolved:'));
      expect(m).toBeDefined();
      return m!;
    }, 20_000);
    expect(slackText(resolved.body)).toMatch(/Storefront recovered after \d+ (s|min)/);
    await page.goto(`${api.baseUrl}/console/incidents/${incidentId}`);
    await page.getByLabel('Closing message (optional, posted as Resolved)').fill('The storefront is back.');
    await page.getByRole('button', { name: 'Resolve incident' }).click();
    await page.getByRole('status').getByText('Incident resolved.').waitFor();
    const pub = await context.newPage();
    await pub.goto(`${pageBase()}/`);
    expect(
      await pub
        .locator(`section[aria-labelledby="active-incidents"] article[data-incident-id="${incidentId}"]`)
        .count(),
    ).toBe(0);
    expect((await pub.locator('#overall-status').innerText()).trim()).toBe('All systems operational');
    await both('9-public-recovered', pub);
    await pub.close();
    expect(slack.violations()).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
