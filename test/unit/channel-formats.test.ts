import { request } from 'undici';
import type { AlertAction, AlertMessage, ChannelRequest } from '../../src/domain/alerting/alert-message';
import {
  ChannelDestinationError,
  channelRequest,
  emailMessage,
  escapeMrkdwn,
  opsgeniePriority,
  pagerdutySeverity,
  SLACK_LIMITS,
  slackRequest,
  type ChannelDestination,
  type VendorChannelType,
} from '../../src/domain/alerting/channel-formats';
import { fit } from '../../src/domain/alerting/channel-formats/message-text';
import { VENDOR_CHANNEL_TYPES } from '../../src/domain/alerting/channel-types';
import { startVendorReceiver, type VendorKind, type VendorReceiver } from '../support/vendor-receivers';

const ACTIONS: AlertAction[] = ['trigger', 'escalate', 'acknowledge', 'resolve', 'test'];
const VENDORS: VendorKind[] = [...VENDOR_CHANNEL_TYPES];
const ROUTING_KEY = 'R015ABCDEF0123456789ABCDEF01234X';
const API_KEY = '3f1c2a8e-8a4b-4e62-9d7e-0c5b2a1f9e77';
const ALERT_ID = '0b7e6c1e-5a8f-4f43-9a57-2f7cbb1d9e10';

function message(action: AlertAction, over: Partial<AlertMessage> = {}): AlertMessage {
  return {
    action,
    alertId: ALERT_ID,
    dedupKey: `vigil-${ALERT_ID}`,
    title: 'checkout is unhealthy',
    summary: 'p95 latency 1834 ms is above 1500 ms for 5 minutes',
    severity: 'critical',
    status: 'unhealthy',
    subject: { kind: 'service', id: 'svc_123', name: 'checkout' },
    metric: { name: 'p95 latency', value: 1834.25, unit: 'ms', reason: 'above 1500 ms for 5 minutes' },
    level: action === 'escalate' ? 2 : 1,
    organization: { id: 'org_1', name: 'Acme Shop' },
    occurredAt: '2026-03-02T13:08:45.828Z',
    actor: action === 'acknowledge' || action === 'resolve' ? 'dana@acme.example' : null,
    links: {
      alert: `https://vigil.example.com/alerts/${ALERT_ID}`,
      acknowledge: `https://vigil.example.com/v1/alert-links/acknowledge?alert=${ALERT_ID}&sig=abc123`,
      resolve: `https://vigil.example.com/v1/alert-links/resolve?alert=${ALERT_ID}&sig=def456`,
    },
    ...over,
  };
}

const SPECIALS = `<b>bold</b> & <!channel> @everyone *star* _under_ ~tilde~ \`code\` [x](https://evil.example) "q" 'a' \r\nnew line 😀`;
/** Very long names full of markup, and no metric. */
function nasty(action: AlertAction): AlertMessage {
  return message(action, {
    title: `${SPECIALS} ${'checkout-service-'.repeat(300)}`,
    summary: `${SPECIALS} ${'x&<>'.repeat(3000)}`,
    subject: { kind: 'service', id: 'svc_<1>', name: `${SPECIALS}${'n'.repeat(5000)}` },
    organization: { id: 'org_1', name: `${SPECIALS}${'o'.repeat(3000)}` },
    status: 'no_data',
    metric: null,
    actor: action === 'acknowledge' || action === 'resolve' ? `${SPECIALS}${'a'.repeat(500)}` : null,
  });
}
/** A long metric name and reason, a null value, a degraded subject. */
function longMetric(action: AlertAction): AlertMessage {
  return message(action, {
    status: 'degraded',
    severity: 'warning',
    metric: { name: `latency ${'m'.repeat(3000)}`, value: null, unit: null, reason: `${SPECIALS}${'r'.repeat(20000)}` },
  });
}

async function send(req: ChannelRequest): Promise<{ status: number; text: string }> {
  const res = await request(req.url, { method: req.method, headers: req.headers, body: req.body });
  return { status: res.statusCode, text: await res.body.text() };
}

const SUCCESS: Record<VendorKind, number> = { slack: 200, teams: 202, discord: 204, pagerduty: 202, opsgenie: 202 };

function destinationFor(kind: VendorKind, receiver: VendorReceiver): ChannelDestination {
  if (kind === 'pagerduty') return { routing_key: ROUTING_KEY };
  if (kind === 'opsgenie') return { api_key: API_KEY, region: 'us' };
  return { url: receiver.url };
}
const endpointsFor = (receiver: VendorReceiver) => ({
  pagerdutyEventsUrl: receiver.url,
  opsgenieApiUrl: receiver.url,
  opsgenieEuApiUrl: 'http://127.0.0.1:9/never',
});

describe.each(VENDORS)('%s channel against its receiver', (kind) => {
  let receiver: VendorReceiver;
  beforeEach(async () => {
    receiver = await startVendorReceiver(kind, { apiKey: kind === 'opsgenie' ? API_KEY : undefined });
  });
  afterEach(() => receiver.close());

  it.each([
    ['an ordinary alert', message],
    ['very long names, markup and no metric', nasty],
    ['a long metric reason and no value', longMetric],
  ] as const)('accepts every action for %s', async (_name, build) => {
    for (const action of ACTIONS) {
      const res = await send(
        channelRequest(
          kind as VendorChannelType,
          destinationFor(kind, receiver),
          build(action),
          endpointsFor(receiver),
        ),
      );
      expect({ action, status: res.status }).toEqual({ action, status: SUCCESS[kind] });
    }
    expect(receiver.violations()).toEqual([]);
    expect(receiver.requests).toHaveLength(ACTIONS.length);
    for (const r of receiver.requests) expect(r.headers['content-type']).toBe('application/json');
  });
});

describe('every vendor message', () => {
  it.each(VENDORS)('%s shows status, subject, metric value and reason, the time and the three links', (kind) => {
    const msg = message('trigger');
    const body = channelRequest(
      kind,
      { url: 'https://hooks.example.com/x', routing_key: ROUTING_KEY, api_key: API_KEY },
      msg,
    ).body;
    const time = {
      slack: '<!date^1772456925^',
      teams: '{{DATE(2026-03-02T13:08:45Z, SHORT)}}',
      discord: '"timestamp":"2026-03-02T13:08:45.828Z"',
      pagerduty: '"timestamp":"2026-03-02T13:08:45Z"',
      opsgenie: '2026-03-02 13:08:45 UTC',
    }[kind];
    for (const part of [
      'unhealthy',
      'checkout',
      '1834.25 ms',
      'above 1500 ms for 5 minutes',
      time,
      msg.links.alert,
      msg.links.acknowledge as string,
      msg.links.resolve as string,
    ])
      expect(body).toContain(part);
  });
});

describe('PagerDuty events', () => {
  it('goes to <base>/v2/enqueue, or to a pasted enqueue URL as it is', async () => {
    const pd = await startVendorReceiver('pagerduty');
    try {
      for (const base of [pd.url, `${pd.url}/`, `${pd.url}/v2/enqueue`, `${pd.url}/v2/enqueue/`]) {
        const res = await send(
          channelRequest('pagerduty', { routing_key: ROUTING_KEY }, message('trigger'), {
            pagerdutyEventsUrl: base,
            opsgenieApiUrl: '',
            opsgenieEuApiUrl: '',
          }),
        );
        expect([base, res.status]).toEqual([base, 202]);
      }
      expect(pd.requests.map((r) => r.path)).toEqual(Array(4).fill('/v2/enqueue'));
    } finally {
      await pd.close();
    }
  });

  it('trigger, acknowledge and resolve one alert under one dedup_key; only trigger carries payload and links', async () => {
    const pd = await startVendorReceiver('pagerduty');
    try {
      for (const action of ['trigger', 'escalate', 'acknowledge', 'resolve'] as const) {
        const res = await send(
          channelRequest('pagerduty', { routing_key: ROUTING_KEY }, message(action), {
            pagerdutyEventsUrl: `${pd.url}/`,
            opsgenieApiUrl: '',
            opsgenieEuApiUrl: '',
          }),
        );
        expect(JSON.parse(res.text)).toEqual({
          status: 'success',
          message: 'Event processed',
          dedup_key: `vigil-${ALERT_ID}`,
        });
      }
      const bodies = pd.requests.map((r) => r.body as Record<string, unknown>);
      expect(pd.requests.map((r) => r.path)).toEqual(Array(4).fill('/v2/enqueue'));
      expect(bodies.map((b) => b.event_action)).toEqual(['trigger', 'trigger', 'acknowledge', 'resolve']);
      expect(new Set(bodies.map((b) => b.dedup_key))).toEqual(new Set([`vigil-${ALERT_ID}`]));
      expect(bodies[2]).toEqual({
        routing_key: ROUTING_KEY,
        event_action: 'acknowledge',
        dedup_key: `vigil-${ALERT_ID}`,
      });
      expect(bodies[0]).toMatchObject({
        client: 'Vigil',
        client_url: `https://vigil.example.com/alerts/${ALERT_ID}`,
        payload: {
          source: 'checkout',
          severity: 'critical',
          timestamp: '2026-03-02T13:08:45Z',
          component: 'p95 latency',
          class: 'unhealthy',
          group: 'Acme Shop',
        },
      });
      expect((bodies[0]?.links as Array<{ href: string }>).map((l) => l.href)).toEqual([
        message('trigger').links.alert,
        message('trigger').links.acknowledge,
        message('trigger').links.resolve,
      ]);
      expect(pd.violations()).toEqual([]);
    } finally {
      await pd.close();
    }
  });

  it('maps severity from the rule, one step down for a degraded subject, info for a test', () => {
    const sev = (over: Partial<AlertMessage>, action: AlertAction = 'trigger') =>
      pagerdutySeverity(message(action, over));
    expect(sev({ severity: 'critical', status: 'unhealthy' })).toBe('critical');
    expect(sev({ severity: 'critical', status: 'no_data' })).toBe('critical');
    expect(sev({ severity: 'critical', status: 'offline' })).toBe('critical');
    expect(sev({ severity: 'critical', status: 'degraded' })).toBe('error');
    expect(sev({ severity: 'warning', status: 'unhealthy' })).toBe('warning');
    expect(sev({ severity: 'info', status: 'burning' })).toBe('info');
    expect(sev({ severity: 'critical' }, 'test')).toBe('info');
  });
});

describe('Opsgenie alerts', () => {
  it('creates with the alias, acknowledges and closes by it, on the EU endpoint when the channel says eu', async () => {
    const eu = await startVendorReceiver('opsgenie', { apiKey: API_KEY });
    try {
      const endpoints = {
        pagerdutyEventsUrl: '',
        opsgenieApiUrl: 'http://127.0.0.1:9/us-never',
        opsgenieEuApiUrl: eu.url,
      };
      for (const action of ['trigger', 'escalate', 'acknowledge', 'resolve'] as const) {
        const res = await send(
          channelRequest('opsgenie', { api_key: API_KEY, region: 'eu' }, message(action), endpoints),
        );
        expect(JSON.parse(res.text)).toMatchObject({
          result: 'Request will be processed',
          requestId: expect.any(String),
        });
      }
      const alias = encodeURIComponent(`vigil-${ALERT_ID}`);
      expect(eu.requests.map((r) => r.path)).toEqual([
        '/v2/alerts',
        '/v2/alerts',
        `/v2/alerts/${alias}/acknowledge?identifierType=alias`,
        `/v2/alerts/${alias}/close?identifierType=alias`,
      ]);
      expect(eu.requests.every((r) => r.headers.authorization === `GenieKey ${API_KEY}`)).toBe(true);
      const [create, escalate, ack] = eu.requests.map((r) => r.body as Record<string, unknown>);
      expect(create).toMatchObject({
        message: 'checkout is unhealthy',
        alias: `vigil-${ALERT_ID}`,
        priority: 'P1',
        source: 'Vigil',
        entity: 'checkout',
      });
      expect(escalate).toMatchObject({ alias: `vigil-${ALERT_ID}`, note: 'Escalated to level 2' });
      expect(ack).toEqual({
        source: 'Vigil',
        user: 'dana@acme.example',
        note: 'Acknowledged in Vigil by dana@acme.example',
      });
      expect(eu.violations()).toEqual([]);
    } finally {
      await eu.close();
    }
  });

  it('maps priority: critical P1, degraded critical P2, warning P3, info P5, test P5', () => {
    expect(opsgeniePriority(message('trigger'))).toBe('P1');
    expect(opsgeniePriority(message('trigger', { status: 'degraded' }))).toBe('P2');
    expect(opsgeniePriority(message('trigger', { severity: 'warning' }))).toBe('P3');
    expect(opsgeniePriority(message('trigger', { severity: 'info' }))).toBe('P5');
    expect(opsgeniePriority(message('test'))).toBe('P5');
  });
});

describe('Slack message', () => {
  it('keeps every Block Kit limit and escapes mrkdwn for hostile names', () => {
    const body = JSON.parse(slackRequest('https://hooks.slack.com/services/x', nasty('trigger')).body) as {
      text: string;
      blocks: Array<Record<string, any>>;
    };
    const [header, section, context, actions] = body.blocks;
    expect(header?.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(header?.text.text.endsWith('…')).toBe(true);
    expect(section?.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(section?.fields.every((f: { text: string }) => f.text.length <= SLACK_LIMITS.fieldText)).toBe(true);
    expect(section?.text.text).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &lt;!channel&gt;');
    // mrkdwn parses <!channel>; the header is plain_text, which Slack shows literally.
    const mrkdwnTexts = [
      body.text,
      section?.text.text,
      ...(section?.fields ?? []).map((f: { text: string }) => f.text),
      context?.elements[0].text,
    ];
    for (const t of mrkdwnTexts) expect(t).not.toContain('<!channel>');
    expect(header?.text.type).toBe('plain_text');
    expect(context?.elements[0].text).toMatch(
      /^Occurred <!date\^1772456925\^\{date_short_pretty\} at \{time_secs\}\|2026-03-02 13:08:45 UTC> · Vigil · /,
    );
    expect(actions?.elements.map((e: { text: { text: string } }) => e.text.text)).toEqual([
      'Open alert',
      'Acknowledge',
      'Resolve',
    ]);
  });

  it('offers no acknowledge button once acknowledged and only the alert link once resolved', () => {
    const buttons = (action: AlertAction) =>
      (
        JSON.parse(slackRequest('https://h', message(action)).body).blocks.at(-1).elements as Array<{
          action_id: string;
        }>
      ).map((e) => e.action_id);
    expect(buttons('acknowledge')).toEqual(['vigil_open', 'vigil_resolve']);
    expect(buttons('resolve')).toEqual(['vigil_open']);
  });
});

describe('truncation', () => {
  it('never splits a surrogate pair or an escape sequence and always fits', () => {
    expect(fit('😀😀😀', 4)).toBe('😀…');
    expect(fit('&&&&', 7, escapeMrkdwn)).toBe('&amp;…');
    expect(fit('short', 5)).toBe('short');
  });
});

describe('email message', () => {
  it('escapes every name, keeps CR/LF out of the subject and carries the one-click acknowledge link', () => {
    const msg = nasty('trigger');
    const email = emailMessage(msg);
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject.startsWith('[Vigil] Triggered: <b>bold</b>')).toBe(true);
    expect(email.html).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &lt;!channel&gt;');
    expect(email.html).toContain('&quot;q&quot; &#39;a&#39;');
    expect(email.html).not.toContain('<b>');
    expect(email.html).toContain(
      `href="https://vigil.example.com/v1/alert-links/acknowledge?alert=${ALERT_ID}&amp;sig=abc123"`,
    );
    expect(email.text).toContain(`Acknowledge (one click): ${msg.links.acknowledge}`);
    expect(email.text).toContain(`Open alert: ${msg.links.alert}`);
    // No external assets: the only URLs are the alert's own links.
    expect(email.html).not.toMatch(/<img|<link|<script|src=|url\(/i);
    expect(email.html.match(/href="([^"]+)"/g)).toHaveLength(3);
  });

  it('shows the metric value and reason, the time, and no acknowledge link after acknowledgement', () => {
    const email = emailMessage(message('acknowledge'));
    expect(email.text).toContain('Metric: p95 latency: 1834.25 ms');
    expect(email.text).toContain('Reason: above 1500 ms for 5 minutes');
    expect(email.text).toContain('Occurred: 2026-03-02 13:08:45 UTC');
    expect(email.text).toContain('Acknowledged by: dana@acme.example');
    expect(email.text).not.toContain('Acknowledge (one click)');
    expect(email.html).not.toContain('/acknowledge?');
  });
});

describe('channelRequest', () => {
  it('refuses a destination without what its type needs', () => {
    expect(() => channelRequest('pagerduty', { url: 'https://x' }, message('trigger'))).toThrow(
      ChannelDestinationError,
    );
    expect(() => channelRequest('slack', {}, message('trigger'))).toThrow('a slack channel needs url');
  });

  it('defaults to the vendors’ real hosts', () => {
    expect(channelRequest('pagerduty', { routing_key: ROUTING_KEY }, message('trigger')).url).toBe(
      'https://events.pagerduty.com/v2/enqueue',
    );
    expect(channelRequest('opsgenie', { api_key: API_KEY, region: 'eu' }, message('trigger')).url).toBe(
      'https://api.eu.opsgenie.com/v2/alerts',
    );
    expect(channelRequest('opsgenie', { api_key: API_KEY }, message('resolve')).url).toBe(
      `https://api.opsgenie.com/v2/alerts/vigil-${ALERT_ID}/close?identifierType=alias`,
    );
  });
});

/** Raw requests the formatters would never build: the receivers must refuse them. */
describe('receivers refuse what the vendor refuses', () => {
  const post = (url: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    send({ method: 'POST', url, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

  async function withReceiver(kind: VendorKind, run: (r: VendorReceiver) => Promise<void>, options = {}) {
    const r = await startVendorReceiver(kind, options);
    try {
      await run(r);
    } finally {
      await r.close();
    }
  }

  it('slack: no text, an oversized header, raw < in mrkdwn, form encoding, a wrong path', () =>
    withReceiver('slack', async (r) => {
      expect(await post(r.url, { username: 'x' })).toEqual({ status: 400, text: 'no_text' });
      expect(
        await post(r.url, {
          text: 'x',
          blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
        }),
      ).toEqual({ status: 400, text: 'invalid_blocks' });
      expect((await post(r.url, { text: 'a <b> & c' })).status).toBe(400);
      expect(
        (
          await post(r.url, {
            text: 'x',
            blocks: [{ type: 'section', fields: Array(11).fill({ type: 'mrkdwn', text: 'f' }) }],
          })
        ).text,
      ).toBe('invalid_blocks');
      expect(
        (
          await post(r.url, {
            text: 'x',
            blocks: [
              {
                type: 'actions',
                elements: [{ type: 'button', text: { type: 'plain_text', text: 'b'.repeat(76) }, url: 'https://x' }],
              },
            ],
          })
        ).status,
      ).toBe(400);
      expect(
        (await post(r.url, 'payload=%7B%7D', { 'content-type': 'application/x-www-form-urlencoded' })).status,
      ).toBe(400);
      expect(await post(`${r.url}x`, { text: 'x' })).toEqual({ status: 404, text: 'no_service' });
      const v = r.violations().join('\n');
      for (const s of [
        'no_text',
        'blocks[0].text.text has 151 characters (max 150)',
        'unescaped < or >',
        'unescaped &',
        'blocks[0].fields has 11 items (max 10)',
        'text.text has 76 characters (max 75)',
        'content-type must be application/json',
        'is not the webhook',
      ])
        expect(v).toContain(s);
      expect(r.requests).toHaveLength(7);
    }));

  it('teams: no attachments, a non-adaptive attachment, Action.Submit, an oversized message', () =>
    withReceiver('teams', async (r) => {
      expect((await post(r.url, { type: 'message' })).status).toBe(400);
      expect(
        (
          await post(r.url, {
            type: 'message',
            attachments: [{ contentType: 'application/vnd.microsoft.card.hero', content: {} }],
          })
        ).status,
      ).toBe(400);
      const card = (extra: object) => ({
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text: 'hi' }], ...extra },
          },
        ],
      });
      expect((await post(r.url, card({ actions: [{ type: 'Action.Submit', title: 'ack' }] }))).status).toBe(400);
      expect((await post(r.url, card({ body: [{ type: 'TextBlock', text: 'x'.repeat(30_000) }] }))).status).toBe(400);
      expect((await post(r.url, card({}))).status).toBe(202);
      const v = r.violations().join('\n');
      for (const s of [
        'attachments is required',
        'contentType must be one of',
        'Action.Submit cannot post back',
        'max 28 KB',
      ])
        expect(v).toContain(s);
    }));

  it('discord: an empty message, an embed past 6,000 characters, an empty field value', () =>
    withReceiver('discord', async (r) => {
      expect(JSON.parse((await post(r.url, { content: '' })).text)).toMatchObject({ code: 50006 });
      const big = {
        embeds: [
          {
            title: 't',
            description: 'd'.repeat(4096),
            fields: [
              { name: 'n', value: 'v'.repeat(1024) },
              { name: 'n', value: 'v'.repeat(1024) },
            ],
          },
        ],
      };
      const res = await post(r.url, big);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
      expect((await post(r.url, { embeds: [{ title: 't', fields: [{ name: 'n', value: '' }] }] })).status).toBe(400);
      expect((await post(r.url, { content: 'x'.repeat(2001) })).status).toBe(400);
      const v = r.violations().join('\n');
      for (const s of [
        'empty:',
        'embeds hold 6147 characters (max 6000)',
        'fields[0].value must not be empty',
        'content has 2001 characters (max 2000)',
      ])
        expect(v).toContain(s);
    }));

  it('pagerduty: a short routing key, a trigger without source, an acknowledge without dedup_key, an unknown action', () =>
    withReceiver('pagerduty', async (r) => {
      const url = `${r.url}/v2/enqueue`;
      const bad = await post(url, {
        routing_key: 'short',
        event_action: 'trigger',
        payload: { summary: 's', source: 'x', severity: 'critical' },
      });
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text)).toEqual({
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: ["Length of 'routing_key' is incorrect (should be 32 characters)"],
      });
      expect(
        (
          await post(url, {
            routing_key: ROUTING_KEY,
            event_action: 'trigger',
            payload: { summary: 's', severity: 'bad' },
          })
        ).status,
      ).toBe(400);
      expect((await post(url, { routing_key: ROUTING_KEY, event_action: 'acknowledge' })).status).toBe(400);
      expect((await post(url, { routing_key: ROUTING_KEY, event_action: 'snooze', dedup_key: 'k' })).status).toBe(400);
      expect(
        (
          await post(url, {
            routing_key: ROUTING_KEY,
            event_action: 'trigger',
            dedup_key: 'k'.repeat(256),
            payload: { summary: 's'.repeat(1025), source: 'x', severity: 'info' },
          })
        ).status,
      ).toBe(400);
      const ok = await post(url, {
        routing_key: ROUTING_KEY,
        event_action: 'trigger',
        payload: { summary: 's', source: 'x', severity: 'info' },
      });
      expect(ok.status).toBe(202);
      expect(JSON.parse(ok.text).dedup_key).toMatch(/^[0-9a-f]{32}$/);
      const v = r.violations().join('\n');
      for (const s of [
        'payload.source is required',
        'payload.severity must be one of',
        'dedup_key is required',
        'event_action must be one of',
        'dedup_key has 256 characters (max 255)',
        'payload.summary has 1025 characters (max 1024)',
      ])
        expect(v).toContain(s);
    }));

  it('opsgenie: no GenieKey (401), a wrong key (401), a 131-character message (422), an acknowledge by id (422)', () =>
    withReceiver(
      'opsgenie',
      async (r) => {
        const ok = { message: 'm', alias: 'a' };
        expect((await post(`${r.url}/v2/alerts`, ok)).status).toBe(401);
        expect(
          (
            await post(`${r.url}/v2/alerts`, ok, {
              'content-type': 'application/json',
              authorization: 'GenieKey 00000000-0000-0000-0000-000000000000',
            })
          ).status,
        ).toBe(401);
        const auth = { 'content-type': 'application/json', authorization: `GenieKey ${API_KEY}` };
        const long = await post(`${r.url}/v2/alerts`, { message: 'm'.repeat(131) }, auth);
        expect(long.status).toBe(422);
        expect(JSON.parse(long.text)).toMatchObject({
          message: 'message has 131 characters (max 130)',
          requestId: expect.any(String),
        });
        expect((await post(`${r.url}/v2/alerts`, { alias: 'a' }, auth)).status).toBe(422);
        expect((await post(`${r.url}/v2/alerts/a/acknowledge`, {}, auth)).status).toBe(422);
        expect(
          (
            await post(
              `${r.url}/v2/alerts`,
              { message: 'm', tags: Array(21).fill('t'), details: { k: 'v'.repeat(8000) } },
              auth,
            )
          ).status,
        ).toBe(422);
        expect((await post(`${r.url}/v2/alerts`, ok, auth)).status).toBe(202);
        const v = r.violations().join('\n');
        for (const s of [
          'expected "GenieKey <api key>"',
          'unknown API key',
          'message is required',
          'identifierType must be alias',
          'tags has 21 items (max 20)',
          'details hold 8001 characters (max 8000)',
        ])
          expect(v).toContain(s);
      },
      { apiKey: API_KEY },
    ));

  it.each([
    ['slack', 500],
    ['teams', 502],
    ['discord', 500],
    ['pagerduty', 500],
    ['opsgenie', 503],
  ] as const)(
    '%s answers its 5xx for the first failFirst requests, then accepts; records every one',
    async (kind, failStatus) => {
      const r = await startVendorReceiver(kind, { failFirst: 2, delayMs: 20 });
      try {
        const req = channelRequest(kind, destinationFor(kind, r), message('trigger'), endpointsFor(r));
        const started = Date.now();
        const statuses = [(await send(req)).status, (await send(req)).status, (await send(req)).status];
        expect(Date.now() - started).toBeGreaterThanOrEqual(60);
        expect(statuses).toEqual([failStatus, failStatus, SUCCESS[kind]]);
        expect((await r.waitFor(3)).map((x) => x.status)).toEqual(statuses);
        expect(r.violations()).toEqual([]);
      } finally {
        await r.close();
      }
    },
  );

  it('waitFor rejects, naming what arrived, when too few requests come', async () => {
    const r = await startVendorReceiver('discord');
    try {
      await send(channelRequest('discord', { url: r.url }, message('trigger')));
      await expect(r.waitFor(2, 100)).rejects.toThrow(
        /expected 2 request\(s\) within 100 ms, got 1: \/api\/webhooks\/\S+ → 204/,
      );
    } finally {
      await r.close();
    }
  });
});
