import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Webhook } from 'standardwebhooks';
import { OutboxEventSchema, WebhookDeliverySchema } from '../../src/db/entities';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { Client } from '@temporalio/client';
import { temporalOutboxWorkflowStarter, webhookWorkflowId } from '../../src/temporal/outbox-workflow-starter';
import { dispatchOutbox } from '../../src/db/repositories/outbox-repository';
import { outboxSweepWorkflow } from '../../src/workflows';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { eventually } from '../support/eventually';
import { type ReceivedRequest, type Receiver, startReceiver, unusedPort } from '../support/webhook-receiver';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

// Short backoff so retries happen within a test: 150 ms doubling to 600 ms, giving up after 4 s.
const POLICY = { initialMs: 150, factor: 2, maxMs: 600, giveUpAfterMs: 4_000 };

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture;
const receivers: Receiver[] = [];
beforeAll(async () => {
  h = await startTemporalHarness({ relay: true, webhookPolicy: POLICY, webhookTimeoutMs: 2_000 });
  api = await startApi({
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    webhookStarter: h.webhookStarter,
  });
  org = await orgWithKeys(api);
}, 180_000);
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await api.close();
  await h.close();
});

const call: Call = (...args) => org.call(...args);

async function receiver(answer?: Parameters<typeof startReceiver>[0], port?: number): Promise<Receiver> {
  const r = await startReceiver(answer, port);
  receivers.push(r);
  return r;
}

async function subscribe(url: string, eventTypes: string[]): Promise<{ id: string; secret: string }> {
  const res = await call('POST', '/v1/webhooks', { url, event_types: eventTypes });
  expect(res.status).toBe(201);
  return { id: res.body.id, secret: res.body.secret };
}

/** Verified with the `standardwebhooks` package: an implementation of the scheme independent of ours. */
function verify(secret: string, r: ReceivedRequest): { id: string; type: string; created_at: string; data: any } {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.id,
    'webhook-timestamp': r.timestamp,
    'webhook-signature': r.signature,
  }) as any;
}

const deliveries = async (webhookId: string, query = '') =>
  (await call('GET', `/v1/webhooks/${webhookId}/deliveries${query}`)).body.items;

describe('webhook deliveries (real Temporal workflows, real HTTP receivers)', () => {
  it('delivers each chosen event, signed so an independent Standard Webhooks implementation verifies it, carrying the resource', async () => {
    const rx = await receiver();
    const hook = await subscribe(rx.url, ['incident.created', 'incident.published']);
    const created = await call('POST', '/v1/incidents', { title: 'Checkout errors', severity: 'major' });
    const published = await call('POST', `/v1/incidents/${created.body.id}/publish`);
    await call('POST', `/v1/incidents/${created.body.id}/messages`, {
      type: 'Update',
      body: 'not subscribed to this one',
    });

    await eventually(async () => expect(rx.received.length).toBe(2), 15_000);
    const bodies = rx.received.map((r) => verify(hook.secret, r)).sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies.map((b) => b.type)).toEqual(['incident.created', 'incident.published']);
    expect(bodies[1]!.data).toEqual(published.body);
    expect(bodies[0]!.data).toMatchObject({ id: created.body.id, state: 'draft' });
    for (const r of rx.received) expect(JSON.parse(r.body).id).toBe(r.id);
    // The check can fail: a changed body or another secret is rejected.
    const first = rx.received[0]!;
    expect(() => verify(hook.secret, { ...first, body: first.body.replace('Checkout', 'Cheque') })).toThrow();
    expect(() => verify('whsec_' + Buffer.alloc(32, 7).toString('base64'), first)).toThrow();

    await eventually(async () => {
      const items = await deliveries(hook.id);
      expect(items.map((d: any) => [d.event_type, d.state, d.attempt_count])).toEqual(
        expect.arrayContaining([
          ['incident.created', 'succeeded', 1],
          ['incident.published', 'succeeded', 1],
        ]),
      );
      expect(items[0].attempts[0]).toMatchObject({ number: 1, status_code: 200, error: null, succeeded: true });
      expect(items[0].attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
      expect(items.map((d: any) => d.event_id).sort()).toEqual(rx.received.map((r) => r.id).sort());
    });
    const described = await h.temporal.client.workflow
      .getHandle(webhookWorkflowId((await deliveries(hook.id))[0].id))
      .describe();
    expect(described.memo).toEqual({
      title: expect.stringMatching(/^incident\.(created|published) → http:\/\/127\.0\.0\.1:\d+\/hooks$/),
    });
  }, 30_000);

  it('delivers a burst of 40 events, each exactly once; a start repeated for running deliveries answers them as started', async () => {
    const rx = await receiver();
    const hook = await subscribe(rx.url, ['incident.created']);
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('POST', '/v1/incidents', { title: `Burst ${i}` })),
    );
    expect(created.every((r) => r.status === 201)).toBe(true);
    await eventually(async () => expect(rx.accepted().size).toBe(40), 30_000);
    expect([...rx.accepted().values()].every((n) => n === 1)).toBe(true);
    // The relay's start pipeline stamps every delivery it started (the sweep leaves those alone).
    await h.relay!.idle();
    const rows = await api.orm.em.fork().find(WebhookDeliverySchema, { subscription: hook.id });
    expect(rows).toHaveLength(40);
    expect(rows.filter((d) => d.workflowStartedAt === null)).toHaveLength(0);
    await eventually(async () => {
      const states = await api.orm.em
        .fork()
        .find(WebhookDeliverySchema, { subscription: hook.id }, { fields: ['state'] });
      expect(states.every((d) => d.state === 'succeeded')).toBe(true);
    }, 15_000);
    // The starter keeps a window of starts in flight; a workflow that already runs counts as started.
    const refs = rows.map((d) => ({
      organizationId: org.id,
      deliveryId: d.id,
      eventType: 'incident.created',
      url: rx.url,
    }));
    expect((await h.webhookStarter.start(refs)).sort()).toEqual(rows.map((d) => d.id).sort());
    // A start that fails is not answered as started, and is reported (the sweep starts it later).
    const failures: string[] = [];
    const nowhere = temporalOutboxWorkflowStarter(
      {
        client: new Client({ connection: h.temporal.connection, namespace: 'vigil-no-such-namespace' }),
        taskQueue: h.taskQueue,
      },
      POLICY,
      {
        onStartError: (_err, workflowId) => failures.push(workflowId),
      },
    );
    expect(await nowhere.start(refs.slice(0, 3))).toEqual([]);
    expect(failures.sort()).toEqual(
      refs
        .slice(0, 3)
        .map((r) => webhookWorkflowId(r.deliveryId))
        .sort(),
    );
  }, 60_000);

  it('retries 5xx, 429 and refused connections with backoff until the receiver recovers; every event is accepted exactly once', async () => {
    const port = await unusedPort();
    const hook = await subscribe(`http://127.0.0.1:${port}/hooks`, ['maintenance.scheduled']);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (
          await call('POST', '/v1/maintenances', {
            title: `w${i}`,
            scheduled_start_at: '2099-01-01T00:00:00.000Z',
            scheduled_end_at: '2099-01-01T01:00:00.000Z',
          })
        ).body.id,
      );
    }
    // Nothing listens yet: attempts fail with ECONNREFUSED and are retried.
    await eventually(async () => {
      const items = await deliveries(hook.id);
      expect(items).toHaveLength(3);
      for (const d of items) {
        expect(d.state).toBe('pending');
        expect(d.attempts.length).toBeGreaterThanOrEqual(1);
        expect(d.attempts[0].error).toMatch(/^ECONNREFUSED/);
        expect(d.next_attempt_at).not.toBeNull();
      }
    }, 10_000);
    // Now it listens, failing each event's first request with 503 and its second with 429.
    const rx = await receiver(
      (_, seen) =>
        seen === 0 ? { status: 503 } : seen === 1 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200 },
      port,
    );
    await eventually(async () => expect(rx.accepted().size).toBe(3), 20_000);
    // A fixed wait that proves a negative: no event is delivered a second time after its 200.
    await new Promise((r) => setTimeout(r, 1_500));
    expect([...rx.accepted().values()]).toEqual([1, 1, 1]);
    for (const id of rx.accepted().keys()) expect(rx.byId(id).map((r) => r.status)).toEqual([503, 429, 200]);
    const items = await deliveries(hook.id);
    for (const d of items) {
      expect(d.state).toBe('succeeded');
      expect(d.next_attempt_at).toBeNull();
      const tail = d.attempts.slice(-3).map((a: any) => a.status_code);
      expect(tail).toEqual([503, 429, 200]);
      expect(d.attempts.map((a: any) => a.number)).toEqual(d.attempts.map((_: unknown, i: number) => i + 1));
    }
    expect(ids).toHaveLength(3);
  }, 45_000);

  it('does not retry other 4xx, and gives up on 5xx when the retry window ends', async () => {
    const gone = await receiver(() => ({ status: 410 }));
    const broken = await receiver(() => ({ status: 500 }));
    const hookGone = await subscribe(gone.url, ['incident.created']);
    const hookBroken = await subscribe(broken.url, ['incident.created']);
    await call('POST', '/v1/incidents', { title: 'Refused' });
    await eventually(async () => {
      const [d] = await deliveries(hookBroken.id);
      expect(d.state).toBe('failed');
    }, 20_000);
    const [dGone] = await deliveries(hookGone.id);
    expect(dGone).toMatchObject({
      state: 'failed',
      attempt_count: 1,
      last_status_code: 410,
      last_error: 'HTTP 410',
      next_attempt_at: null,
    });
    expect(gone.received).toHaveLength(1);
    const [dBroken] = await deliveries(hookBroken.id);
    expect(dBroken.attempt_count).toBeGreaterThanOrEqual(4);
    expect(dBroken.attempt_count).toBe(broken.received.length);
    expect(
      Date.parse(dBroken.attempts.at(-1).attempted_at) - Date.parse(dBroken.attempts[0].attempted_at),
    ).toBeLessThanOrEqual(POLICY.giveUpAfterMs + 1_000);
    // Filters.
    expect(await deliveries(hookBroken.id, '?state=succeeded')).toEqual([]);
    expect((await deliveries(hookBroken.id, '?state=failed')).length).toBe(1);
  }, 40_000);

  it('signs with both secrets for a day after a rotation', async () => {
    const rx = await receiver();
    const hook = await subscribe(rx.url, ['incident.created']);
    const rotated = await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await call('POST', '/v1/incidents', { title: 'After rotation' });
    await eventually(async () => expect(rx.received).toHaveLength(1), 15_000);
    const r = rx.received[0]!;
    expect(r.signature.split(' ')).toHaveLength(2);
    expect(verify(rotated.body.secret, r).type).toBe('incident.created');
    expect(verify(hook.secret, r).type).toBe('incident.created');
  }, 30_000);

  it('redelivers a finished delivery with the same webhook-id as a new delivery; 409 while one is still attempted', async () => {
    let failing = true;
    const rx = await receiver(() => ({ status: failing ? 503 : 200 }));
    const hook = await subscribe(rx.url, ['incident.created']);
    await call('POST', '/v1/incidents', { title: 'Redeliver me' });
    const pending = await eventually(async () => {
      const [d] = await deliveries(hook.id);
      expect(d?.attempt_count).toBeGreaterThanOrEqual(1);
      return d;
    }, 15_000);
    const busy = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${pending.id}/redeliver`);
    expect([busy.status, busy.body.title]).toEqual([409, 'delivery_in_progress']);
    failing = false;
    await eventually(async () => expect((await deliveries(hook.id))[0].state).toBe('succeeded'), 15_000);

    const again = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${pending.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({
      state: 'pending',
      redelivery_of: pending.id,
      event_id: pending.event_id,
      attempts: [],
    });
    await eventually(
      async () =>
        expect((await call('GET', `/v1/webhooks/${hook.id}/deliveries/${again.body.id}`)).body.state).toBe('succeeded'),
      15_000,
    );
    const accepted = rx.received.filter((r) => r.status === 200);
    expect(accepted.map((r) => r.id)).toEqual([pending.event_id, pending.event_id]);
  }, 40_000);

  it('sends nothing to a disabled webhook, and cancels a delivery still retrying when it is disabled', async () => {
    const rx = await receiver(() => ({ status: 503 }));
    const hook = await subscribe(rx.url, ['incident.created']);
    await call('POST', '/v1/incidents', { title: 'Retrying' });
    await eventually(async () => expect(rx.received.length).toBeGreaterThanOrEqual(1), 15_000);
    const disabled = await call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_at: expect.any(String) });
    await eventually(
      async () =>
        expect((await deliveries(hook.id))[0]).toMatchObject({ state: 'canceled', last_error: 'webhook disabled' }),
      10_000,
    );
    const count = rx.received.length;
    await call('POST', '/v1/incidents', { title: 'While disabled' });
    // A fixed wait that proves a negative: a disabled webhook gets nothing.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rx.received.length).toBe(count);
    expect(await deliveries(hook.id)).toHaveLength(1);
    const redeliver = await call(
      'POST',
      `/v1/webhooks/${hook.id}/deliveries/${(await deliveries(hook.id))[0].id}/redeliver`,
    );
    expect([redeliver.status, redeliver.body.title]).toEqual([409, 'webhook_disabled']);
  }, 30_000);

  it('records a history for the replay test', async () => {
    const rx = await receiver((_, seen) => ({ status: seen === 0 ? 502 : 204 }));
    const hook = await subscribe(rx.url, ['incident.created']);
    await call('POST', '/v1/incidents', { title: 'For the record' });
    const d = await eventually(async () => {
      const [x] = await deliveries(hook.id);
      expect(x?.state).toBe('succeeded');
      return x;
    }, 15_000);
    const handle = h.temporal.client.workflow.getHandle(webhookWorkflowId(d.id));
    expect(await handle.result()).toBe('succeeded');
    // Each attempt a local activity (a marker); no patch marker, and so no TemporalChangeVersion
    // upsert: new deliveries say in their input how they attempt.
    const history = await handle.fetchHistory();
    const markers = (history.events ?? []).flatMap((e) =>
      e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes.markerName] : [],
    );
    expect(markers).toEqual(['core_local_activity', 'core_local_activity']);
    expect((history.events ?? []).filter((e) => e.upsertWorkflowSearchAttributesEventAttributes)).toHaveLength(0);
    expect((history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
    if (process.env.VIGIL_RECORD_HISTORIES) {
      writeFileSync(path.join(__dirname, '..', 'replay-histories', 'webhook-delivery-v3.json'), historyToJSON(history));
    }
  }, 30_000);

  it('never posts to a non-public receiver address (SSRF): the delivery fails at once with the reason', async () => {
    const hooks = await Promise.all(
      ['http://10.255.255.1/hooks', 'http://[::ffff:169.254.169.254]/latest', 'http://100.64.0.7/x'].map((url) =>
        subscribe(url, ['incident.created']),
      ),
    );
    await call('POST', '/v1/incidents', { title: 'Not for private networks' });
    for (const [hook, reason] of [
      [hooks[0]!, 'target_not_public:private'],
      [hooks[1]!, 'target_not_public:cloud_metadata'],
      [hooks[2]!, 'target_not_public:cgnat'],
    ] as const) {
      await eventually(
        async () =>
          expect((await deliveries(hook.id))[0]).toMatchObject({
            state: 'failed',
            attempt_count: 1,
            last_error: reason,
            next_attempt_at: null,
          }),
        15_000,
      );
    }
  }, 30_000);

  // Last: stops the relay, as a crash would.
  it('loses nothing when the relay is down or dies between commit and start: the outbox sweep delivers', async () => {
    await h.relay!.close();
    const rx = await receiver();
    const hook = await subscribe(rx.url, ['incident.created', 'incident.deleted']);
    const first = await call('POST', '/v1/incidents', { title: 'Committed, never relayed' });
    // A fixed wait that proves a negative: with the relay down, nothing dispatches the event.
    await new Promise((r) => setTimeout(r, 500));
    const em = api.orm.em.fork();
    expect(await em.findOne(OutboxEventSchema, { resourceId: first.body.id, type: 'incident.created' })).toMatchObject({
      dispatchedAt: null,
    });
    expect(rx.received).toHaveLength(0);

    // A relay that fanned out (committed deliveries) and died before starting the workflows.
    await call('DELETE', `/v1/incidents/${first.body.id}`);
    const fanned = await dispatchOutbox(em.fork(), new Date());
    const mine = fanned.deliveries.filter((d) => d.organizationId === org.id && d.url === rx.url);
    expect(mine.map((d) => d.eventType).sort()).toEqual(['incident.created', 'incident.deleted']);
    // The sweep leaves young unconfirmed deliveries to their relay; age them past its 30 s grace.
    await em
      .fork()
      .nativeUpdate(
        WebhookDeliverySchema,
        { id: { $in: mine.map((d) => d.deliveryId) } },
        { createdAt: new Date(Date.now() - 60_000) },
      );

    const report = await h.temporal.client.workflow.execute(outboxSweepWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `outbox-sweep-test-${first.body.id}`,
    });
    expect(report.started).toBeGreaterThanOrEqual(2);
    await eventually(async () => expect(rx.received).toHaveLength(2), 15_000);
    expect(rx.received.map((r) => verify(hook.secret, r).type).sort()).toEqual([
      'incident.created',
      'incident.deleted',
    ]);
    // Sweeping again starts nothing twice.
    await h.temporal.client.workflow.execute(outboxSweepWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `outbox-sweep-test-again-${first.body.id}`,
    });
    // A fixed wait that proves a negative: the second sweep delivers nothing again.
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toHaveLength(2);
  }, 40_000);
});
