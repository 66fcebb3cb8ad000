/**
 * The notification channel form in a real headless Chromium, as an operator uses it: the type is
 * chosen first and the form then holds only that type's fields; a Slack channel takes the Slack
 * app's signing secret (never shown again, only "set" and its last four characters, replaceable),
 * a PagerDuty channel an endpoint of its own. What the form saved is read back through the API
 * and shown to work: Slack's signed button presses are accepted with that secret and refused with
 * another; "Send test" on the PagerDuty channel reaches the loopback receiver named as its endpoint
 * (a real Temporal worker sends it). A bad endpoint is refused next to its field.
 */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { createConsoleUser } from '../../src/usecases/console/users';
import { testAlertDeps } from '../support/alert-deps';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInInBrowser } from '../support/console-browser';
import { NARROW_WIDTH, collectConsoleErrors, hasHorizontalScroll } from '../support/console-page-checks';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type VendorReceiver, startVendorReceiver } from '../support/vendor-receivers';
import { testSlackReplies } from '../support/app-deps';

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/console-channel-form');
const LINK_KEY = Buffer.alloc(32, 7);
const EMAIL = 'operator@channel-form.test';
const SIGNING_SECRET = '8f14e45fceea167a5a36dedd4bea2543';
const NEW_SIGNING_SECRET = 'c9f0f895fb98ab9159f51fd0297e236d';
const ROUTING_KEY = 'R0UTINGKEY0123456789abcdefFORM01';

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let pagerduty: VendorReceiver;
let org: OrgFixture;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  pagerduty = await startVendorReceiver('pagerduty');
  h = await startTemporalHarness({ location: false, alerts: testAlertDeps({ mailer, linkKey: LINK_KEY }) });
  [api, browser] = await Promise.all([
    startApi({
      console: { mail: mailer },
      alerts: {
        control: temporalAlertControl(h.temporal),
        tester: temporalChannelTester(h.temporal),
        linkKey: LINK_KEY,
        slackReplies: testSlackReplies(),
      },
    }),
    launchBrowser(),
  ]);
  org = await orgWithKeys(api);
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: EMAIL, role: 'operator' }, new Date());
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  // A refused form answers 400, which Chromium reports as a failed resource; nothing else may be an error.
  errors = collectConsoleErrors(page, (text) => /status of 400/.test(text));
  await signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, EMAIL);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await api?.close();
  await h?.close();
  await pagerduty?.close();
  await mailer?.close();
  await smtp?.close();
});

const form = () => page.locator('form[method="post"][action$="/channels/new"], form[method="post"][action$="/edit"]');
const fieldCount = (label: string) => form().getByLabel(label, { exact: true }).count();

/** Opens "New channel" from the Alerts area and shows the fields of `type` (its label in the chooser). */
async function newChannelOf(type: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Alerts', exact: true }).click();
  await page.getByRole('navigation', { name: 'Alerting' }).getByRole('link', { name: 'Notification channels' }).click();
  await page.getByRole('link', { name: 'New channel' }).click();
  await page.getByRole('heading', { name: 'New notification channel', level: 1 }).waitFor();
  await page.getByLabel('Type', { exact: true }).selectOption({ label: type });
  await page.getByRole('button', { name: 'Show its fields' }).click();
  await page.getByRole('group', { name: type }).waitFor();
}

/** POSTs a button press to the channel's interactions URL, signed with `secret` as Slack signs it. */
async function slackPress(channelId: string, secret: string): Promise<number> {
  const payload = JSON.stringify({
    type: 'block_actions',
    user: { id: 'U0123ABC', username: 'ana', name: 'ana', team_id: 'T0VIGIL01' },
    api_app_id: 'A0VIGIL01',
    container: { type: 'message', message_ts: '1733000000.000100', channel_id: 'C0OPSROOM', is_ephemeral: false },
    team: { id: 'T0VIGIL01', domain: 'vigil-test' },
    channel: { id: 'C0OPSROOM', name: 'ops-room' },
    response_url: 'https://hooks.slack.com/actions/T0VIGIL01/1/x',
    actions: [
      {
        action_id: 'vigil_acknowledge',
        block_id: 'vigil_links',
        text: { type: 'plain_text', text: 'Acknowledge' },
        value: 'not-a-token',
        type: 'button',
        action_ts: '1733000001.000200',
      },
    ],
  });
  const body = new URLSearchParams({ payload }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const res = await api.request('POST', `/v1/integrations/slack/interactions/${channelId}`, {
    rawBody: body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
  });
  return res.status;
}

const channelIdOf = (url: string) => /\/console\/alerts\/channels\/([0-9a-f-]{36})$/.exec(new URL(url).pathname)![1]!;
/** The channel page's fact for `term`. */
const fact = (term: string) => page.locator(`dl.facts dt:text-is("${term}") + dd`);

describe('the notification channel form', () => {
  it("creates a Slack channel with the Slack app's signing secret, never shows it again, and replaces it on edit", async () => {
    await newChannelOf('Slack (incoming webhook)');
    // Only Slack's fields: no routing key, API key, addresses or endpoint of another type.
    expect([await fieldCount('URL'), await fieldCount('Signing secret (optional)')]).toEqual([1, 1]);
    expect([
      await fieldCount('Integration (routing) key'),
      await fieldCount('API key'),
      await fieldCount('Addresses'),
      await fieldCount('Events API base URL'),
    ]).toEqual([0, 0, 0, 0]);
    expect(await page.locator('#f-signing_secret-hint').textContent()).toMatch(
      /Acknowledge and Resolve .* buttons .* without it \(the default\) they are links/,
    );
    await page.setViewportSize({ width: NARROW_WIDTH, height: 844 });
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'slack-form-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByLabel('Name', { exact: true }).fill('#ops-room');
    await page.getByLabel('URL', { exact: true }).fill('https://hooks.slack.example/services/T0/B0/x');
    await page.getByLabel('Signing secret (optional)', { exact: true }).fill(SIGNING_SECRET);
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('heading', { name: 'Channel: #ops-room', level: 1 }).waitFor();
    const id = channelIdOf(page.url());
    expect(await fact('Signing secret').textContent()).toBe(
      `set (…${SIGNING_SECRET.slice(-4)}): Acknowledge and Resolve are interactive buttons`,
    );
    expect(await fact('Interactivity Request URL').textContent()).toContain(
      `/v1/integrations/slack/interactions/${id}`,
    );
    expect(await page.content()).not.toContain(SIGNING_SECRET);

    // Through the API: the hint, and Slack's presses signed with that secret are taken, others refused.
    const read = await org.call('GET', `/v1/notification-channels/${id}`);
    expect(read.body).toMatchObject({
      type: 'slack',
      settings: { signing_secret_hint: `…${SIGNING_SECRET.slice(-4)}` },
    });
    expect(read.text).not.toContain(SIGNING_SECRET);
    expect(await slackPress(id, SIGNING_SECRET)).toBe(200);
    expect(await slackPress(id, NEW_SIGNING_SECRET)).toBe(401);

    // Edit: "set", never the secret; left empty it is kept, typed it is replaced.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit channel: #ops-room', level: 1 }).waitFor();
    expect(await page.locator('#signing-secret-state').textContent()).toBe(
      `Signing secret: set (…${SIGNING_SECRET.slice(-4)}): the buttons are interactive.`,
    );
    expect(await page.content()).not.toContain(SIGNING_SECRET);
    expect(await page.getByLabel('Replace the signing secret', { exact: true }).inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText('Channel saved.').waitFor();
    expect(await slackPress(id, SIGNING_SECRET)).toBe(200);

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Replace the signing secret', { exact: true }).fill(NEW_SIGNING_SECRET);
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText('Channel saved.').waitFor();
    expect((await org.call('GET', `/v1/notification-channels/${id}`)).body.settings).toEqual({
      signing_secret_hint: `…${NEW_SIGNING_SECRET.slice(-4)}`,
    });
    expect(await slackPress(id, NEW_SIGNING_SECRET)).toBe(200);
    expect(await slackPress(id, SIGNING_SECRET)).toBe(401);

    // Removed: the buttons are links again, and the interactions URL no longer answers for it.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Remove the signing secret (the buttons become links again)').check();
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText('Channel saved.').waitFor();
    expect(await fact('Signing secret').textContent()).toBe('not set: Acknowledge and Resolve are links');
    expect((await org.call('GET', `/v1/notification-channels/${id}`)).body.settings).toEqual({});
    expect(await slackPress(id, NEW_SIGNING_SECRET)).toBe(404);
    expect(errors).toEqual([]);
  }, 90_000);

  it('creates a PagerDuty channel with an endpoint of its own, refusing a bad one next to its field, and sends its test there', async () => {
    await newChannelOf('PagerDuty (Events API v2)');
    expect([await fieldCount('Integration (routing) key'), await fieldCount('Events API base URL')]).toEqual([1, 1]);
    expect([
      await fieldCount('URL'),
      await fieldCount('Signing secret (optional)'),
      await fieldCount('API key'),
    ]).toEqual([0, 0, 0]);
    expect(await page.locator('#f-api_url-hint').textContent()).toMatch(
      /Empty \(the default\): PagerDuty’s own, https:\/\/events\.pagerduty\.com\./,
    );

    await page.getByLabel('Name', { exact: true }).fill('Payments on-call');
    await page.getByLabel('Integration (routing) key', { exact: true }).fill(ROUTING_KEY);
    await page.getByLabel('Events API base URL', { exact: true }).fill('ftp://events.example.com');
    await page.getByRole('button', { name: 'Create channel' }).click();
    // Refused: the error next to the field, what was typed kept (but the routing key, a secret, typed again).
    const endpoint = page.getByLabel('Events API base URL', { exact: true });
    await page.locator('#f-api_url-error').waitFor();
    expect(await endpoint.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#f-api_url-error').textContent()).toMatch(/http or https URL/);
    expect(await page.locator('.problem').getByRole('link').allTextContents()).toEqual([
      'Events API base URL must be an http or https URL',
    ]);
    expect(await endpoint.inputValue()).toBe('ftp://events.example.com');
    expect(await page.getByLabel('Integration (routing) key', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('pagerduty');
    await page.screenshot({ path: path.join(ARTIFACTS, 'pagerduty-refused.png'), fullPage: true });

    await endpoint.fill(pagerduty.url);
    await page.getByLabel('Integration (routing) key', { exact: true }).fill(ROUTING_KEY);
    await page.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('heading', { name: 'Channel: Payments on-call', level: 1 }).waitFor();
    const id = channelIdOf(page.url());
    expect(await fact('Sends to').textContent()).toBe(`${pagerduty.url} (its own endpoint)`);
    expect((await org.call('GET', `/v1/notification-channels/${id}`)).body).toMatchObject({
      type: 'pagerduty',
      settings: { api_url: pagerduty.url },
    });

    // It took effect: the test goes to that endpoint, with the routing key typed in the form.
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(/^Test sent: HTTP 202/).waitFor({ timeout: 30_000 });
    const [sent] = await pagerduty.waitFor(1);
    expect(sent!.path).toBe('/v2/enqueue');
    expect((sent!.body as { routing_key: string }).routing_key).toBe(ROUTING_KEY);
    expect(pagerduty.violations()).toEqual([]);

    // Edit shows the endpoint; emptied, the channel goes back to PagerDuty's own.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    expect(await page.getByLabel('Events API base URL', { exact: true }).inputValue()).toBe(pagerduty.url);
    await page.getByLabel('Events API base URL', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByText('Channel saved.').waitFor();
    expect(await fact('Sends to').textContent()).toBe('https://events.pagerduty.com (the vendor’s, the default)');
    expect((await org.call('GET', `/v1/notification-channels/${id}`)).body.settings).toEqual({});
    expect(errors).toEqual([]);
  }, 90_000);
});
