import { randomUUID } from 'node:crypto';
import { signAlertLink, ALERT_LINK_TTL_MS } from '../../src/crypto/alert-action-links';
import { createMailer } from '../../src/infra/mailer';
import { temporalAlertControl, temporalChannelTester } from '../../src/temporal/alert-control';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { testAlertDeps } from '../support/alert-deps';
import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { startVendorReceiver } from '../support/vendor-receivers';
import { testSlackReplies } from '../support/app-deps';

/**
 * Notifications that fail while an alert escalates, on a real worker and Temporal server: a chat
 * answering 500 (once, and for good) and an SMTP server deferring then refusing. Each send is
 * retried with backoff and recorded attempt by attempt; one that fails for good is `failed`, and
 * the escalation goes on: the next level is paged after its delay, not after the retries.
 */

const LINK_KEY = Buffer.alloc(32, 7);
// One escalation "minute" (ALERT_MINUTE_MS): level 1's delay of 2 minutes is 1.2 s here, far
// shorter than the minute a failing send takes to use up its 6 attempts (2, 4, 8, 16, 30 s apart).
const MINUTE_MS = 600;

let h: TemporalHarness;
let api: ApiHarness;
let sink: SmtpSink;
let org: OrgFixture<never, 'flaky' | 'down' | 'expiry'>;

beforeAll(async () => {
  sink = await startSmtpSink();
  const mailer = createMailer({ smtpUrl: sink.url, from: 'Vigil <alerts@vigil.test>', outboxDir: '/nonexistent' });
  h = await startTemporalHarness({
    relay: true,
    location: false,
    alerts: testAlertDeps({ mailer, linkKey: LINK_KEY, minuteMs: MINUTE_MS }),
  });
  api = await startApi({
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    alerts: {
      control: temporalAlertControl(h.temporal),
      tester: temporalChannelTester(h.temporal),
      linkKey: LINK_KEY,
      slackReplies: testSlackReplies(),
    },
  });
  org = await orgWithKeys(api, { services: ['flaky', 'down', 'expiry'] });
}, 240_000);

afterAll(async () => {
  await api?.close();
  await h?.close();
  await sink?.close();
});

async function channel(body: Record<string, unknown>): Promise<string> {
  const res = await org.call('POST', '/v1/notification-channels', {
    name: `${body.type} ${randomUUID().slice(0, 6)}`,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** An alert rule on a new manual metric of `service`, escalating by `levels`; the metric then fails. Answers the open alert. */
async function alertWith(service: string, levels: { delay_minutes: number; targets: unknown[] }[]): Promise<any> {
  const policy = await org.call('POST', '/v1/escalation-policies', {
    name: `policy ${randomUUID().slice(0, 6)}`,
    levels,
    repeat: 0,
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
    name: `rule ${randomUUID().slice(0, 6)}`,
    severity: 'critical',
    kind: 'metric_status',
    subject_id: metric.body.id,
    escalation_policy_id: policy.body.id,
  });
  expect(rule.status).toBe(201);
  expect((await org.call('POST', `/v1/metrics/${metric.body.id}/status`, { status: 'unhealthy' })).status).toBe(200);
  return eventually(async () => {
    const [a] = (await org.call('GET', `/v1/alerts?rule_id=${rule.body.id}`)).body.items;
    expect(a).toBeDefined();
    return a;
  }, 20_000);
}

async function sendsOf(channelId: string): Promise<any[]> {
  const res = await org.call('GET', `/v1/notification-channels/${channelId}/sends`);
  expect(res.status).toBe(200);
  return res.body.items;
}

const mailTo = (address: string) => (m: { to?: unknown }) => JSON.stringify(m.to).includes(address);
const kinds = (a: any): string[] => a.timeline.map((t: any) => t.kind);

describe('alert notifications that fail', () => {
  it('a chat answering 500 once is tried again after the backoff and delivered; both attempts are recorded', async () => {
    const slack = await startVendorReceiver('slack', { failFirst: 1 });
    try {
      const ch = await channel({ type: 'slack', url: slack.url });
      const alert = await alertWith(org.services.flaky, [
        { delay_minutes: 60, targets: [{ type: 'channel', id: ch }] },
      ]);
      const [first, second] = await slack.waitFor(2, 20_000);
      expect([first!.status, second!.status]).toEqual([500, 200]);
      // The backoff is the feature here: the second attempt waits its 2 s (a lower bound, never an upper one).
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_500);
      const [send] = await eventually(async () => {
        const sends = await sendsOf(ch);
        expect(sends[0]?.state).toBe('succeeded');
        return sends;
      }, 10_000);
      expect(send).toMatchObject({
        alert_id: alert.id,
        action: 'trigger',
        level: 1,
        state: 'succeeded',
        attempt_count: 2,
        last_status_code: 200,
        last_error: null,
      });
      expect(send.attempts.map((a: any) => [a.number, a.status_code, a.succeeded])).toEqual([
        [1, 500, false],
        [2, 200, true],
      ]);
      expect(slack.violations()).toEqual([]);
    } finally {
      await slack.close();
    }
  }, 60_000);

  it('a chat down for good and a mailbox deferred then refused fail as sends; the escalation goes on and pages level 2 on time', async () => {
    const slack = await startVendorReceiver('slack', { failFirst: 1_000 });
    const refused = `refused-${randomUUID().slice(0, 6)}@example.test`;
    const backup = `backup-${randomUUID().slice(0, 6)}@example.test`;
    // 451 (try later) to the first attempt, 550 (no such mailbox) to the second.
    sink.deferRecipients.set(refused, 1);
    sink.rejectRecipients.add(refused);
    try {
      const down = await channel({ type: 'slack', url: slack.url });
      const mailbox = await channel({ type: 'email', addresses: [refused] });
      const fallback = await channel({ type: 'email', addresses: [backup] });
      const alert = await alertWith(org.services.down, [
        {
          delay_minutes: 2,
          targets: [
            { type: 'channel', id: down },
            { type: 'channel', id: mailbox },
          ],
        },
        { delay_minutes: 60, targets: [{ type: 'channel', id: fallback }] },
      ]);

      // The mailbox: 451 is tried again, 550 is final.
      const [mail] = await eventually(async () => {
        const sends = await sendsOf(mailbox);
        expect(sends[0]?.state).toBe('failed');
        return sends;
      }, 20_000);
      expect(mail).toMatchObject({
        alert_id: alert.id,
        action: 'trigger',
        level: 1,
        attempt_count: 2,
        last_status_code: 550,
        last_error: expect.stringContaining('Recipient address rejected'),
      });
      expect(mail.attempts.map((a: any) => [a.number, a.status_code, a.succeeded])).toEqual([
        [1, 451, false],
        [2, 550, false],
      ]);

      // Level 2 is paged after level 1's delay while Slack's send is still being retried: a
      // failing channel does not hold the escalation for the minute its retries take.
      await sink.waitFor(mailTo(backup), 20_000);
      expect(slack.requests.length).toBeLessThan(6);
      expect((await sendsOf(down))[0]).toMatchObject({ action: 'trigger', state: 'pending' });
      const escalated = (await org.call('GET', `/v1/alerts/${alert.id}`)).body;
      expect(escalated).toMatchObject({ state: 'triggered', level: 2 });
      expect(kinds(escalated)).toEqual(['triggered', 'notified_level', 'escalated']);

      // Slack's 6 attempts (2, 4, 8, 16 and 30 s apart), then the send is failed for good.
      const [chat] = await eventually(
        async () => {
          const sends = await sendsOf(down);
          expect(sends[0]?.state).toBe('failed');
          return sends;
        },
        90_000,
        1_000,
      );
      expect(chat).toMatchObject({
        alert_id: alert.id,
        action: 'trigger',
        level: 1,
        attempt_count: 6,
        last_status_code: 500,
        last_error: 'HTTP 500',
      });
      expect(chat.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500, 500, 500, 500]);
      expect(slack.requests).toHaveLength(6);
      // The backoff doubles from 2 s to at most 30 s: each wait is at least its step (lower bounds only, which load cannot break).
      const gaps = slack.requests.slice(1).map((r, i) => r.at - slack.requests[i]!.at);
      expect(gaps.map((g, i) => g >= [2_000, 4_000, 8_000, 16_000, 30_000][i]! - 500)).toEqual([
        true,
        true,
        true,
        true,
        true,
      ]);

      // Giving up on Slack did not end the alert: it is still escalated, and resolving it tells
      // only the level that was told (the fallback), never the channels that failed.
      expect((await org.call('GET', `/v1/alerts/${alert.id}`)).body).toMatchObject({ state: 'triggered', level: 2 });
      expect((await org.call('POST', `/v1/alerts/${alert.id}/resolve`, {})).status).toBe(200);
      await sink.waitFor((m) => mailTo(backup)(m) && String(m.subject).includes('Resolved'), 15_000);
      expect(slack.requests).toHaveLength(6);
      expect(sink.messages.some(mailTo(refused))).toBe(false);
      expect((await sendsOf(mailbox)).map((s) => s.action)).toEqual(['trigger']);
      expect((await sendsOf(fallback)).map((s) => [s.action, s.state]).sort()).toEqual([
        ['escalate', 'succeeded'],
        ['resolve', 'succeeded'],
      ]);
      expect(slack.violations()).toEqual([]);
    } finally {
      sink.rejectRecipients.delete(refused);
      await slack.close();
    }
  }, 150_000);

  it('a one-click link older than 24 hours is refused as expired and changes nothing', async () => {
    const ch = await channel({ type: 'email', addresses: ['expiry@example.test'] });
    const alert = await alertWith(org.services.expiry, [{ delay_minutes: 60, targets: [{ type: 'channel', id: ch }] }]);
    await sink.waitFor(mailTo('expiry@example.test'), 15_000);
    // The link the notification would have carried had it been sent a day and a minute ago, signed with the installation's key.
    const token = signAlertLink(
      LINK_KEY,
      alert.id,
      'acknowledge',
      { kind: 'channel', id: ch },
      Date.now() - ALERT_LINK_TTL_MS - 60_000,
    );
    const view = await api.request('GET', `/v1/alert-actions/${token}`, { headers: { accept: 'text/html' } });
    expect(view.status).toBe(410);
    expect(view.text).not.toContain('<form method="post">');
    const used = await api.request('POST', `/v1/alert-actions/${token}`);
    expect(used.status).toBe(410);
    expect(used.text).toMatch(/expired/i);
    expect((await org.call('GET', `/v1/alerts/${alert.id}`)).body).toMatchObject({
      state: 'triggered',
      acknowledged_by: null,
    });
    // The same link signed now works: expiry, not the key or the alert, refused the first.
    const fresh = signAlertLink(LINK_KEY, alert.id, 'acknowledge', { kind: 'channel', id: ch }, Date.now());
    expect((await api.request('POST', `/v1/alert-actions/${fresh}`)).status).toBe(200);
    expect((await org.call('GET', `/v1/alerts/${alert.id}`)).body.state).toBe('acknowledged');
  }, 60_000);
});
