/**
 * The console during an outage, the way an on-call engineer watches it: signed in through the
 * emailed link in Chromium, the overview and a metric's page left open, nothing reloaded. A real
 * alert workflow opens the alert; the pages show it by themselves, and a form being typed into is
 * never replaced under the reader's hands.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createMailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { signInInBrowser } from '../support/console-browser';
import { testAlertDeps } from '../support/alert-deps';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { type VendorReceiver, startVendorReceiver } from '../support/vendor-receivers';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { testSlackReplies } from '../support/app-deps';

const LINK_KEY = Buffer.alloc(32, 5);
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'checkout'>;
let smtp: SmtpSink;
let browser: Browser;
let slack: VendorReceiver;
let agent: AgentProcess | undefined;

beforeAll(async () => {
  smtp = await startSmtpSink();
  slack = await startVendorReceiver('slack');
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <alerts@vigil.test>', outboxDir: '/nonexistent' });
  h = await startTemporalHarness({
    relay: true,
    location: false,
    alerts: testAlertDeps({ mailer: mailer, linkKey: LINK_KEY }),
  });
  api = await startApi({
    console: { mail: mailer },
    alerts: {
      control: temporalAlertControl(h.temporal),
      tester: temporalChannelTester(h.temporal),
      linkKey: LINK_KEY,
      slackReplies: testSlackReplies(),
    },
  });
  org = await orgWithKeys(api, { services: ['checkout'] });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await agent?.stop();
  await slack?.close();
  await browser?.close();
  await api?.close();
  await h?.close();
  await smtp?.close();
});

const signIn = (page: Page, email: string) => signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, email);

describe('live console pages', () => {
  it('the overview and a metric page show a new critical alert and the metric going down without a reload', async () => {
    const email = 'watcher@example.test';
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role: 'operator' }, new Date());
    const policy = await org.call('POST', '/v1/escalation-policies', {
      name: 'live',
      repeat: 0,
      levels: [{ delay_minutes: 60, targets: [{ type: 'user', email }] }],
    });
    const metric = await org.call('POST', '/v1/metrics', {
      service_id: org.services.checkout,
      name: 'availability',
      source_type: 'manual',
      source_config: {},
    });
    expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'healthy' })).status).toBe(200);
    const rule = await org.call('POST', '/v1/alert-rules', {
      name: 'checkout down',
      kind: 'metric_status',
      subject_id: metric.body.id,
      severity: 'critical',
      escalation_policy_id: policy.body.id,
    });
    expect(rule.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const overview = await context.newPage();
    await signIn(overview, email);
    const metricPage = await context.newPage();
    await metricPage.goto(`${api.baseUrl}/console/metrics/${metric.body.id}`);
    await metricPage.getByText('healthy', { exact: true }).first().waitFor();
    // The reader starts typing a note in a form on the metric page (the manual status form).
    await metricPage
      .locator('#manual-status ~ form select[name=status], form[action$="/status"] select[name=status]')
      .first()
      .selectOption('degraded');
    const loads: string[] = [];
    for (const p of [overview, metricPage]) p.on('load', () => loads.push(p.url()));
    expect(await overview.locator('[data-live-note]').textContent()).toContain('updates itself');
    expect(await overview.locator('#open-alerts').count()).toBe(0);

    expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'unhealthy' })).status).toBe(200);
    // The alert opens (a real workflow) and the overview shows it first, by itself.
    await overview.locator('#open-alerts').waitFor({ timeout: 30_000 });
    expect(await overview.locator('#open-alerts').textContent()).toContain('1 critical alert open');
    const firstSection = await overview.locator('main section').first().getAttribute('aria-labelledby');
    expect(firstSection).toBe('open-alerts');
    expect(await overview.locator('main').getAttribute('data-live-updated')).toBeTruthy();
    // The metric page held still: its form is being used. A fixed wait that proves a negative:
    // longer than the live pages' refresh, and it did not refresh.
    await metricPage.waitForTimeout(12_000);
    expect(await metricPage.locator('form[action$="/status"] select[name=status]').inputValue()).toBe('degraded');
    expect(await metricPage.locator('main').getAttribute('data-live-updated')).toBeNull();
    // Opened afresh, it follows the outage by itself.
    const fresh = await context.newPage();
    await fresh.goto(`${api.baseUrl}/console/metrics/${metric.body.id}`);
    expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'degraded' })).status).toBe(200);
    await fresh.waitForFunction(
      () => (globalThis as any).document.querySelector('main dd .badge')?.textContent === 'degraded',
      undefined,
      { timeout: 25_000 },
    );
    expect(loads).toEqual([]);
    await context.close();
  }, 120_000);

  it('a real probe fails, the on-call engineer acknowledges, snoozes and resolves it with the console buttons; the inbox and Slack hear each step', async () => {
    const email = 'responder@example.test';
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role: 'operator' }, new Date());
    const target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const reg = await org.call('POST', '/v1/agents', { name: 'rack-2' });
    agent = await startAgentProcess(api.baseUrl, reg.body.token);
    const metric = await org.call('POST', '/v1/metrics', {
      service_id: org.services.checkout,
      name: 'home page',
      source_type: 'http',
      source_config: { url },
      interval_seconds: 5,
      agent_id: reg.body.id,
    });
    expect(metric.status).toBe(201);
    const channel = await org.call('POST', '/v1/notification-channels', {
      name: '#responders',
      type: 'slack',
      url: slack.url,
    });
    const policy = await org.call('POST', '/v1/escalation-policies', {
      name: 'responders',
      repeat: 0,
      levels: [
        {
          delay_minutes: 60,
          targets: [
            { type: 'user', email },
            { type: 'channel', id: channel.body.id },
          ],
        },
      ],
    });
    // Resolved by hand only: the test presses Resolve while the target is still down.
    const rule = await org.call('POST', '/v1/alert-rules', {
      name: 'home page down',
      kind: 'metric_status',
      subject_id: metric.body.id,
      severity: 'critical',
      escalation_policy_id: policy.body.id,
      auto_resolve: false,
    });
    expect(rule.status).toBe(201);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(page, email);
    await page.goto(`${api.baseUrl}/console/metrics/${metric.body.id}`);
    await page.locator('main dd .badge.healthy').first().waitFor({ timeout: 45_000 });

    target.closeAllConnections();
    await new Promise((r) => target.close(r));
    const paged = await smtp.waitFor(
      (m) => JSON.stringify(m.to).includes(email) && /home page/.test(m.subject ?? ''),
      60_000,
    );
    expect(paged.text).toContain(url);
    await slack.waitFor(1, 30_000);

    // From the overview's open critical alert to its page, then the three buttons.
    await page.goto(`${api.baseUrl}/console`);
    await page
      .locator('section.open-alerts')
      .getByRole('link', { name: /home page/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'home page' }).waitFor();
    const alertId = /\/console\/alerts\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByRole('status').getByText('Acknowledged: escalation stopped.').waitFor();
    expect((await org.call('GET', `/v1/alerts/${alertId}`)).body).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: expect.stringContaining(email),
    });
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    // Snoozed, the alert stays acknowledged until the snooze ends (480 test minutes).
    await page.getByLabel('Snooze for').selectOption('480');
    await page.getByRole('button', { name: 'Snooze' }).click();
    await page
      .getByRole('status')
      .getByText(/^Snoozed:/)
      .waitFor();
    expect((await org.call('GET', `/v1/alerts/${alertId}`)).body.snoozed_until).toEqual(expect.any(String));
    // The timeline entry comes from the workflow; the page shows it by itself.
    await page
      .getByText(new RegExp(`^Snoozed by .*${email}`))
      .first()
      .waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('status')
      .getByText(/^Resolved:/)
      .waitFor();
    expect((await org.call('GET', `/v1/alerts/${alertId}`)).body.state).toBe('resolved');
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    const timeline = await page.locator('main').innerText();
    expect(timeline).toMatch(new RegExp(`Acknowledged by .*${email}`));
    expect(timeline).toMatch(new RegExp(`Resolved by .*${email}`));

    // Everyone who was told hears that it is over, and by whom.
    const over = await smtp.waitFor(
      (m) => JSON.stringify(m.to).includes(email) && /resolved/i.test(m.subject ?? ''),
      30_000,
    );
    expect(over.text).toContain(email);
    const resolvedInSlack = await eventually(async () => {
      const found = slack.requests.map((r) => JSON.stringify(r.body)).find((t) => t.includes('Resolved'));
      expect(found).toBeDefined();
      return found!;
    }, 30_000);
    expect(resolvedInSlack).toContain(email);
    expect(slack.violations()).toEqual([]);
    await page.context().close();
  }, 180_000);
});
