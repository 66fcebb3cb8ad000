import type { AlertMessage } from '../../src/domain/alerting/alert-message';
import { channelRequest } from '../../src/domain/alerting/channel-formats';
import { slackSignature, verifySlackRequest } from '../../src/crypto/slack-signing';

const ALERT_ID = '0b7e6c1e-5a8f-4f43-9a57-2f7cbb1d9e10';
const TOKEN = 'A'.repeat(94);
const msg: AlertMessage = {
  action: 'trigger',
  alertId: ALERT_ID,
  dedupKey: `vigil-${ALERT_ID}`,
  title: 'checkout is unhealthy',
  summary: 'down',
  severity: 'critical',
  status: 'unhealthy',
  subject: { kind: 'service', id: 'svc', name: 'checkout' },
  metric: null,
  level: 1,
  organization: { id: 'org', name: 'Acme' },
  occurredAt: '2026-03-02T13:08:45.828Z',
  actor: null,
  links: {
    alert: `https://vigil.example.com/console/alerts/${ALERT_ID}`,
    acknowledge: `https://vigil.example.com/v1/alert-actions/${TOKEN}`,
    resolve: `https://vigil.example.com/v1/alert-actions/${TOKEN.replace(/A$/, 'B')}`,
  },
};

const buttons = (body: string) =>
  (JSON.parse(body).blocks as any[]).find((b) => b.type === 'actions').elements as any[];

describe('Slack buttons', () => {
  it('are interactive (action_id, value = the one-click token, no url) when the channel has a signing secret, Open alert staying a link; links without one', () => {
    const els = buttons(
      channelRequest(
        'slack',
        { url: 'https://hooks.slack.com/services/T/B/x', signing_secret: 'secret-of-the-slack-app' },
        msg,
      ).body,
    );
    expect(els).toEqual([
      expect.objectContaining({ action_id: 'vigil_open', url: msg.links.alert }),
      { type: 'button', action_id: 'vigil_acknowledge', text: expect.anything(), value: TOKEN, style: 'primary' },
      { type: 'button', action_id: 'vigil_resolve', text: expect.anything(), value: TOKEN.replace(/A$/, 'B') },
    ]);
    // Without it, links as before.
    const links = buttons(channelRequest('slack', { url: 'https://hooks.slack.com/services/T/B/x' }, msg).body);
    expect(links.map((e) => [e.action_id, e.url, e.value])).toEqual([
      ['vigil_open', msg.links.alert, undefined],
      ['vigil_acknowledge', msg.links.acknowledge, undefined],
      ['vigil_resolve', msg.links.resolve, undefined],
    ]);
  });
});

describe('Slack request signatures (v0)', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = 'payload=%7B%22type%22%3A%22block_actions%22%7D';
  const now = 1_733_000_000_000;
  const ts = String(now / 1000);

  it('accepts v0=HMAC-SHA256(secret, "v0:<timestamp>:<body>") in hex within 5 minutes', () => {
    expect(slackSignature(secret, ts, body)).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(verifySlackRequest(secret, ts, slackSignature(secret, ts, body), body, now)).toEqual({ ok: true });
    expect(verifySlackRequest(secret, ts, slackSignature(secret, ts, body), body, now + 299_000)).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, a stale or future timestamp and missing headers', () => {
    const sig = slackSignature(secret, ts, body);
    expect(verifySlackRequest(secret, ts, sig, `${body}x`, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySlackRequest('another-secret-entirely', ts, sig, body, now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifySlackRequest(secret, ts, sig.slice(0, -1), body, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySlackRequest(secret, ts, sig, body, now + 301_000)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySlackRequest(secret, ts, sig, body, now - 301_000)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySlackRequest(secret, undefined, sig, body, now)).toEqual({ ok: false, reason: 'missing' });
    expect(verifySlackRequest(secret, ts, undefined, body, now)).toEqual({ ok: false, reason: 'missing' });
  });
});
