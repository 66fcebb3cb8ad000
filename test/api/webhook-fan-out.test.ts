import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEventSchema, WebhookAttemptSchema, WebhookDeliverySchema } from '../../src/db/entities';
import { prepareAttempt, recordAttempt } from '../../src/usecases/webhooks/attempts';
import { dispatchOutbox } from '../../src/db/repositories/outbox-repository';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testSecretBox } from '../support/env';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { takeRelayTurn } from '../support/relay-turn';

/**
 * The webhook hot path in SQL, against PostgreSQL: fan-out of outbox events to deliveries, the
 * read an attempt sends from, and the statement that records it. Fanning out takes every
 * undispatched event in the shared database, so this suite holds the relay turn throughout:
 * a suite whose relay delivers its own events never runs at the same time.
 */
let api: ApiHarness;
let org: OrgFixture;
let other: OrgFixture;
let releaseRelayTurn: () => Promise<void>;
const box = testSecretBox();
beforeAll(async () => {
  releaseRelayTurn = await takeRelayTurn();
  api = await startApi();
  org = await orgWithKeys(api);
  other = await orgWithKeys(api);
  // Events API-only suites left behind: no relay delivers them, and they would crowd this suite's batches.
  while ((await dispatchOutbox(em(), new Date(), 500)).events > 0);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await releaseRelayTurn?.();
});

const em = () => api.orm.em.fork() as EntityManager;
async function subscribe(
  o: OrgFixture,
  eventTypes: string[],
  url = 'https://hooks.example.com/in',
): Promise<{ id: string; secret: string }> {
  const res = await o.call('POST', '/v1/webhooks', { url, event_types: eventTypes });
  expect(res.status).toBe(201);
  return res.body;
}

/** Dispatches until none of `eventIds` is left undispatched (suites running alongside may add events of their own). */
async function dispatchAll(eventIds: string[]): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await dispatchOutbox(em(), new Date(), 500);
    if (!(await em().count(OutboxEventSchema, { id: { $in: eventIds }, dispatchedAt: null }))) return;
  }
  throw new Error('events stayed undispatched');
}

async function eventsOf(o: OrgFixture, resourceId: string) {
  return em().find(OutboxEventSchema, { organization: o.id, resourceId }, { orderBy: { createdAt: 'asc' } });
}

describe('webhook fan-out and attempts (SQL)', () => {
  it('creates one pending delivery per enabled subscription that chose the type, in its own organization only', async () => {
    const all = await subscribe(org, ['incident.created', 'incident.published']);
    const createdOnly = await subscribe(org, ['incident.created'], 'https://hooks.example.com/created');
    const disabled = await subscribe(org, ['incident.created']);
    await org.call('PATCH', `/v1/webhooks/${disabled.id}`, { enabled: false });
    const deleted = await subscribe(org, ['incident.created']);
    await org.call('DELETE', `/v1/webhooks/${deleted.id}`);
    const otherOrgs = await subscribe(other, ['incident.created']);

    const inc = (await org.call('POST', '/v1/incidents', { title: 'Fan-out', publish: true })).body;
    const events = await eventsOf(org, inc.id);
    expect(events.map((e) => e.type).sort()).toEqual(['incident.created', 'incident.published']);
    await dispatchAll(events.map((e) => e.id));

    const rows = await em().find(WebhookDeliverySchema, { event: { $in: events.map((e) => e.id) } });
    const bySub = (subId: string) =>
      rows
        .filter((d) => d.subscription === subId)
        .map((d) => d.eventType)
        .sort();
    expect(bySub(all.id)).toEqual(['incident.created', 'incident.published']);
    expect(bySub(createdOnly.id)).toEqual(['incident.created']);
    expect(bySub(disabled.id)).toEqual([]);
    expect(bySub(deleted.id)).toEqual([]);
    expect(bySub(otherOrgs.id)).toEqual([]);
    expect(rows).toHaveLength(3);
    for (const d of rows) {
      expect(d).toMatchObject({
        organization: org.id,
        state: 'pending',
        attemptCount: 0,
        lastStatusCode: null,
        nextAttemptAt: null,
        redeliveryOf: null,
        completedAt: null,
      });
      expect(rows.filter((x) => x.event === d.event && x.subscription === d.subscription)).toHaveLength(1);
    }
    // Dispatched events are never fanned out again.
    await dispatchOutbox(em(), new Date(), 500);
    expect(await em().count(WebhookDeliverySchema, { event: { $in: events.map((e) => e.id) } })).toBe(3);
  });

  it('creates a subscriber-email run with the dispatch of each recent event that owes email, and of no other', async () => {
    const listened = await orgWithKeys(api, { name: 'email runs' });
    const page = await listened.call('POST', '/v1/status-pages', {
      subdomain: `runs-${listened.id.slice(0, 8)}`,
      title: 'Runs',
    });
    expect(page.status).toBe(201);
    const imported = await listened.call('POST', `/v1/status-pages/${page.body.id}/subscribers/import`, {
      subscribers: [{ email: 'ann@example.com' }],
      skip_confirmation: true,
    });
    expect(imported.status).toBe(200);
    const heard = (await listened.call('POST', '/v1/incidents', { title: 'Heard', publish: true })).body;
    const unheard = (await other.call('POST', '/v1/incidents', { title: 'Nobody subscribed', publish: true })).body;
    // Written as the API would, minus the API: a confirmation request where no one is confirmed yet, and news from 3 days ago.
    const fork = em();
    const direct = (organization: string, type: string, ageMs: number) =>
      fork.create(OutboxEventSchema, {
        id: randomUUID(),
        organization,
        type,
        resourceKind: 'subscriber',
        resourceId: randomUUID(),
        payload: {},
        createdAt: new Date(Date.now() - ageMs),
        dispatchedAt: null,
      });
    const confirmation = direct(other.id, 'subscriber.confirmation_requested', 0);
    const stale = direct(listened.id, 'incident.published', 3 * 86_400_000);
    await fork.flush();

    const events = [
      ...(await eventsOf(listened, heard.id)),
      ...(await eventsOf(other, unheard.id)),
      confirmation,
      stale,
    ];
    const ids = events.map((e) => e.id);
    const returned: string[] = [];
    for (let i = 0; i < 50 && (await em().count(OutboxEventSchema, { id: { $in: ids }, dispatchedAt: null })); i++) {
      returned.push(...(await dispatchOutbox(em(), new Date(), 500)).emailRuns.map((r) => r.eventId));
    }
    const published = events.find((e) => e.resourceId === heard.id && e.type === 'incident.published')!;
    const expected = [published.id, confirmation.id].sort();
    expect(returned.filter((id) => ids.includes(id)).sort()).toEqual(expected);
    const runs = await em()
      .getConnection()
      .execute<{ event_id: string; organization_id: string; event_type: string; workflow_started_at: Date | null }[]>(
        'select event_id, organization_id, event_type, workflow_started_at from notification_runs where event_id = any(?::uuid[]) order by event_type',
        [`{${ids.join(',')}}`],
      );
    expect(runs).toEqual([
      {
        event_id: published.id,
        organization_id: listened.id,
        event_type: 'incident.published',
        workflow_started_at: null,
      },
      {
        event_id: confirmation.id,
        organization_id: other.id,
        event_type: 'subscriber.confirmation_requested',
        workflow_started_at: null,
      },
    ]);
  });

  it('relays running at once fan each event out exactly once', async () => {
    const hook = await subscribe(org, ['incident.created']);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await org.call('POST', '/v1/incidents', { title: `Burst ${i}` })).body.id);
    const events = (await Promise.all(ids.map((id) => eventsOf(org, id)))).flat();
    expect(events).toHaveLength(30);
    const concurrent = await Promise.all([1, 2, 3, 4].map(() => dispatchOutbox(em(), new Date(), 7)));
    // Four batches of 7 at once each get 7 events: rows another batch holds are skipped, not waited for.
    expect(concurrent.map((b) => b.events)).toEqual([7, 7, 7, 7]);
    await dispatchAll(events.map((e) => e.id));
    const rows = await em().find(WebhookDeliverySchema, { subscription: hook.id });
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((d) => d.event)).size).toBe(30);
  });

  it('prepares the signed body from the event, records attempts idempotently, and finishes the delivery', async () => {
    const hook = await subscribe(org, ['incident.created'], 'https://hooks.example.com/attempts');
    const inc = (await org.call('POST', '/v1/incidents', { title: 'Attempts "quoted" ☃' })).body;
    const [event] = await eventsOf(org, inc.id);
    await dispatchAll([event!.id]);
    const d = await em().findOneOrFail(WebhookDeliverySchema, { subscription: hook.id, event: event!.id });

    const prep = await prepareAttempt(em(), box, d.id, new Date());
    if (!('send' in prep)) throw new Error('expected an attempt to send');
    expect(prep.send).toMatchObject({
      url: 'https://hooks.example.com/attempts',
      messageId: event!.id,
      secrets: [hook.secret],
    });
    expect(JSON.parse(prep.send.body)).toEqual({
      id: event!.id,
      type: 'incident.created',
      created_at: event!.createdAt.toISOString(),
      data: event!.payload,
    });
    expect(JSON.parse(prep.send.body).data.title).toBe('Attempts "quoted" ☃');

    const t1 = new Date(Date.now() - 2_000);
    const retryAt = new Date(Date.now() + 60_000);
    const failed = {
      number: 1,
      attemptedAt: t1,
      statusCode: 503,
      latencyMs: 12,
      error: 'HTTP 503',
      succeeded: false,
      nextAttemptAt: retryAt,
    };
    expect(await recordAttempt(em(), d.id, failed)).toBe('pending');
    // An activity retry of the same attempt overwrites its record.
    expect(await recordAttempt(em(), d.id, { ...failed, statusCode: 502, error: 'HTTP 502' })).toBe('pending');
    let row = await em().findOneOrFail(WebhookDeliverySchema, d.id);
    expect(row).toMatchObject({
      state: 'pending',
      attemptCount: 1,
      lastStatusCode: 502,
      lastError: 'HTTP 502',
      nextAttemptAt: retryAt,
      completedAt: null,
      updatedAt: t1,
    });

    const t2 = new Date();
    expect(
      await recordAttempt(em(), d.id, {
        number: 2,
        attemptedAt: t2,
        statusCode: 204,
        latencyMs: 3,
        error: null,
        succeeded: true,
        nextAttemptAt: null,
      }),
    ).toBe('succeeded');
    row = await em().findOneOrFail(WebhookDeliverySchema, d.id);
    expect(row).toMatchObject({
      state: 'succeeded',
      attemptCount: 2,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
      completedAt: t2,
    });
    const attempts = await em().find(WebhookAttemptSchema, { delivery: d.id }, { orderBy: { number: 'asc' } });
    expect(attempts.map((a) => [a.number, a.statusCode, a.error, a.succeeded, a.organization])).toEqual([
      [1, 502, 'HTTP 502', false, org.id],
      [2, 204, null, true, org.id],
    ]);
    // Finished: nothing more to send.
    expect(await prepareAttempt(em(), box, d.id, new Date())).toEqual({ finished: 'succeeded' });
  });

  it('gives up for good without a next attempt, cancels a pending delivery of a disabled webhook, and knows unknown ones', async () => {
    const hook = await subscribe(org, ['incident.created']);
    const a = (await org.call('POST', '/v1/incidents', { title: 'Gone' })).body;
    const b = (await org.call('POST', '/v1/incidents', { title: 'Disabled' })).body;
    const [ea] = await eventsOf(org, a.id);
    const [eb] = await eventsOf(org, b.id);
    await dispatchAll([ea!.id, eb!.id]);
    const da = await em().findOneOrFail(WebhookDeliverySchema, { subscription: hook.id, event: ea!.id });
    const db = await em().findOneOrFail(WebhookDeliverySchema, { subscription: hook.id, event: eb!.id });

    const at = new Date();
    expect(
      await recordAttempt(em(), da.id, {
        number: 1,
        attemptedAt: at,
        statusCode: 410,
        latencyMs: 5,
        error: 'HTTP 410',
        succeeded: false,
        nextAttemptAt: null,
      }),
    ).toBe('failed');
    expect(await em().findOneOrFail(WebhookDeliverySchema, da.id)).toMatchObject({
      state: 'failed',
      completedAt: at,
      nextAttemptAt: null,
      lastStatusCode: 410,
    });

    await org.call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false });
    expect(await prepareAttempt(em(), box, db.id, new Date())).toEqual({ finished: 'canceled' });
    expect(await em().findOneOrFail(WebhookDeliverySchema, db.id)).toMatchObject({
      state: 'canceled',
      lastError: 'webhook disabled',
      nextAttemptAt: null,
    });
    // A finished delivery is not canceled again.
    expect(await prepareAttempt(em(), box, da.id, new Date())).toEqual({ finished: 'failed' });

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await prepareAttempt(em(), box, unknown, new Date())).toEqual({ finished: 'gone' });
    await expect(
      recordAttempt(em(), unknown, {
        number: 1,
        attemptedAt: at,
        statusCode: 500,
        latencyMs: 1,
        error: 'HTTP 500',
        succeeded: false,
        nextAttemptAt: null,
      }),
    ).rejects.toThrow(/not found/);
  });
});
