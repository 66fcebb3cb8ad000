/**
 * Every console page shows its times in the zone the signed-in user chose, rendered so by the
 * server: checked in a real headless Chromium with script off (what the server sent is what the
 * reader sees) for a user in Europe/Berlin whose browser is in New York, on the pages that used to
 * render UTC: status pages, metrics (list, a metric's page with its samples and status flips),
 * customers, agents, webhooks (list, a webhook's page, the secret shown after creating and after
 * rotating).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { formatInZone } from '../../src/render/format-time';
import { commitSamples } from '../../src/usecases/metrics/ingest';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const ZONE = 'Europe/Berlin';
const BROWSER_ZONE = 'America/New_York';
/** Berlin's short zone names as Intl writes them in en-GB. */
const BERLIN_NAME = /(CET|CEST|GMT\+1|GMT\+2)$/;

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let org: OrgFixture<never, 'Checkout API'>;
const ids: Record<'metric' | 'customer', string> = { metric: '', customer: '' };
const cookies: Record<'viewer' | 'operator', string> = { viewer: '', operator: '' };

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  [api, browser] = await Promise.all([startApi({ console: { mail: mailer } }), launchBrowser()]);
  org = await orgWithKeys(api, { services: ['Checkout API'] as const });
  const ok = async (method: string, url: string, body?: unknown) => {
    const r = await org.call(method, url, body);
    if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
    return r.body;
  };
  ids.metric = (
    await ok('POST', '/v1/metrics', {
      service_id: org.services['Checkout API'],
      name: 'Checkout latency',
      source_type: 'heartbeat',
      source_config: {},
      thresholds: {
        healthy_operation: 'under',
        healthy_value: 500,
        unhealthy_operation: 'over',
        unhealthy_value: 2000,
      },
      unit: 'ms',
    })
  ).id;
  const now = Date.now();
  // Two flips (healthy → unhealthy → healthy), so the metric's page lists status flips with their times.
  const rows = [3, 2, 1].map((hoursAgo, i) => ({
    metricId: ids.metric,
    sampledAt: new Date(now - hoursAgo * 3_600_000),
    value: i === 1 ? 3000 : 100,
    status: i === 1 ? 'unhealthy' : 'healthy',
    reason: null,
  }));
  await commitSamples(api.orm.em.fork() as EntityManager, org.id, rows, new Date());
  await ok('POST', '/v1/status-pages', { subdomain: 'zoned-times', title: 'Acme status' });
  await ok('POST', '/v1/webhooks', {
    url: 'https://hooks.example.com/vigil/listed',
    event_types: ['incident.created'],
  });
  ids.customer = (await ok('POST', '/v1/customers', { name: 'Globex' })).id;
  const agent = await ok('POST', '/v1/agents', { name: 'eu-west edge' });
  await ok('POST', `/v1/agents/${agent.id}/revoke`);
  await ok('POST', '/v1/agents', { name: 'us-east edge' });
  for (const [role, email] of [
    ['viewer', 'viewer@berlin.test'],
    ['operator', 'operator@berlin.test'],
  ] as const) {
    cookies[role] = (await signedInClient(api, smtp, org.id, email, role)).cookie;
    await api.orm.em
      .fork()
      .getConnection()
      .execute('update console_users set time_zone = ? where email = ?', [ZONE, email]);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** A browser in New York without script, signed in as `role` (a Berlin user). */
async function reader(role: 'viewer' | 'operator'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: BROWSER_ZONE,
    javaScriptEnabled: false,
  });
  const cookie = cookies[role];
  const eq = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: api.baseUrl }]);
  return { context, page: await context.newPage() };
}

/** Each `<time>` of the page: its instant and its text. */
async function timesOf(page: Page): Promise<{ iso: string; text: string }[]> {
  return page
    .locator('main time[datetime]')
    .evaluateAll((els) =>
      els.map((el) => ({ iso: el.getAttribute('datetime') ?? '', text: (el.textContent ?? '').trim() })),
    );
}

/** The page's times that are not its instant as read in Berlin, named so. */
async function unzoned(page: Page): Promise<string[]> {
  return (await timesOf(page))
    .filter((t) => !(t.text === formatInZone(t.iso, ZONE) && BERLIN_NAME.test(t.text)))
    .map((t) => `${t.iso} shown as "${t.text}"`);
}

describe('times on the console pages that used to render UTC', () => {
  it("are in the user's zone on status pages, metrics, customers, agents and webhooks, rendered by the server", async () => {
    const { context, page } = await reader('viewer');
    const pages = [
      '/console/status-pages',
      '/console/metrics',
      `/console/metrics/${ids.metric}`,
      '/console/customers',
      `/console/customers/${ids.customer}`,
      '/console/agents',
      '/console/webhooks',
    ];
    const seen: [string, number, string[]][] = [];
    for (const href of pages) {
      const res = await page.goto(`${api.baseUrl}${href}`);
      expect([href, res?.status()]).toEqual([href, 200]);
      seen.push([href, (await timesOf(page)).length > 0 ? 1 : 0, await unzoned(page)]);
    }
    expect(seen).toEqual(pages.map((href) => [href, 1, []]));
    // The metric's page: its samples and its status flips, each at a Berlin time.
    await page.goto(`${api.baseUrl}/console/metrics/${ids.metric}`);
    const flips = page.getByRole('region', { name: 'Status flips' });
    expect(await flips.locator('time').count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByRole('region', { name: 'Recent samples' }).locator('time').count()).toBe(3);
    await context.close();
  }, 60_000);

  it("are in the user's zone on a webhook's page and where its secret is shown after creating and rotating it", async () => {
    const { context, page } = await reader('operator');
    await page.goto(`${api.baseUrl}/console/webhooks/new`);
    await page.getByLabel('URL', { exact: true }).fill('https://hooks.example.com/vigil/zoned');
    await page.getByRole('group', { name: 'Events it receives' }).getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'Webhook created', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Continue to the webhook' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await timesOf(page)).not.toEqual([]);
    expect(await unzoned(page)).toEqual([]);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'Secret rotated', level: 1 }).waitFor();
    // "The previous secret keeps signing … until <a Berlin time>".
    const until = await timesOf(page);
    expect(until).toHaveLength(1);
    expect(await unzoned(page)).toEqual([]);
    await page.getByRole('link', { name: 'Continue to the webhook' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect((await timesOf(page)).length).toBeGreaterThanOrEqual(2);
    expect(await unzoned(page)).toEqual([]);
    await context.close();
  }, 60_000);
});
