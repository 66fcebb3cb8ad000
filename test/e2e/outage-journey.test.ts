/**
 * An outage as the people in it live it, in a real headless Chromium: a monitor that is up, its
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

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/outage-journey');
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: NARROW_WIDTH, height: 900 };
const LINK_KEY = Buffer.alloc(32, 3);
const PUBLIC_BASE = TEST_PUBLIC_BASE;
const OUTAGE_WAIT = 45_000;
const SUBDOMAIN = 'outage-journey';

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'Checkout'>;
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
  return new Promise<void>((r) => target.listen(port, '127.0.0.1', () => {
    targetPort = (target.address() as AddressInfo).port;
    r();
  }));
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
    alerts: { control: temporalAlertControl(h.temporal), tester: temporalChannelTester(h.temporal), linkKey: LINK_KEY },
  });
  org = await orgWithKeys(api, { services: ['Checkout'] });
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

/** The Slack message's button URLs by label. */
function slackButtons(body: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of body.blocks ?? []) for (const el of block.elements ?? []) if (el.type === 'button' && el.url) out[el.text.text] = el.url;
  return out;
}
const slackText = (body: unknown) => JSON.stringify(body);

describe('an outage, as the people in it see it', () => {
  it('a monitor that is up: the console shows it healthy, with its agent by name', async () => {
    const email = 'oncall@acme.example';
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role: 'operator' }, new Date());
    const reg = await ok('POST', '/v1/agents', { name: 'office-rack' });
    agent = await startAgentProcess(api.baseUrl, reg.token);
    // An "Is it up?" check: no thresholds.
    const metric = await ok('POST', '/v1/metrics', { service_id: org.services.Checkout, name: 'Storefront', source_type: 'http', source_config: { url: `http://127.0.0.1:${targetPort}/` }, interval_seconds: 5, agent_id: reg.id, unit: 'ms' });
    metricId = metric.id;
    const channel = await ok('POST', '/v1/notification-channels', { name: '#ops', type: 'slack', url: slack.url });
    const policy = await ok('POST', '/v1/escalation-policies', { name: 'Ops', repeat: 0, levels: [{ delay_minutes: 30, targets: [{ type: 'channel', id: channel.id }] }] });
    await ok('POST', '/v1/alert-rules', { name: 'Storefront down', kind: 'metric_status', subject_id: metricId, severity: 'critical', escalation_policy_id: policy.id });
    await ok('POST', '/v1/status-pages', { subdomain: SUBDOMAIN, title: 'Acme Status', groups: [{ name: 'Shop', components: [{ kind: 'service', id: org.services.Checkout }] }] });

    context = await browser.newContext({ viewport: WIDE });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, email);

    await page.goto(`${api.baseUrl}/console/metrics/${metricId}`);
    // The page follows the first check by itself.
    await page.locator('main dd .badge.healthy').first().waitFor({ timeout: OUTAGE_WAIT });
    expect(await page.locator('dl.facts dt:text-is("Agent") + dd').innerText()).toContain('office-rack');
    await both('1-up');
  }, 120_000);

  it('the target stops: the metric reads Down in words, the overview opens with the critical alert, and Slack gets a message to act on', async () => {
    await stopTarget();
    await page.locator('main dd .badge.unhealthy').first().waitFor({ timeout: OUTAGE_WAIT });
    expect(await page.locator('main dd .badge.unhealthy').first().innerText()).toBe('Down (TCP connection refused)');
    await both('2-metric-down');

    const [message] = await slack.waitFor(1, OUTAGE_WAIT);
    const text = slackText(message!.body);
    expect(text).toContain(`http://127.0.0.1:${targetPort}/`);
    expect(text).toContain('TCP connection refused (ECONNREFUSED)');
    expect(text).toMatch(/so far/);
    expect(Object.keys(slackButtons(message!.body))).toEqual(expect.arrayContaining(['Acknowledge', 'Resolve', 'Open alert']));

    await page.goto(`${api.baseUrl}/console`);
    await page.locator('#open-alerts').waitFor();
    expect(await page.locator('#open-alerts').innerText()).toContain('1 critical alert open');
    const alerts = await ok('GET', '/v1/alerts?state=open');
    alertId = alerts.items[0].id;
    await both('3-overview-alert');
  }, 120_000);

  it('the on-call engineer presses Acknowledge in Slack: the page says who and when, and the alert says so', async () => {
    const [message] = slack.requests;
    const ack = slackButtons(message!.body).Acknowledge!;
    const tab = await context.newPage();
    await tab.goto(ack.replace(PUBLIC_BASE, api.baseUrl));
    await tab.getByRole('button', { name: /Acknowledge/ }).click();
    await tab.getByRole('heading', { name: 'Acknowledged' }).waitFor();
    expect(await tab.locator('body').innerText()).toContain('by one-click link in slack channel “#ops”');
    await both('4-acknowledged', tab);
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
    await both('5-incident-draft');
    await ok('POST', `/v1/incidents/${incidentId}/publish`);
    const pub = await context.newPage();
    await pub.goto(`${pageBase()}/`);
    const body = await pub.locator('main').innerText();
    expect(body).toContain('We are investigating problems with Checkout since');
    expect(body).not.toContain('ECONNREFUSED');
    expect(body).not.toContain('office-rack');
    await both('6-public-incident', pub);
    await pub.close();
  }, 60_000);

  it('a maintenance window is announced and started: the public page says maintenance, not a second outage', async () => {
    const start = new Date(Date.now() + 3_600_000);
    const window = await ok('POST', '/v1/maintenances', { title: 'Storefront restart', affected_services: [org.services.Checkout], scheduled_start_at: start.toISOString(), scheduled_end_at: new Date(start.getTime() + 3_600_000).toISOString() });
    await ok('POST', `/v1/maintenances/${window.id}/start`);
    const pub = await context.newPage();
    await pub.goto(`${pageBase()}/`);
    expect(await pub.locator('section[aria-labelledby="maintenance-now"]').innerText()).toContain('Storefront restart');
    await both('7-public-maintenance', pub);
    await pub.close();
    await ok('POST', `/v1/maintenances/${window.id}/complete`);
  }, 60_000);

  it('recovery: the metric is healthy again, the alert resolves itself, Slack hears how long it lasted, and the resolved incident leaves the page', async () => {
    await startTarget(targetPort);
    await page.goto(`${api.baseUrl}/console/metrics/${metricId}`);
    await page.locator('main dd .badge.healthy').first().waitFor({ timeout: OUTAGE_WAIT });
    await eventually(async () => expect((await ok('GET', `/v1/alerts/${alertId}`)).state).toBe('resolved'), OUTAGE_WAIT);
    const resolved = await eventually(async () => {
      const m = slack.requests.find((r) => slackText(r.body).includes('Resolved:'));
      expect(m).toBeDefined();
      return m!;
    }, 20_000);
    expect(slackText(resolved.body)).toMatch(/Storefront recovered after \d+ (s|min)/);
    await ok('POST', `/v1/incidents/${incidentId}/resolve`, { message: 'The storefront is back.' });
    const pub = await context.newPage();
    await pub.goto(`${pageBase()}/`);
    expect(await pub.locator(`section[aria-labelledby="active-incidents"] article[data-incident-id="${incidentId}"]`).count()).toBe(0);
    expect((await pub.locator('#overall-status').innerText()).trim()).toBe('All systems operational');
    await both('8-public-recovered', pub);
    await pub.close();
    expect(slack.violations()).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
