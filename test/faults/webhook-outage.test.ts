import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config';
import { webhookRetryPolicy } from '../../src/composition/adapters';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/domain/webhook-retry';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { type ApiHarness, type HttpResult, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import {
  type Answer,
  type ReceivedRequest,
  type Receiver,
  startReceiver,
  unusedPort,
} from '../support/webhook-receiver';

/**
 * Fault: a webhook receiver down for 10 minutes, with the production retry schedule
 * compressed by configuration (WEBHOOK_RETRY_* and WEBHOOK_TIMEOUT_MS through loadConfig and the
 * worker's webhookRetryPolicy, as a deployment would set them), on the real Temporal harness with
 * the outbox relay on. What docs/api/webhooks.md promises and this checks:
 *
 * - every event is delivered once the receiver is back (retried on refused connections, 5xx and
 *   no answer within the timeout), 100 %;
 * - `webhook-id` is the event's id (the body's `id`), the same on every attempt; delivery is at
 *   least once, so an id may arrive twice, but always with the same body, and never one event
 *   under two ids;
 * - order: none ("Expect any order … order by the body's `created_at` or the resource's
 *   `updated_at`"): so arrival order is only reported, and what is asserted is that `created_at`
 *   (and `updated_at`) put each resource's events back in the order the changes were made;
 * - `GET /v1/webhooks/{id}/deliveries` shows each attempt (numbered, with its error) and the
 *   final success; the docs know no automatic disabling, so the webhook stays enabled;
 * - past the give-up window ("no attempt starts later than 26 hours after the first, about 35
 *   attempts in all; then the delivery is `failed`") the deliveries are `failed` and listed so,
 *   nothing more is sent by itself, and `redeliver` sends each again under the same `webhook-id`.
 */

const PROD = DEFAULT_RETRY_POLICY;
const PROD_TIMEOUT_MS = 10_000;
const TEN_MINUTES = 600_000;

/**
 * The production schedule divided by `factor`, set through the configuration the worker reads.
 * The configuration's floor (10 ms) bounds the first delay; `timeoutFloorMs` keeps the attempt
 * timeout above what an event loop shared by the API, the worker and the receivers in this one
 * test process can stall for (a stall past it would only add a same-id retry, but slows draining).
 */
function compressed(factor: number, timeoutFloorMs: number): { policy: RetryPolicy; timeoutMs: number } {
  const config = loadConfig({
    WEBHOOK_RETRY_INITIAL_MS: String(Math.max(10, Math.round(PROD.initialMs / factor))),
    WEBHOOK_RETRY_MAX_MS: String(Math.round(PROD.maxMs / factor)),
    WEBHOOK_RETRY_GIVE_UP_MS: String(Math.round(PROD.giveUpAfterMs / factor)),
    WEBHOOK_TIMEOUT_MS: String(Math.max(timeoutFloorMs, Math.round(PROD_TIMEOUT_MS / factor))),
  });
  return { policy: webhookRetryPolicy(config), timeoutMs: config.WEBHOOK_TIMEOUT_MS };
}

/**
 * Outage cases, factor 60: the 10-minute outage lasts 10 s; the 5 s first retry becomes 83 ms,
 * the 1 h longest wait 60 s (longer than the outage, as in production) and the 26 h window 26 min
 * (far beyond it, as in production: the outage must not reach give-up). A delivery thus makes the
 * ~8 attempts over the outage a production delivery makes over 10 minutes (5 s, 10 s, … 320 s).
 * The 10 s attempt timeout would be 167 ms: floored at 500 ms (see compressed()).
 */
const OUTAGE_FACTOR = 60;
const OUTAGE_MS = TEN_MINUTES / OUTAGE_FACTOR;
const OUTAGE = compressed(OUTAGE_FACTOR, 500);

/**
 * Give-up case, factor 3600 (an hour becomes a second): the 26 h window lasts 26 s, the 1 h
 * longest wait 1 s; the 5 s first retry would be 1.4 ms and is the configuration's 10 ms floor,
 * which costs about 3 of production's ~35 attempts. 10 minutes at this factor would be 167 ms, so
 * the outage cases above use their own factor: no single factor fits a 10-minute outage and a
 * 26-hour window into one test.
 */
const GIVE_UP_FACTOR = 3_600;

/**
 * The Temporal dev server fires short workflow timers up to about a second late (in the delivery
 * workflows' histories a 10–300 ms sleep fires 0.8–1 s after it starts, on a ~1 s tick), so a
 * compressed wait under a second lasts about a second. In production every wait is 5 s or more, so this is a test
 * artefact: under ×60 only the first four waits (83–664 ms, production's 5–40 s) are stretched,
 * which costs about one attempt over the outage; the waits that decide the drain (seconds) are
 * faithful. Under ×3600 every wait is about the 1 s cap anyway.
 */
const TIMER_GRID_MS = 1_000;
const GIVE_UP = compressed(GIVE_UP_FACTOR, 500);

const INCIDENT_TYPES = ['incident.created', 'incident.published', 'incident.message_added', 'incident.resolved'];
const MAINTENANCE_TYPES = ['maintenance.scheduled', 'maintenance.started', 'maintenance.completed'];
const INCIDENTS = 12;
const MAINTENANCES = 8;
const EVENTS = INCIDENTS * INCIDENT_TYPES.length + MAINTENANCES * MAINTENANCE_TYPES.length; // 72

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Body {
  id: string;
  type: string;
  created_at: string;
  data: { id: string; updated_at?: string };
}

/** Verified with the `standardwebhooks` package, an implementation of the scheme independent of ours. */
function verify(secret: string, r: ReceivedRequest): Body {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.id,
    'webhook-timestamp': r.timestamp,
    'webhook-signature': r.signature,
  }) as Body;
}

function summary(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `min ${s[0]}, median ${s[Math.floor(s.length / 2)]}, max ${s.at(-1)}`;
}

/** A harness, an API and an enterprise organization (rate limits far from the test's calls). */
function suite(opts: { policy: RetryPolicy; timeoutMs: number }) {
  const s = {} as { h: TemporalHarness; api: ApiHarness; org: OrgFixture; receivers: Receiver[] };
  beforeAll(async () => {
    s.receivers = [];
    s.h = await startTemporalHarness({ relay: true, webhookPolicy: opts.policy, webhookTimeoutMs: opts.timeoutMs });
    s.api = await startApi({
      maintenanceScheduler: temporalMaintenanceScheduler(s.h.temporal),
      webhookStarter: s.h.webhookStarter,
    });
    s.org = await orgWithKeys(s.api, { plan: 'enterprise' });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(s.receivers.map((r) => r.close()));
    await s.api?.close();
    await s.h?.close();
  });
  const call: Call = (...args) => s.org.call(...args);
  const receiver = async (answer?: (id: string, seenBefore: number) => Answer, port?: number) => {
    const r = await startReceiver(answer, port);
    s.receivers.push(r);
    return r;
  };
  const subscribe = async (url: string, eventTypes: string[]) => {
    const res = await call('POST', '/v1/webhooks', { url, event_types: eventTypes });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, secret: res.body.secret as string };
  };
  /** Every delivery of the webhook, all pages. */
  const deliveries = async (webhookId: string, query = ''): Promise<any[]> => {
    const out: any[] = [];
    let cursor: string | null = null;
    do {
      const res: HttpResult = await call(
        'GET',
        `/v1/webhooks/${webhookId}/deliveries?limit=200${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      out.push(...res.body.items);
      cursor = res.body.next_cursor;
    } while (cursor);
    return out;
  };
  return { s, call, receiver, subscribe, deliveries };
}

describe('a webhook receiver down for 10 minutes (compressed ×60 to 10 s)', () => {
  const { call, receiver, subscribe, deliveries } = suite(OUTAGE);

  /** Each resource's changes, in the order they were made, as event types. */
  type Made = Map<string, string[]>;

  /** 12 incidents (created, published, message, resolved) and 8 maintenances (scheduled, started, completed): 72 events, each resource's in order, 4 resources at a time. */
  async function makeEvents(): Promise<Made> {
    const made: Made = new Map();
    const ok = (res: { status: number; text: string }) => {
      if (res.status < 200 || res.status > 299) throw new Error(`answered ${res.status}: ${res.text}`);
    };
    const incident = async (i: number) => {
      const created = await call('POST', '/v1/incidents', { title: `Outage ${i}` });
      ok(created);
      const id = created.body.id as string;
      ok(await call('POST', `/v1/incidents/${id}/publish`));
      ok(await call('POST', `/v1/incidents/${id}/messages`, { type: 'Update', body: `update ${i}` }));
      ok(await call('POST', `/v1/incidents/${id}/resolve`));
      made.set(id, INCIDENT_TYPES);
    };
    const maintenance = async (i: number) => {
      const created = await call('POST', '/v1/maintenances', {
        title: `Window ${i}`,
        scheduled_start_at: '2099-01-01T00:00:00.000Z',
        scheduled_end_at: '2099-01-01T01:00:00.000Z',
      });
      ok(created);
      const id = created.body.id as string;
      ok(await call('POST', `/v1/maintenances/${id}/start`));
      ok(await call('POST', `/v1/maintenances/${id}/complete`));
      made.set(id, MAINTENANCE_TYPES);
    };
    const jobs = [
      ...Array.from({ length: INCIDENTS }, (_, i) => () => incident(i)),
      ...Array.from({ length: MAINTENANCES }, (_, i) => () => maintenance(i)),
    ];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let job = jobs.shift(); job; job = jobs.shift()) await job();
      }),
    );
    return made;
  }

  /**
   * Subscribes a receiver, delivers one event while it is up, takes it down for OUTAGE_MS while
   * 72 events happen, brings it back, and checks what the docs promise. Answers the drain time.
   */
  async function outage(o: {
    label: string;
    start(): Promise<{ url: string; rx: () => Receiver }>;
    takeDown(): Promise<void>;
    bringBack(): Promise<void>;
    /** An attempt made while the receiver was down, as the deliveries API shows it. */
    failedAttempt: RegExp;
    /** The receiver saw every attempt (it was up, answering badly): its requests match the attempts one for one. */
    seesEveryAttempt: boolean;
  }): Promise<number> {
    const { url, rx } = await o.start();
    const types = [...INCIDENT_TYPES, ...MAINTENANCE_TYPES];
    const hook = await subscribe(url, types);
    const before = await call('POST', '/v1/incidents', { title: 'Before the outage' });
    await eventually(async () => expect(rx().accepted().size).toBe(1), 30_000);
    const baselineId = [...rx().accepted().keys()][0]!;
    expect(verify(hook.secret, rx().received[0]!).data.id).toBe(before.body.id);

    await o.takeDown();
    const downAt = Date.now();
    const made = await makeEvents();
    const madeMs = Date.now() - downAt;
    // While down: every event has its delivery, pending and retrying, nothing succeeded.
    await eventually(
      async () => {
        const items = (await deliveries(hook.id)).filter((d) => d.event_id !== baselineId);
        expect(items).toHaveLength(EVENTS);
        for (const d of items) {
          expect(d.state).toBe('pending');
          expect(d.attempts.length).toBeGreaterThanOrEqual(1);
          expect(d.next_attempt_at).not.toBeNull();
          expect(d.attempts.every((a: any) => !a.succeeded && o.failedAttempt.test(a.error))).toBe(true);
        }
      },
      Math.max(5_000, downAt + OUTAGE_MS - 500 - Date.now()),
      500,
    );
    await sleep(downAt + OUTAGE_MS - Date.now());
    expect(rx().accepted().size).toBe(1);

    await o.bringBack();
    const upAt = Date.now();
    const outageMs = upAt - downAt;
    const r = rx();
    // The outage's requests: all but the baseline event's (case A's receiver is a new one, case B's saw the baseline).
    const outageRequests = () => r.received.filter((x) => x.id !== baselineId);
    const acceptedIds = () =>
      new Set(
        outageRequests()
          .filter((x) => x.status >= 200 && x.status < 300)
          .map((x) => x.id),
      );
    // The backlog drains: every event accepted (a bounded wait: well past the last backoff before the return).
    const drainDeadline = upAt + 60_000 + TIMER_GRID_MS;
    while (acceptedIds().size < EVENTS && Date.now() < drainDeadline) await sleep(20);
    const accepted = outageRequests().filter((x) => x.status >= 200 && x.status < 300);
    const firstAccept = new Map<string, number>();
    for (const x of accepted) if (!firstAccept.has(x.id)) firstAccept.set(x.id, x.at);
    const drainedMs = Math.max(...firstAccept.values()) - upAt;
    expect(firstAccept.size).toBe(EVENTS);

    // Every request verifies; body id = webhook-id; all requests of an id carry the same body.
    const bodyOf = new Map<string, string>();
    for (const x of outageRequests()) {
      const b = verify(hook.secret, x);
      expect(b.id).toBe(x.id);
      expect(bodyOf.get(x.id) ?? x.body).toBe(x.body);
      bodyOf.set(x.id, x.body);
    }
    // 100 %: exactly the changes made, each under one id, no id for two changes.
    const idsOfChange = new Map<string, Set<string>>();
    const received: Body[] = [...firstAccept.keys()].map((id) => JSON.parse(bodyOf.get(id)!));
    for (const b of received) {
      const key = `${b.data.id} ${b.type}`;
      idsOfChange.set(key, (idsOfChange.get(key) ?? new Set()).add(b.id));
    }
    const expectedChanges = [...made].flatMap(([id, ts]) => ts.map((t) => `${id} ${t}`)).sort();
    expect([...idsOfChange.keys()].sort()).toEqual(expectedChanges);
    expect([...idsOfChange.values()].every((ids) => ids.size === 1)).toBe(true);
    const duplicates = [...r.accepted()].filter(([id, n]) => id !== baselineId && n > 1).length;

    // Order: the body's created_at (and the resource's updated_at) restore each resource's order;
    // arrival order is not promised and only reported.
    let outOfOrder = 0;
    for (const [resourceId, ts] of made) {
      const mine = received.filter((b) => b.data.id === resourceId);
      const byCreated = [...mine].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
      expect(byCreated.map((b) => b.type)).toEqual(ts);
      const createdAts = byCreated.map((b) => Date.parse(b.created_at));
      expect(new Set(createdAts).size).toBe(createdAts.length);
      const updated = byCreated.map((b) => Date.parse(b.data.updated_at!));
      expect(updated).toEqual([...updated].sort((a, b) => a - b));
      const arrival = mine.map((b) => b.type);
      if (arrival.join() !== ts.join()) outOfOrder++;
    }

    // The deliveries API: one delivery per event, every attempt, the final success.
    const items = await eventually(async () => {
      const all = (await deliveries(hook.id)).filter((d) => d.event_id !== baselineId);
      expect(all.map((d) => d.state)).toEqual(all.map(() => 'succeeded'));
      return all;
    }, 15_000);
    expect(items.map((d) => d.event_id).sort()).toEqual([...firstAccept.keys()].sort());
    const attemptCounts: number[] = [];
    for (const d of items) {
      const a = d.attempts as any[];
      attemptCounts.push(a.length);
      expect(d).toMatchObject({
        attempt_count: a.length,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        redelivery_of: null,
        completed_at: expect.any(String),
      });
      expect(a.length).toBeGreaterThanOrEqual(2);
      expect(a.map((x) => x.number)).toEqual(a.map((_, i) => i + 1));
      for (const x of a.slice(0, -1)) {
        expect(x).toMatchObject({ succeeded: false });
        expect(x.error).toMatch(o.failedAttempt);
      }
      expect(a.at(-1)).toMatchObject({ succeeded: true, status_code: 200, error: null });
      // The success is the return's (an attempt already on its way when the 503/hang receiver recovers may start just before).
      expect(Date.parse(a.at(-1).attempted_at)).toBeGreaterThanOrEqual(upAt - 1_000);
      // The backoff: each wait at least the schedule's (initial doubling, -10 % jitter).
      for (let k = 1; k < a.length; k++) {
        const base = Math.min(OUTAGE.policy.maxMs, OUTAGE.policy.initialMs * OUTAGE.policy.factor ** (k - 1));
        expect(Date.parse(a[k].attempted_at) - Date.parse(a[k - 1].attempted_at)).toBeGreaterThanOrEqual(
          Math.floor(0.9 * base) - 2,
        );
      }
      if (o.seesEveryAttempt) {
        const seen = r.byId(d.event_id);
        // An answer (503, or the 200 of a receiver just back) that reached the sender after its attempt
        // timeout is recorded as that timeout (status null): on a loaded machine the receiver's answer
        // can come later than the 500 ms floor. The receiver still saw that attempt, in order.
        const recorded = a.map((x, i) =>
          x.status_code === null && seen[i] && /^ETIMEDOUT/.test(x.error ?? '') ? seen[i].status : (x.status_code ?? 0),
        );
        expect(seen.map((x) => x.status)).toEqual(recorded);
      }
    }
    // No automatic disabling: the docs know only PATCH enabled=false.
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).body).toMatchObject({ enabled: true, disabled_at: null });

    // The drain is bounded by the backoff: after the return, a delivery waits at most the sleep it
    // is in, which (doubling, ±10 %) is at most ~1.25 × its age ≤ 1.25 × the outage.
    console.log(
      `[webhook-outage] ${o.label}: ${EVENTS} events made in ${madeMs} ms of a ${outageMs} ms outage ` +
        `(10 min compressed ×${OUTAGE_FACTOR}; policy ${JSON.stringify(OUTAGE.policy)}, timeout ${OUTAGE.timeoutMs} ms); ` +
        `backlog drained ${drainedMs} ms after the receiver came back (= ${((drainedMs * OUTAGE_FACTOR) / 60_000).toFixed(1)} min uncompressed); ` +
        `attempts per delivery ${summary(attemptCounts)}; ids accepted twice ${duplicates}; resources whose events arrived out of order ${outOfOrder}/${made.size}`,
    );
    expect(drainedMs).toBeLessThanOrEqual(1.25 * outageMs + TIMER_GRID_MS + 5_000);
    return drainedMs;
  }

  it('connection refused (port closed) for the outage: 100 % delivered afterwards, one id per event, each attempt listed', async () => {
    let rx!: Receiver;
    let port = 0;
    await outage({
      label: 'connection refused',
      start: async () => {
        rx = await receiver();
        port = rx.port;
        return { url: rx.url, rx: () => rx };
      },
      takeDown: () => rx.close(),
      bringBack: async () => {
        rx = await receiver(undefined, port);
      },
      // A closed port refuses at once; on a starved machine the attempt's timeout can fire before the
      // refusal is read (a CI run saw one ETIMEDOUT among the refusals), so either is a failed attempt.
      failedAttempt: new RegExp(`^(ECONNREFUSED|ETIMEDOUT: no answer within ${OUTAGE.timeoutMs} ms$)`),
      seesEveryAttempt: false,
    });
  }, 120_000);

  it('up but answering 503 or hanging past the timeout for the outage: 100 % delivered afterwards, every attempt seen under the same id', async () => {
    let down = false;
    const rx = await receiver((_, seen) =>
      !down ? { status: 200 } : seen % 2 === 0 ? { status: 503 } : { status: 0, hang: true },
    );
    await outage({
      label: '503 / no answer',
      start: async () => ({ url: rx.url, rx: () => rx }),
      takeDown: async () => {
        down = true;
      },
      bringBack: async () => {
        down = false;
      },
      failedAttempt: new RegExp(`^(HTTP 503|ETIMEDOUT: no answer within ${OUTAGE.timeoutMs} ms)$`),
      seesEveryAttempt: true,
    });
  }, 120_000);
});

describe('a receiver down past the give-up window (26 h compressed ×3600 to 26 s)', () => {
  const { call, receiver, subscribe, deliveries } = suite(GIVE_UP);

  it('fails each delivery after about 35 attempts within the window, sends nothing more by itself, keeps the webhook enabled; redeliver sends each under the same webhook-id', async () => {
    const port = await unusedPort();
    const hook = await subscribe(`http://127.0.0.1:${port}/hooks`, ['incident.created']);
    const made: string[] = [];
    for (let i = 0; i < 8; i++) made.push((await call('POST', '/v1/incidents', { title: `Long outage ${i}` })).body.id);
    const { giveUpAfterMs, maxMs } = GIVE_UP.policy;
    const failed = await eventually(
      async () => {
        const all = await deliveries(hook.id);
        expect(all).toHaveLength(made.length);
        expect(all.map((d) => d.state)).toEqual(all.map(() => 'failed'));
        return all;
      },
      giveUpAfterMs + 30_000,
      1_000,
    );
    const counts: number[] = [];
    const capWaits: number[] = [];
    for (const d of failed) {
      const a = d.attempts as any[];
      counts.push(a.length);
      expect(d).toMatchObject({
        attempt_count: a.length,
        last_status_code: null,
        next_attempt_at: null,
        completed_at: expect.any(String),
      });
      expect(d.last_error).toMatch(/^ECONNREFUSED/);
      expect(a.every((x) => !x.succeeded && x.status_code === null && /^ECONNREFUSED/.test(x.error))).toBe(true);
      // "About 35 attempts": compressed, the schedule would allow 32 (the 10 ms floor of the
      // first delay costs 3), but the dev server fires timers on a ~1 s grid (see TIMER_GRID_MS),
      // so the seven sub-second waits last about a second each and ~25 fit. What must hold is the
      // schedule: every wait at least the backoff's, and attempts until the window's end.
      expect(a.length).toBeGreaterThanOrEqual(15);
      expect(a.length).toBeLessThanOrEqual(40);
      for (let k = 1; k < a.length; k++) {
        const wait = Date.parse(a[k].attempted_at) - Date.parse(a[k - 1].attempted_at);
        expect(wait).toBeGreaterThanOrEqual(
          Math.floor(0.9 * Math.min(maxMs, GIVE_UP.policy.initialMs * 2 ** (k - 1))) - 2,
        );
        if (k >= 8) capWaits.push(wait);
      }
      // No attempt is planned later than the window after the first; it kept trying to near its end.
      // An attempt starts when its timer fires and its activity is picked up, which on a loaded
      // machine is up to several hundred ms after its plan (CI runs saw 232 and 657 ms), so this
      // bound allows most of a capped wait (maxMs); the exact rule (the last attempt may start at
      // the window's end, none after) is pinned in test/unit/webhook-retry.test.ts, and a
      // schedule that ignored the window is caught by the attempt count and the quiet after it.
      const span = Date.parse(a.at(-1).attempted_at) - Date.parse(a[0].attempted_at);
      expect(span).toBeLessThanOrEqual(giveUpAfterMs + 0.9 * maxMs);
      expect(span).toBeGreaterThanOrEqual(giveUpAfterMs - 1.1 * maxMs - 1_000);
    }
    expect((await deliveries(hook.id, '&state=failed')).map((d) => d.id).sort()).toEqual(
      failed.map((d) => d.id).sort(),
    );
    expect(await deliveries(hook.id, '&state=pending')).toEqual([]);
    expect((await call('GET', `/v1/webhooks/${hook.id}`)).body).toMatchObject({ enabled: true, disabled_at: null });

    // The receiver returns: a failed delivery is final, nothing arrives by itself…
    const rx = await receiver(undefined, port);
    const upAt = Date.now();
    await sleep(2_000);
    expect(rx.received).toHaveLength(0);
    // …new events are delivered (the webhook was not disabled)…
    const after = await call('POST', '/v1/incidents', { title: 'After the long outage' });
    await eventually(async () => expect(rx.accepted().size).toBe(1), 15_000);
    expect(verify(hook.secret, rx.received[0]!).data.id).toBe(after.body.id);
    // …and redeliver sends each failed one again: a new delivery, the same webhook-id and body.
    const redeliverAt = Date.now();
    const again = await Promise.all(
      failed.map((d) => call('POST', `/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`)),
    );
    for (const [i, res] of again.entries()) {
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({
        state: 'pending',
        redelivery_of: failed[i].id,
        event_id: failed[i].event_id,
        attempts: [],
      });
    }
    await eventually(async () => expect(rx.accepted().size).toBe(failed.length + 1), 15_000);
    const redeliveredMs = Date.now() - redeliverAt;
    for (const d of failed) {
      const got = rx.byId(d.event_id).filter((x) => x.status === 200);
      expect(got.length).toBeGreaterThanOrEqual(1);
      const b = verify(hook.secret, got[0]!);
      expect(b).toMatchObject({ id: d.event_id, type: 'incident.created' });
      expect(made).toContain(b.data.id);
    }
    expect(new Set(failed.map((d) => JSON.parse(rx.byId(d.event_id)[0]!.body).data.id))).toEqual(new Set(made));
    await eventually(async () => {
      const byId = new Map((await deliveries(hook.id)).map((d) => [d.id, d]));
      for (const res of again)
        expect(byId.get(res.body.id)).toMatchObject({
          state: 'succeeded',
          attempt_count: 1,
          redelivery_of: expect.any(String),
        });
      for (const d of failed) expect(byId.get(d.id)!.state).toBe('failed');
    }, 15_000);
    console.log(
      `[webhook-outage] past give-up (26 h compressed ×${GIVE_UP_FACTOR}; policy ${JSON.stringify(GIVE_UP.policy)}): ` +
        `${failed.length} deliveries failed after attempts ${summary(counts)} (waits at the ${maxMs} ms cap: ${summary(capWaits)} ms); nothing sent by itself in the 2 s after the return ` +
        `(${Date.now() - upAt} ms ago); redelivered all in ${redeliveredMs} ms`,
    );
  }, 120_000);
});
