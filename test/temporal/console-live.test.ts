/**
 * The console during an outage, the way an on-call engineer watches it: signed in through the
 * emailed link in Chromium, the overview and a metric's page left open, nothing reloaded. A real
 * alert workflow opens the alert; the pages show it by themselves, and a form being typed into is
 * never replaced under the reader's hands.
 */
import type { Browser, Page } from 'playwright-core';
import { createMailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInInBrowser } from '../support/console-browser';
import { TEST_PUBLIC_BASE, testAlertDeps } from '../support/alert-deps';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

const LINK_KEY = Buffer.alloc(32, 5);
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'checkout'>;
let smtp: SmtpSink;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpSink();
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <alerts@vigil.test>', outboxDir: '/nonexistent' });
  h = await startTemporalHarness({
    relay: true,
    location: false,
    alerts: testAlertDeps({ mailer: mailer, linkKey: LINK_KEY }),
  });
  api = await startApi({ console: { mail: mailer }, alerts: { control: temporalAlertControl(h.temporal), tester: temporalChannelTester(h.temporal), linkKey: LINK_KEY } });
  org = await orgWithKeys(api, { services: ['checkout'] });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
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
    const policy = await org.call('POST', '/v1/escalation-policies', { name: 'live', repeat: 0, levels: [{ delay_minutes: 60, targets: [{ type: 'user', email }] }] });
    const metric = await org.call('POST', '/v1/metrics', { service_id: org.services.checkout, name: 'availability', source_type: 'manual', source_config: {} });
    expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'healthy' })).status).toBe(200);
    const rule = await org.call('POST', '/v1/alert-rules', { name: 'checkout down', kind: 'metric_status', subject_id: metric.body.id, severity: 'critical', escalation_policy_id: policy.body.id });
    expect(rule.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const overview = await context.newPage();
    await signIn(overview, email);
    const metricPage = await context.newPage();
    await metricPage.goto(`${api.baseUrl}/console/metrics/${metric.body.id}`);
    await metricPage.getByText('healthy', { exact: true }).first().waitFor();
    // The reader starts typing a note in a form on the metric page (the manual status form).
    await metricPage.locator('#manual-status ~ form select[name=status], form[action$="/status"] select[name=status]').first().selectOption('degraded');
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
    // The metric page held still: its form is being used.
    await metricPage.waitForTimeout(12_000);
    expect(await metricPage.locator('form[action$="/status"] select[name=status]').inputValue()).toBe('degraded');
    expect(await metricPage.locator('main').getAttribute('data-live-updated')).toBeNull();
    // Opened afresh, it follows the outage by itself.
    const fresh = await context.newPage();
    await fresh.goto(`${api.baseUrl}/console/metrics/${metric.body.id}`);
    expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'degraded' })).status).toBe(200);
    await fresh.waitForFunction(() => (globalThis as any).document.querySelector('main dd .badge')?.textContent === 'degraded', undefined, { timeout: 25_000 });
    expect(loads).toEqual([]);
    await context.close();
  }, 120_000);
});
