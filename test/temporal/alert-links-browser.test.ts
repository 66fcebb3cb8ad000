/**
 * The one-click links of an alert notification, followed the way an on-call engineer follows them:
 * taken from the Slack message and the email Vigil sent (a Slack receiver and an SMTP server on
 * loopback record them), opened in Chromium, the button clicked. The form posts as a browser
 * posts any form; the answer is a page saying who acted and when, with a way to the alert.
 */
import type { Browser, Page } from 'playwright-core';
import { createMailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { TEST_PUBLIC_BASE, testAlertDeps } from '../support/alert-deps';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type VendorReceiver, startVendorReceiver } from '../support/vendor-receivers';
import { testSlackReplies } from '../support/app-deps';

const LINK_KEY = Buffer.alloc(32, 7);
// The worker signs links for this base; the test opens them on the API's real address.
const PUBLIC_BASE = TEST_PUBLIC_BASE;

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'checkout'>;
let sink: SmtpSink;
let slack: VendorReceiver;
let browser: Browser;

beforeAll(async () => {
  sink = await startSmtpSink();
  slack = await startVendorReceiver('slack');
  h = await startTemporalHarness({
    relay: true,
    location: false,
    alerts: testAlertDeps({
      mailer: createMailer({ smtpUrl: sink.url, from: 'Vigil <alerts@vigil.test>', outboxDir: '/nonexistent' }),
      linkKey: LINK_KEY,
    }),
  });
  api = await startApi({
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
  await browser?.close();
  await api?.close();
  await h?.close();
  await Promise.all([slack?.close(), sink?.close()]);
});

const opened = (url: string) => url.replace(PUBLIC_BASE, api.baseUrl);

/** The Slack message's button URLs by label. */
function slackButtons(body: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const block of body.blocks ?? [])
    for (const el of block.elements ?? []) if (el.type === 'button' && el.url) out[el.text.text] = el.url;
  return out;
}

async function clickThrough(page: Page, url: string, button: RegExp): Promise<string> {
  const res = await page.goto(opened(url));
  expect(res?.status()).toBe(200);
  await page.getByRole('button', { name: button }).click();
  await page.waitForLoadState('domcontentloaded');
  return (await page.textContent('body')) ?? '';
}

describe('one-click links in a browser', () => {
  it('Acknowledge from Slack and Resolve from the email: the form posts, the page says who and when, and links to the alert', async () => {
    const email = 'oncall-links@example.test';
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email, role: 'operator' }, new Date());
    const channel = await org.call('POST', '/v1/notification-channels', {
      name: 'ops-room',
      type: 'slack',
      url: slack.url,
    });
    expect(channel.status).toBe(201);
    const policy = await org.call('POST', '/v1/escalation-policies', {
      name: 'links',
      repeat: 0,
      levels: [
        {
          delay_minutes: 60,
          targets: [
            { type: 'channel', id: channel.body.id },
            { type: 'user', email },
          ],
        },
      ],
    });
    expect(policy.status).toBe(201);
    const metric = await org.call('POST', '/v1/metrics', {
      service_id: org.services.checkout,
      name: 'availability',
      source_type: 'manual',
      source_config: {},
    });
    const rule = await org.call('POST', '/v1/alert-rules', {
      name: 'checkout down',
      kind: 'metric_status',
      subject_id: metric.body.id,
      severity: 'critical',
      escalation_policy_id: policy.body.id,
    });
    expect(rule.status).toBe(201);
    expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'unhealthy' })).status).toBe(200);

    const [message] = await slack.waitFor(1, 20_000);
    const buttons = slackButtons(message!.body);
    expect(Object.keys(buttons)).toEqual(expect.arrayContaining(['Acknowledge', 'Resolve']));
    const mail = await sink.waitFor((m) => JSON.stringify(m.to).includes(email), 20_000);
    const resolveLink = String(mail.text)
      .match(/http:\/\/127\.0\.0\.1:1\/v1\/alert-actions\/[A-Za-z0-9_-]+/g)
      ?.at(-1);
    expect(resolveLink).toBeDefined();
    const alert = await eventually(async () => {
      const items = (await org.call('GET', `/v1/alerts?rule_id=${rule.body.id}`)).body.items;
      expect(items[0]?.state).toBe('triggered');
      return items[0];
    }, 10_000);

    const page = await browser.newPage();
    try {
      const acked = await clickThrough(page, buttons.Acknowledge!, /Acknowledge/);
      expect(acked).toContain('Acknowledged');
      expect(acked).toContain('by one-click link in slack channel “ops-room”');
      expect(acked).toMatch(/at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      expect(await page.getByRole('link', { name: 'Open the alert in the console' }).getAttribute('href')).toBe(
        `/console/alerts/${alert.id}`,
      );
      expect((await org.call('GET', `/v1/alerts/${alert.id}`)).body).toMatchObject({
        state: 'acknowledged',
        acknowledged_by: 'one-click link in slack channel “ops-room”',
      });

      const resolved = await clickThrough(page, resolveLink!, /Resolve/);
      expect(resolved).toContain('Resolved');
      expect(resolved).toContain(`by ${email} (one-click link in email)`);
      expect((await org.call('GET', `/v1/alerts/${alert.id}`)).body).toMatchObject({
        state: 'resolved',
        resolved_by: `${email} (one-click link in email)`,
      });

      // Opened again: the page says the link was used.
      await page.goto(opened(resolveLink!));
      expect(await page.textContent('h1')).toContain('already used');
    } finally {
      await page.close();
    }
    expect(slack.violations()).toEqual([]);
  }, 90_000);
});
