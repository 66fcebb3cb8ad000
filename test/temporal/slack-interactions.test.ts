/**
 * Slack's interactive buttons, end to end on a real Temporal worker: a Slack channel with the
 * Slack app's signing secret gets Acknowledge/Resolve buttons that Slack posts to Vigil's
 * interactions URL; the test presses them exactly as Slack does (a form body with a `payload`
 * field, signed with X-Slack-Signature over `v0:<timestamp>:<raw body>`), so Vigil knows which
 * Slack user pressed, and tells that person in Slack through the press's `response_url` (a loopback
 * receiver checking Slack's contract for it). A channel without the secret keeps its link buttons.
 */
import { createHmac } from 'node:crypto';
import { createLogger } from '../../src/composition/logger';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { slackReplySender } from '../../src/usecases/alerting/slack-replies';
import { type ApiHarness, type HttpResult, startApi } from '../support/api-harness';
import { testSecretBox } from '../support/env';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type VendorReceiver, startVendorReceiver } from '../support/vendor-receivers';
import { publicOnlyPoster } from '../../src/infra/webhook-http';

const LINK_KEY = Buffer.alloc(32, 11);
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const ANA = { id: 'U0VIGIL1', username: 'ana.oncall', name: 'ana.oncall', team_id: 'T0VIGIL01' };

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'interactive' | 'refusals' | 'plain' | 'ignored' | 'unheard'>;
const receivers: VendorReceiver[] = [];
/** The API's log lines (JSON), where an undelivered follow-up is reported. */
const logLines: string[] = [];

beforeAll(async () => {
  h = await startTemporalHarness({
    relay: true,
    location: false,
    alerts: {
      box: testSecretBox(),
      mailer: null,
      endpoints: {
        pagerdutyEventsUrl: 'http://127.0.0.1:9',
        opsgenieApiUrl: 'http://127.0.0.1:9',
        opsgenieEuApiUrl: 'http://127.0.0.1:9',
      },
      timeoutMs: 3_000,
      poster: publicOnlyPoster('127.0.0.0/8'),
      publicBaseUrl: 'http://127.0.0.1:1',
      linkKey: LINK_KEY,
      minuteMs: 300,
    },
  });
  api = await startApi({
    logger: createLogger('info', 'slack-interactions-test', { write: (line: string) => void logLines.push(line) }),
    alerts: {
      control: temporalAlertControl(h.temporal),
      tester: temporalChannelTester(h.temporal),
      linkKey: LINK_KEY,
      // As the worker's channels: loopback receivers are allowed in tests only.
      slackReplies: slackReplySender(publicOnlyPoster('127.0.0.0/8'), 3_000),
    },
  });
  org = await orgWithKeys(api, { services: ['interactive', 'refusals', 'plain', 'ignored', 'unheard'] });
}, 240_000);

afterAll(async () => {
  await api?.close();
  await h?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

/** A Slack channel on its own receiver, a policy paging it, and a manual metric set unhealthy: the alert and its first message. */
async function raiseAlert(service: string, channelBody: Record<string, unknown>) {
  const slack = await startVendorReceiver('slack');
  // Where Slack takes the app's answers to presses of this message (the payload's response_url).
  const responder = await startVendorReceiver('slack_response_url');
  receivers.push(slack, responder);
  const channel = await org.call('POST', '/v1/notification-channels', {
    name: 'ops-room',
    type: 'slack',
    url: slack.url,
    ...channelBody,
  });
  expect(channel.status).toBe(201);
  const policy = await org.call('POST', '/v1/escalation-policies', {
    name: `slack ${service}`,
    repeat: 0,
    levels: [{ delay_minutes: 60, targets: [{ type: 'channel', id: channel.body.id }] }],
  });
  expect(policy.status).toBe(201);
  const metric = await org.call('POST', '/v1/metrics', {
    service_id: service,
    name: 'availability',
    source_type: 'manual',
    source_config: {},
  });
  expect(metric.status).toBe(201);
  const rule = await org.call('POST', '/v1/alert-rules', {
    name: `${service} down`,
    kind: 'metric_status',
    subject_id: metric.body.id,
    severity: 'critical',
    escalation_policy_id: policy.body.id,
  });
  expect(rule.status).toBe(201);
  expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'unhealthy' })).status).toBe(200);
  const [message] = await slack.waitFor(1, 20_000);
  const alert = await eventually(async () => {
    const items = (await org.call('GET', `/v1/alerts?rule_id=${rule.body.id}`)).body.items;
    expect(items[0]?.state).toBe('triggered');
    return items[0];
  }, 10_000);
  return {
    slack,
    responder,
    channelId: channel.body.id as string,
    alertId: alert.id as string,
    message: message!.body as any,
  };
}

/** The message's buttons by action_id. */
function buttons(message: any): Record<string, any> {
  const out: Record<string, any> = {};
  for (const block of message.blocks ?? [])
    for (const el of block.elements ?? []) if (el.type === 'button') out[el.action_id] = el;
  return out;
}

/** A block_actions payload as Slack sends it when a user presses a button of the message. */
function pressPayload(responseUrl: string, actionId: string, value: string | undefined, user = ANA): string {
  return JSON.stringify({
    type: 'block_actions',
    user,
    api_app_id: 'A0VIGIL01',
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: '1733000000.000100', channel_id: 'C0OPSROOM', is_ephemeral: false },
    trigger_id: '1.2.3',
    team: { id: 'T0VIGIL01', domain: 'vigil-test' },
    channel: { id: 'C0OPSROOM', name: 'ops-room' },
    response_url: responseUrl,
    actions: [
      {
        action_id: actionId,
        block_id: 'vigil_links',
        text: { type: 'plain_text', text: actionId },
        ...(value !== undefined ? { value } : {}),
        type: 'button',
        action_ts: '1733000001.000200',
      },
    ],
  });
}

const formBody = (payload: string) => new URLSearchParams({ payload }).toString();
const sign = (body: string, timestamp: string, secret = SIGNING_SECRET) =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** POSTs to the interactions URL as Slack does; `signed` is the body the signature covers (the sent one unless tampered). */
function post(
  channelId: string,
  body: string,
  opts: { timestamp?: string; signature?: string; signed?: string } = {},
): Promise<HttpResult> {
  const timestamp = opts.timestamp ?? nowSeconds();
  return api.request('POST', `/v1/integrations/slack/interactions/${channelId}`, {
    rawBody: body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': opts.signature ?? sign(opts.signed ?? body, timestamp),
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    },
  });
}

const alertNow = async (id: string) => (await org.call('GET', `/v1/alerts/${id}`)).body;

describe('Slack interactive buttons', () => {
  it('keeps the Slack signing secret write-only: the channel shows a hint, never the secret, and PATCH null removes it', async () => {
    const created = await org.call('POST', '/v1/notification-channels', {
      name: 'hint-room',
      type: 'slack',
      url: 'https://hooks.slack.com/services/T0/B0/x',
      signing_secret: SIGNING_SECRET,
    });
    expect(created.status).toBe(201);
    expect(created.body.settings).toEqual({ signing_secret_hint: `…${SIGNING_SECRET.slice(-4)}` });
    expect(created.body.signing_secret).toBeUndefined();
    expect(created.text).not.toContain(SIGNING_SECRET);
    const read = await org.call('GET', `/v1/notification-channels/${created.body.id}`);
    expect(read.text).not.toContain(SIGNING_SECRET);
    const cleared = await org.call('PATCH', `/v1/notification-channels/${created.body.id}`, { signing_secret: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.settings).toEqual({});
    const teams = await org.call('POST', '/v1/notification-channels', {
      name: 'teams-room',
      type: 'teams',
      url: 'https://example.test/hook',
      signing_secret: SIGNING_SECRET,
    });
    expect(teams.status).toBe(400);
  });

  it('sends interactive Acknowledge/Resolve buttons (action_id, value = the one-click token) and keeps the Open alert link, then acknowledges as the Slack user who pressed; a second press answers that it was already done', async () => {
    const { slack, responder, channelId, alertId, message } = await raiseAlert(org.services.interactive, {
      signing_secret: SIGNING_SECRET,
    });
    const b = buttons(message);
    expect(b.vigil_acknowledge).toMatchObject({
      action_id: 'vigil_acknowledge',
      value: expect.stringMatching(/^[A-Za-z0-9_-]{94}$/),
    });
    expect(b.vigil_acknowledge.url).toBeUndefined();
    expect(b.vigil_resolve).toMatchObject({
      action_id: 'vigil_resolve',
      value: expect.stringMatching(/^[A-Za-z0-9_-]{94}$/),
    });
    expect(b.vigil_resolve.url).toBeUndefined();
    expect(b.vigil_open).toMatchObject({ url: expect.stringContaining(alertId) });
    expect(slack.violations()).toEqual([]);

    const press = formBody(pressPayload(responder.url, 'vigil_acknowledge', b.vigil_acknowledge.value));
    const res = await post(channelId, press);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ replace_original: false, text: expect.stringContaining('Acknowledged') });
    expect(res.body.text).toContain('Slack user @ana.oncall (U0VIGIL1)');
    expect(await alertNow(alertId)).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: 'Slack user @ana.oncall (U0VIGIL1) in channel “ops-room”',
    });

    // The person who pressed is told in Slack, through the press's response_url: who, and when
    // (a Slack date token, shown in each reader's zone).
    const [told] = await responder.waitFor(1, 5_000);
    expect(told!.body).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: expect.stringMatching(
        /^Acknowledged “.+” — by Slack user @ana\.oncall \(U0VIGIL1\) in channel “ops-room” at <!date\^\d+\^\{date_short_pretty\} at \{time\}\|\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC>\.$/,
      ),
    });
    const at = Number(/<!date\^(\d+)\^/.exec((told!.body as { text: string }).text)![1]);
    expect(Math.abs(at * 1000 - Date.now())).toBeLessThan(60_000);
    expect(told!.status).toBe(200);

    // The channel hears who acknowledged, through the alert's own message.
    const [, acked] = await slack.waitFor(2, 20_000);
    expect(JSON.stringify(acked!.body)).toContain('@ana.oncall (U0VIGIL1)');

    // Pressed again (another person, a double click): Slack gets a 200 saying it was done.
    const again = await post(
      channelId,
      formBody(
        pressPayload(responder.url, 'vigil_acknowledge', b.vigil_acknowledge.value, {
          ...ANA,
          id: 'U0VIGIL2',
          username: 'ben',
          name: 'ben',
        }),
      ),
    );
    expect(again.status).toBe(200);
    expect(again.body.text).toMatch(/^Already done/);
    expect((await alertNow(alertId)).acknowledged_by).toBe('Slack user @ana.oncall (U0VIGIL1) in channel “ops-room”');
    // Ben is told in Slack that his press changed nothing.
    const [, toldAgain] = await responder.waitFor(2, 5_000);
    expect((toldAgain!.body as { text: string }).text).toMatch(
      /^Already done: this Acknowledge button was already used/,
    );

    // The Resolve button still works, once.
    const resolved = await post(
      channelId,
      formBody(pressPayload(responder.url, 'vigil_resolve', b.vigil_resolve.value)),
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.text).toContain('Resolved');
    expect(await alertNow(alertId)).toMatchObject({
      state: 'resolved',
      resolved_by: 'Slack user @ana.oncall (U0VIGIL1) in channel “ops-room”',
    });
    const [, , toldResolved] = await responder.waitFor(3, 5_000);
    expect((toldResolved!.body as { text: string }).text).toMatch(
      /^Resolved “.+” — by Slack user @ana\.oncall \(U0VIGIL1\)/,
    );

    // Pressing Acknowledge after the resolve (a new person on an old message): told it is over.
    const late = await post(
      channelId,
      formBody(
        pressPayload(responder.url, 'vigil_acknowledge', b.vigil_acknowledge.value, {
          ...ANA,
          id: 'U0VIGIL3',
          username: 'cleo',
          name: 'cleo',
        }),
      ),
    );
    expect(late.status).toBe(200);
    const [, , , toldLate] = await responder.waitFor(4, 5_000);
    expect((toldLate!.body as { text: string }).text).toBe(late.body.text);
    expect(late.body.text).toMatch(/^Already (done|resolved)/);
    expect(responder.violations()).toEqual([]);
  }, 90_000);

  it('refuses a tampered body, a wrong signature and a timestamp 6 minutes old with 401, changing nothing', async () => {
    const { responder, channelId, alertId, message } = await raiseAlert(org.services.refusals, {
      signing_secret: SIGNING_SECRET,
    });
    const b = buttons(message);
    const press = formBody(pressPayload(responder.url, 'vigil_acknowledge', b.vigil_acknowledge.value));

    const tampered = formBody(
      pressPayload(responder.url, 'vigil_acknowledge', b.vigil_acknowledge.value, {
        ...ANA,
        id: 'U0MALLORY',
        username: 'mallory',
        name: 'mallory',
      }),
    );
    const attempts = [
      await post(channelId, tampered, { signed: press }),
      await post(channelId, press, { signature: sign(press, nowSeconds(), 'not-the-signing-secret-0000') }),
      await post(channelId, press, { timestamp: String(Math.floor(Date.now() / 1000) - 6 * 60) }),
      await api.request('POST', `/v1/integrations/slack/interactions/${channelId}`, {
        rawBody: press,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.title).toBe('unauthenticated');
    }
    expect(attempts[2]!.body.detail).toContain('5 minutes');
    expect(await alertNow(alertId)).toMatchObject({ state: 'triggered', acknowledged_by: null });
    // An unsigned request makes Vigil post nowhere: its response_url is never called.
    expect(responder.requests).toEqual([]);

    // Nothing was used up: the same button, signed as Slack signs it, still works.
    const ok = await post(channelId, press);
    expect(ok.status).toBe(200);
    expect(await alertNow(alertId)).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: 'Slack user @ana.oncall (U0VIGIL1) in channel “ops-room”',
    });
    expect((await responder.waitFor(1, 5_000)).length).toBe(1);
  }, 90_000);

  it('keeps link buttons for a Slack channel without a signing secret, whose interactions URL answers 404, as an unknown channel does', async () => {
    const { responder, channelId, alertId, message } = await raiseAlert(org.services.plain, {});
    const b = buttons(message);
    expect(b.vigil_acknowledge).toMatchObject({ url: expect.stringContaining('/v1/alert-actions/') });
    expect(b.vigil_acknowledge.value).toBeUndefined();
    expect(b.vigil_resolve).toMatchObject({ url: expect.stringContaining('/v1/alert-actions/') });
    const token = b.vigil_acknowledge.url.split('/').at(-1);
    const press = formBody(pressPayload(responder.url, 'vigil_acknowledge', token));
    const noSecret = await post(channelId, press);
    expect(noSecret.status).toBe(404);
    expect(noSecret.body.title).toBe('not_found');
    const unknown = await post('00000000-0000-4000-8000-000000000000', press);
    expect(unknown.status).toBe(404);
    expect((await alertNow(alertId)).state).toBe('triggered');

    // The Slack app is set up later: a press of the message's link button (Slack reports it with no
    // value) is acknowledged and left to the one-click page the browser opens.
    expect(
      (await org.call('PATCH', `/v1/notification-channels/${channelId}`, { signing_secret: SIGNING_SECRET })).status,
    ).toBe(200);
    const linkPress = await post(channelId, formBody(pressPayload(responder.url, 'vigil_acknowledge', undefined)));
    expect(linkPress.status).toBe(200);
    expect(linkPress.body).toEqual({});
    expect((await alertNow(alertId)).state).toBe('triggered');
    const page = await api.request('POST', `/v1/alert-actions/${token}`);
    expect(page.status).toBe(200);
    expect(await alertNow(alertId)).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: 'one-click link in slack channel “ops-room”',
    });
    // Nothing to tell in Slack about a press Vigil left to the browser, nor about a refused one.
    expect(responder.requests).toEqual([]);
  }, 90_000);

  it('answers 200 and does nothing for a press Vigil does not act on: the Open alert link, or a button of another channel', async () => {
    const { responder, channelId, alertId, message } = await raiseAlert(org.services.ignored, {
      signing_secret: SIGNING_SECRET,
    });
    const open = await post(channelId, formBody(pressPayload(responder.url, 'vigil_open', undefined)));
    expect(open.status).toBe(200);
    expect(open.body).toEqual({});
    // The Resolve token under the Acknowledge action_id: a button this message does not have.
    const swapped = await post(
      channelId,
      formBody(pressPayload(responder.url, 'vigil_acknowledge', buttons(message).vigil_resolve.value)),
    );
    expect(swapped.status).toBe(200);
    expect(swapped.body.text).toContain('does not belong');
    expect((await alertNow(alertId)).state).toBe('triggered');
    // The refused press is explained to the presser; the Open alert press told nothing.
    const [refused] = await responder.waitFor(1, 5_000);
    expect(refused!.body).toEqual({ response_type: 'ephemeral', replace_original: false, text: swapped.body.text });
    // A fixed wait that proves a negative: no follow-up for the Open alert press arrives after the refusal's.
    await new Promise((r) => setTimeout(r, 300));
    expect(responder.requests.length).toBe(1);
  }, 90_000);

  it('acts even when the follow-up cannot be delivered: a response_url that refuses, is unreachable or is not public is logged, and Slack still gets its 200 at once', async () => {
    const { channelId, alertId, message } = await raiseAlert(org.services.unheard, { signing_secret: SIGNING_SECRET });
    const b = buttons(message);
    // Slack's answer to a message it will not take (here: a 500 to the first one).
    const failing = await startVendorReceiver('slack_response_url', { failFirst: 1 });
    // An answer Slack would be slow with: the 200 does not wait for it.
    const slow = await startVendorReceiver('slack_response_url', { delayMs: 2_500 });
    receivers.push(failing, slow);

    const acked = await post(
      channelId,
      formBody(pressPayload(slow.url, 'vigil_acknowledge', b.vigil_acknowledge.value)),
    );
    const answeredAt = Date.now();
    expect(acked.status).toBe(200);
    expect(await alertNow(alertId)).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: 'Slack user @ana.oncall (U0VIGIL1) in channel “ops-room”',
    });
    const [followUp] = await slow.waitFor(1, 5_000);
    expect(followUp!.violations).toEqual([]);
    // Ordering, not a time limit: Slack had its 200 before the slow response_url answered (2.5 s after the follow-up reached it).
    expect(answeredAt).toBeLessThan(followUp!.at + 2_500);

    for (const url of [
      failing.url,
      'http://127.0.0.1:9/actions/T0VIGIL01/1/closed',
      'http://10.255.255.1/actions/T0VIGIL01/1/private',
    ]) {
      const again = await post(channelId, formBody(pressPayload(url, 'vigil_acknowledge', b.vigil_acknowledge.value)));
      expect([url, again.status]).toEqual([url, 200]);
    }
    await failing.waitFor(1, 5_000);
    const warnings = await eventually(async () => {
      const found = logLines
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'the Slack follow-up to a button press was not delivered');
      expect(found.length).toBe(3);
      return found;
    }, 10_000);
    expect(warnings.map((w) => [w.status_code, w.error === null ? null : String(w.error).split(':')[0]])).toEqual(
      expect.arrayContaining([
        [500, null],
        [null, 'ECONNREFUSED'],
        [null, 'target_not_public'],
      ]),
    );
    // The URL is a credential of Slack's: only its host is logged.
    expect(logLines.join('\n')).not.toContain('/actions/T0VIGIL01/1/closed');
    const resolved = await post(
      channelId,
      formBody(pressPayload('http://127.0.0.1:9/x', 'vigil_resolve', b.vigil_resolve.value)),
    );
    expect(resolved.status).toBe(200);
    expect((await alertNow(alertId)).state).toBe('resolved');
  }, 90_000);
});
