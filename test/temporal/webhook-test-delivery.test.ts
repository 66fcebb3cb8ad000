import { Webhook } from 'standardwebhooks';
import { NotificationRunSchema, OutboxEventSchema } from '../../src/db/entities';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../src/domain/event-types';
import { type Mailer, createMailer } from '../../src/infra/mailer';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type ReceivedRequest, type Receiver, startReceiver } from '../support/webhook-receiver';

/**
 * POST /v1/webhooks/{id}/test and the console's Send test: a `webhook.test` event for
 * one webhook alone, delivered by the real outbox relay and delivery workflows to loopback receivers.
 */
const POLICY = { initialMs: 150, factor: 2, maxMs: 600, giveUpAfterMs: 4_000 };

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture;
let other: OrgFixture;
let operator: ConsoleClient;
const receivers: Receiver[] = [];
const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  h = await startTemporalHarness({ relay: true, webhookPolicy: POLICY, webhookTimeoutMs: 2_000 });
  api = await startApi({ webhookStarter: h.webhookStarter, console: { mail: mailer } });
  org = await orgWithKeys(api, { name: 'Test delivery org' });
  other = await orgWithKeys(api, { name: 'Another org' });
  operator = await signedInClient(api, smtp, org.id, `operator-${run}@test-delivery.test`, 'operator');
}, 180_000);
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await api?.close();
  await h?.close();
  await mailer?.close();
  await smtp?.close();
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function subscribe(url: string, eventTypes: readonly string[]): Promise<{ id: string; secret: string }> {
  const res = await org.call('POST', '/v1/webhooks', { url, event_types: eventTypes });
  expect(res.status).toBe(201);
  return { id: res.body.id, secret: res.body.secret };
}

/** Verified with the `standardwebhooks` package, an implementation of the scheme independent of ours. */
function verify(secret: string, r: ReceivedRequest): { id: string; type: string; created_at: string; data: any } {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.id,
    'webhook-timestamp': r.timestamp,
    'webhook-signature': r.signature,
  }) as any;
}

const deliveryOf = async (hook: string, id: string) =>
  (await org.call('GET', `/v1/webhooks/${hook}/deliveries/${id}`)).body;

describe('test deliveries (real Temporal, real relay, loopback receivers)', () => {
  it('sends one signed webhook.test to that webhook only, whatever its event_types; nobody else, no subscriber email', async () => {
    // A confirmed subscriber, so an email run would be created if the event were fanned out like news.
    const page = await org.call('POST', '/v1/status-pages', { subdomain: `wt-${run}`, title: 'Test delivery page' });
    expect(page.status).toBe(201);
    const imported = await org.call('POST', `/v1/status-pages/${page.body.id}/subscribers/import`, {
      subscribers: [{ email: `ann-${run}@example.com` }],
      skip_confirmation: true,
    });
    expect(imported.status).toBe(200);

    const rx = await receiver();
    const everything = await receiver();
    const hook = await subscribe(rx.url, ['incident.created']);
    const all = await subscribe(everything.url, SUBSCRIBABLE_EVENT_TYPES);

    const res = await org.call('POST', `/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      webhook_id: hook.id,
      event_type: 'webhook.test',
      state: 'pending',
      attempt_count: 0,
      redelivery_of: null,
      attempts: [],
    });

    await eventually(async () => expect(rx.received).toHaveLength(1), 15_000);
    const body = verify(hook.secret, rx.received[0]!);
    expect(body).toEqual({
      id: res.body.event_id,
      type: 'webhook.test',
      created_at: expect.any(String),
      data: {
        webhook_id: hook.id,
        message: 'A test delivery from Vigil',
        requested_by: expect.stringMatching(/^api_key:[0-9a-f-]{36}$/),
      },
    });
    expect(() => verify(all.secret, rx.received[0]!)).toThrow();
    await eventually(async () =>
      expect(await deliveryOf(hook.id, res.body.id)).toMatchObject({
        state: 'succeeded',
        attempt_count: 1,
        last_status_code: 200,
      }),
    );
    // Listed among its deliveries, and the event_type filter takes it.
    const listed = (await org.call('GET', `/v1/webhooks/${hook.id}/deliveries?event_type=webhook.test`)).body.items;
    expect(listed.map((d: { id: string }) => d.id)).toEqual([res.body.id]);

    // The relay had its chance: the subscription to everything got nothing, and no email run exists.
    await h.relay!.idle();
    // A fixed wait that proves a negative: nothing reaches the subscription to everything.
    await new Promise((r) => setTimeout(r, 500));
    await h.relay!.idle();
    expect(everything.received).toHaveLength(0);
    expect((await org.call('GET', `/v1/webhooks/${all.id}/deliveries`)).body.items).toEqual([]);
    const em = api.orm.em.fork();
    expect(await em.findOneOrFail(OutboxEventSchema, res.body.event_id)).toMatchObject({
      type: 'webhook.test',
      resourceKind: 'webhook',
      resourceId: hook.id,
      dispatchedAt: expect.any(Date),
    });
    expect(await em.count(NotificationRunSchema, { event: res.body.event_id })).toBe(0);
    expect(rx.received).toHaveLength(1);

    // The fan-out is real here: an incident reaches both webhooks (so the silence above means something).
    await org.call('POST', '/v1/incidents', { title: 'Fan-out check' });
    await eventually(
      async () => expect(everything.received.map((r) => JSON.parse(r.body).type)).toEqual(['incident.created']),
      15_000,
    );
  }, 60_000);

  it('retries a test on 503 like any delivery, under the same webhook-id', async () => {
    const rx = await receiver((_id, seenBefore) => ({ status: seenBefore < 2 ? 503 : 200 }));
    const hook = await subscribe(rx.url, ['maintenance.started']);
    const res = await org.call('POST', `/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(202);
    await eventually(
      async () =>
        expect(await deliveryOf(hook.id, res.body.id)).toMatchObject({ state: 'succeeded', attempt_count: 3 }),
      15_000,
    );
    const d = await deliveryOf(hook.id, res.body.id);
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 503, 200]);
    expect(rx.received.map((r) => [r.id, r.status])).toEqual([
      [res.body.event_id, 503],
      [res.body.event_id, 503],
      [res.body.event_id, 200],
    ]);
    for (const r of rx.received) expect(verify(hook.secret, r).type).toBe('webhook.test');
  }, 30_000);

  it('refuses a disabled webhook (409 webhook_disabled), another organization (404), and webhook.test as a subscription choice', async () => {
    const rx = await receiver();
    const hook = await subscribe(rx.url, ['incident.created']);
    expect((await org.call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false })).status).toBe(200);
    const disabled = await org.call('POST', `/v1/webhooks/${hook.id}/test`);
    expect([disabled.status, disabled.body.title]).toEqual([409, 'webhook_disabled']);
    expect(disabled.headers.get('content-type')).toMatch(/application\/problem\+json/);

    const mine = await subscribe(rx.url, ['incident.created']);
    const foreign = await other.call('POST', `/v1/webhooks/${mine.id}/test`);
    expect([foreign.status, foreign.body.title]).toEqual([404, 'not_found']);
    expect([(await org.call('POST', '/v1/webhooks/not-a-uuid/test')).status]).toEqual([404]);
    expect((await org.call('GET', `/v1/webhooks/${mine.id}/deliveries`)).body.items).toEqual([]);

    for (const body of [
      {
        method: 'POST',
        path: '/v1/webhooks',
        body: { url: rx.url, event_types: ['webhook.test'] },
        field: 'event_types.0',
      },
      {
        method: 'PATCH',
        path: `/v1/webhooks/${mine.id}`,
        body: { event_types: ['incident.created', 'webhook.test'] },
        field: 'event_types.1',
      },
    ] as const) {
      const refused = await org.call(body.method, body.path, body.body);
      expect([refused.status, refused.body.title]).toEqual([400, 'validation_failed']);
      expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([body.field]);
    }
    // A fixed wait that proves a negative: none of the refused requests delivered anything.
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.received).toHaveLength(0);
  }, 30_000);

  it('the console Send test queues one and answers 303 to its delivery page with "Test delivery queued"', async () => {
    const rx = await receiver();
    const hook = await subscribe(rx.url, ['incident.resolved']);
    const page = await operator.get(`/console/webhooks/${hook.id}`);
    expect(page.text).toContain(`action="/console/webhooks/${hook.id}/test"`);
    const sent = await operator.post(`/console/webhooks/${hook.id}/test`, { _csrf: csrfOf(page.text) });
    expect(sent.status).toBe(303);
    const location = sent.headers.get('location')!;
    const deliveryId = new RegExp(`^/console/webhooks/${hook.id}/deliveries/([0-9a-f-]{36})$`).exec(location)![1]!;
    expect((await operator.get(location)).text).toContain('Test delivery queued');
    await eventually(async () => expect(rx.received).toHaveLength(1), 15_000);
    const body = verify(hook.secret, rx.received[0]!);
    expect(body.type).toBe('webhook.test');
    expect(body.data.requested_by).toMatch(/^console:/);
    expect((await deliveryOf(hook.id, deliveryId)).event_id).toBe(body.id);

    // A disabled webhook shows why there is no button, and a post anyway is refused in words (409).
    expect((await operator.post(`/console/webhooks/${hook.id}/disable`, { _csrf: csrfOf(page.text) })).status).toBe(
      303,
    );
    const off = await operator.get(`/console/webhooks/${hook.id}`);
    expect(off.text).toContain('Send test: enable the webhook first.');
    const refused = await operator.post(`/console/webhooks/${hook.id}/test`, { _csrf: csrfOf(off.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('enable it before sending a test');
  }, 30_000);
});
