import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

/**
 * Confirmation as ingest applies it, with an agent as the metric's one location (each
 * agent sample is a round with one vote). Cloud rounds with several locations are in
 * test/temporal/probe-locations.test.ts; both store through the same statement.
 */
let api: ApiHarness;
let org: OrgFixture<never, 'Shop'>;
let other: OrgFixture<never, 'Elsewhere'>;
let agent: { id: string; token: string };

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 100,
  unhealthy_operation: 'over',
  unhealthy_value: 200,
};
const V = { healthy: 50, degraded: 150, unhealthy: 250 } as const;

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Shop'] });
  other = await orgWithKeys(api, { plan: 'enterprise', services: ['Elsewhere'] });
  agent = (await call('POST', '/v1/agents', { name: 'edge' })).body;
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);
const DAY = 86_400_000;
/** Yesterday 01:00 UTC: within SAMPLE_MAX_AGE, and a whole past day for uptime. */
const base = Math.floor(Date.now() / DAY) * DAY - DAY + 3_600_000;
const at = (s: number) => new Date(base + s * 1000).toISOString();

async function newMetric(name: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', '/v1/metrics', {
    service_id: org.services.Shop,
    name,
    source_type: 'tcp',
    source_config: { host: 'db.internal', port: 5432 },
    thresholds: THRESHOLDS,
    interval_seconds: 60,
    agent_id: agent.id,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function post(metricId: string, s: number, value: number | null, reason?: string) {
  const res = await api.request('POST', '/v1/agent/samples', {
    headers: { authorization: `Bearer ${agent.token}` },
    body: { samples: [{ metric_id: metricId, sampled_at: at(s), value, ...(reason ? { reason } : {}) }] },
  });
  expect(res.status).toBe(200);
  return res.body as { accepted: number; flips: number };
}

const get = async (id: string) => (await call('GET', `/v1/metrics/${id}`)).body;
const flips = async (id: string) => (await call('GET', `/v1/metrics/${id}/flips?limit=50`)).body.items as any[];
const events = async (id: string) =>
  (
    await api.orm.em
      .getConnection()
      .execute(
        `select payload from outbox_events where type = 'metric.status_changed' and resource_id = ? order by created_at, payload->>'last_sample_at'`,
        [id],
      )
  ).map((r: any) => r.payload);

describe('confirmed status on ingest', () => {
  it('new measured metrics default to majority, 2 failures, 2 recoveries, no recheck; pushed metrics have none and refuse one', async () => {
    const m = await newMetric('defaults');
    expect(m).toMatchObject({
      locations: null,
      confirmation: { quorum: 'majority', failures: 2, recoveries: 2, recheck: false },
    });
    const manual = await call('POST', '/v1/metrics', {
      service_id: org.services.Shop,
      name: 'by hand',
      source_type: 'manual',
      source_config: {},
    });
    expect(manual.status).toBe(201);
    expect(manual.body).toMatchObject({ locations: null, confirmation: null });
    const refused = await call('POST', '/v1/metrics', {
      service_id: org.services.Shop,
      name: 'by hand 2',
      source_type: 'manual',
      source_config: {},
      confirmation: { failures: 3 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'confirmation' })]);
  });

  it('flips only after `failures` consecutive failing rounds, dated at the first of them, with every round’s votes; recovers after `recoveries`', async () => {
    // A day's interval: a reading from yesterday is still the location's current one (not offline).
    const m = await newMetric('checkout', { interval_seconds: 86_400 });
    // From "never measured", a good reading shows at once.
    expect(await post(m.id, 0, V.healthy)).toMatchObject({ flips: 1 });
    expect((await get(m.id)).status).toBe('healthy');
    const eventsBefore = (await events(m.id)).length;

    // One failing round: pending, nothing flips, nothing is sent.
    expect(await post(m.id, 60, V.unhealthy)).toMatchObject({ flips: 0 });
    let view = await get(m.id);
    expect(view).toMatchObject({ status: 'healthy', availability: 'up', status_since: at(0) });
    expect(view.confirmation_pending).toEqual({
      to_status: 'unhealthy',
      reason_class: null,
      rounds: 1,
      needed: 2,
      since: at(60),
      summary: 'failing 1 of 2',
    });
    expect(view.location_readings).toEqual([
      {
        location: `agent:${agent.id}`,
        label: 'edge',
        value: V.unhealthy,
        status: 'unhealthy',
        reason: null,
        reason_class: null,
        at: at(60),
        offline: false,
      },
    ]);
    expect(await events(m.id)).toHaveLength(eventsBefore);

    // The second confirms it: the outage began at the first failing round.
    expect(await post(m.id, 120, V.unhealthy)).toMatchObject({ flips: 1 });
    view = await get(m.id);
    expect(view).toMatchObject({
      status: 'unhealthy',
      availability: 'down',
      status_since: at(60),
      last_sample_at: at(120),
      confirmation_pending: null,
    });
    const [flip] = await flips(m.id);
    expect(flip).toMatchObject({
      from_status: 'healthy',
      to_status: 'unhealthy',
      at: at(60),
      confirmed_at: at(120),
      confirmations: 2,
      value: V.unhealthy,
    });
    expect(flip.rounds).toEqual([
      {
        at: at(60),
        votes: [{ location: `agent:${agent.id}`, value: V.unhealthy, reason: null, status: 'unhealthy', at: at(60) }],
      },
      {
        at: at(120),
        votes: [{ location: `agent:${agent.id}`, value: V.unhealthy, reason: null, status: 'unhealthy', at: at(120) }],
      },
    ]);
    const sent = (await events(m.id)).at(-1);
    expect(sent).toMatchObject({
      status: 'unhealthy',
      previous_status: 'healthy',
      status_since: at(60),
      flip: { at: at(60), confirmed_at: at(120), confirmations: 2, rounds: flip.rounds },
    });

    // Recovery needs two good rounds too; one is pending.
    await post(m.id, 180, V.healthy);
    view = await get(m.id);
    expect(view).toMatchObject({
      status: 'unhealthy',
      confirmation_pending: { to_status: 'healthy', rounds: 1, needed: 2, summary: 'recovering 1 of 2' },
    });
    await post(m.id, 240, V.healthy);
    expect(await get(m.id)).toMatchObject({ status: 'healthy', status_since: at(180), confirmation_pending: null });
    expect((await flips(m.id)).map((f) => `${f.from_status}→${f.to_status}@${f.at}`)).toEqual([
      `unhealthy→healthy@${at(180)}`,
      `healthy→unhealthy@${at(60)}`,
      `no_data→healthy@${at(0)}`,
    ]);
  });

  it('counts the minutes from the first failing round as down: the service uptime equals that of the same samples counted at once', async () => {
    const day = new Date(base).toISOString().slice(0, 10);
    const uptimeWith = async (confirmation: Record<string, number>) => {
      const service = await call('POST', '/v1/services', { name: `Uptime ${JSON.stringify(confirmation)}` });
      const m = await newMetric('uptime', { service_id: service.body.id, confirmation });
      // Healthy, down from 600 s (confirmed at 660 s with failures 2), back at 1200 s (confirmed at 1260 s).
      for (const [s, v] of [
        [0, V.healthy],
        [600, V.unhealthy],
        [660, V.unhealthy],
        [1200, V.healthy],
        [1260, V.healthy],
      ] as const)
        await post(m.id, s, v);
      expect((await flips(m.id)).map((f) => f.at)).toEqual([at(1200), at(600), at(0)]);
      return (await call('GET', `/v1/services/${service.body.id}`)).body.uptime.find(
        (u: { date: string }) => u.date === day,
      ).uptime_pct;
    };
    const confirmed = await uptimeWith({ failures: 2, recoveries: 2 });
    expect(Number(confirmed)).toBeLessThan(100);
    expect(confirmed).toBe(await uptimeWith({ failures: 1, recoveries: 1 }));
  });

  it('never flips a flapping metric with failures 3; a target-class no value fails like unhealthy; a measurement gap shows at once', async () => {
    const m = await newMetric('flappy', { confirmation: { failures: 3 } });
    expect(m.confirmation).toEqual({ quorum: 'majority', failures: 3, recoveries: 2, recheck: false });
    await post(m.id, 0, V.healthy);
    for (let i = 1; i <= 8; i++) await post(m.id, i * 60, i % 2 ? V.unhealthy : V.healthy);
    expect((await flips(m.id)).map((f) => f.to_status)).toEqual(['healthy']);
    expect((await get(m.id)).status).toBe('healthy');

    // Refused three times: an outage (no_data of a target reason), dated at the first refusal.
    for (const s of [600, 660, 720]) await post(m.id, s, null, 'ECONNREFUSED');
    expect(await get(m.id)).toMatchObject({
      status: 'no_data',
      reason: 'ECONNREFUSED',
      reason_class: 'target',
      availability: 'down',
      status_since: at(600),
    });

    // A measurement gap (a missing secret) is neither an outage nor a recovery: it shows at once.
    await post(m.id, 780, null, 'header_ref_missing');
    expect(await get(m.id)).toMatchObject({
      status: 'no_data',
      reason: 'header_ref_missing',
      reason_class: 'measurement',
      availability: 'unmeasured',
      confirmation_pending: null,
    });
    // And the first good reading after a gap shows at once too.
    await post(m.id, 840, V.healthy);
    expect((await get(m.id)).status).toBe('healthy');
  });

  it('applies confirmation once when the same rounds arrive twice at the same time (an agent retrying): one flip, one event', async () => {
    const m = await newMetric('concurrent');
    await post(m.id, 0, V.healthy);
    const both = async () => {
      const res = await api.request('POST', '/v1/agent/samples', {
        headers: { authorization: `Bearer ${agent.token}` },
        body: { samples: [60, 120].map((s) => ({ metric_id: m.id, sampled_at: at(s), value: V.unhealthy })) },
      });
      return res.body as { flips: number };
    };
    const [a, b] = await Promise.all([both(), both()]);
    expect(a.flips + b.flips).toBe(1);
    expect((await events(m.id)).filter((e) => e.status === 'unhealthy')).toHaveLength(1);
    expect((await flips(m.id)).map((f) => `${f.to_status}@${f.at}`)).toEqual([
      `unhealthy@${at(60)}`,
      `healthy@${at(0)}`,
    ]);
  });

  it('changes confirmation field by field on PATCH, resets it with null, and checks locations', async () => {
    const m = await newMetric('patched');
    let res = await call('PATCH', `/v1/metrics/${m.id}`, { confirmation: { recoveries: 5, recheck: true } });
    expect(res.status).toBe(200);
    expect(res.body.confirmation).toEqual({ quorum: 'majority', failures: 2, recoveries: 5, recheck: true });
    res = await call('PATCH', `/v1/metrics/${m.id}`, { confirmation: null });
    expect(res.body.confirmation).toEqual({ quorum: 'majority', failures: 2, recoveries: 2, recheck: false });
    res = await call('PATCH', `/v1/metrics/${m.id}`, { confirmation: { failures: 0 } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('confirmation.failures');

    // An agent metric is measured by its agent alone; it may name it (as a string or as GET answers it).
    expect((await call('PATCH', `/v1/metrics/${m.id}`, { locations: [`agent:${agent.id}`] })).body.locations).toEqual([
      `agent:${agent.id}`,
    ]);
    expect(
      (await call('PATCH', `/v1/metrics/${m.id}`, { locations: [{ id: `agent:${agent.id}`, label: 'edge' }] })).body
        .locations,
    ).toEqual([`agent:${agent.id}`]);
    res = await call('PATCH', `/v1/metrics/${m.id}`, { locations: ['eu-central'] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'locations[0]' })]);

    // A cloud metric: unknown locations, another organization's agent, duplicates and a quorum above the locations are refused with their paths.
    const foreign = (await other.call('POST', '/v1/agents', { name: 'theirs' })).body;
    res = await call('POST', '/v1/metrics', {
      service_id: org.services.Shop,
      name: 'cloud',
      source_type: 'http',
      source_config: { url: 'https://example.com/' },
      thresholds: THRESHOLDS,
      locations: ['nowhere-1', `agent:${foreign.id}`, 'nowhere-1', 'Bad Id'],
      confirmation: { quorum: 9 },
    });
    expect(res.status).toBe(400);
    expect([...new Set(res.body.errors.map((e: { path: string }) => e.path))].sort()).toEqual(
      ['confirmation.quorum', 'locations[0]', 'locations[1]', 'locations[2]', 'locations[3]'].sort(),
    );
    expect(res.body.errors.find((e: { path: string }) => e.path === 'locations[1]').message).toMatch(/No such agent/);
  });

  it('quotes the confirming votes in an incident drafted from the flip', async () => {
    const m = await newMetric('drafted', { unit: 'ms' });
    await post(m.id, 0, V.healthy);
    await post(m.id, 60, null, 'ECONNREFUSED');
    await post(m.id, 120, V.unhealthy);
    const draft = await call('POST', `/v1/incidents/from-metric/${m.id}`);
    expect(draft.status).toBe(201);
    // The evidence is internal; the first message is for customers and quotes none of it.
    const note = draft.body.internal_note;
    expect(note).toContain(`since ${at(60)}`);
    expect(note).toContain(`Confirmed by 1 of 1 location over 2 rounds (agent:${agent.id}: unhealthy 250 ms).`);
    expect(draft.body.messages[0].body).not.toContain('Confirmed by');
    expect(draft.body.messages[0].body).not.toContain(agent.id);
  });

  it('lets an agent vote on a cloud metric that lists it: the metric is in its config, its answers are location readings (not samples)', async () => {
    // A registered cloud location (as a prober's heartbeat would record it).
    await api.orm.em
      .getConnection()
      .execute(
        `insert into probe_locations (task_queue, id, label, version, heartbeat_seconds, started_at, last_seen_at) values ('confirmation-test', 'eu-test', 'Test region', 'test', 10, now(), now()) on conflict do nothing`,
      );
    const res = await call('POST', '/v1/metrics', {
      service_id: org.services.Shop,
      name: 'public shop',
      source_type: 'http',
      source_config: { url: 'https://shop.example.com/health' },
      thresholds: THRESHOLDS,
      interval_seconds: 86_400,
      locations: ['eu-test', { id: `agent:${agent.id}` }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ agent_id: null, mode: 'cloud', locations: ['eu-test', `agent:${agent.id}`] });
    const config = await api.request('GET', '/v1/agent/config', {
      headers: { authorization: `Bearer ${agent.token}` },
    });
    expect(config.body.metrics.map((m: { metric_id: string }) => m.metric_id)).toContain(res.body.id);

    expect(await post(res.body.id, 30, null, 'ECONNREFUSED')).toMatchObject({ accepted: 1, flips: 0 });
    expect(await post(res.body.id, 20, V.healthy)).toMatchObject({ accepted: 1, flips: 0 });
    const view = await get(res.body.id);
    // Not a sample: the metric waits for its round; the agent's newest answer is its reading.
    expect(view).toMatchObject({ status: 'no_data', last_sample_at: null, history: [] });
    expect(view.location_readings).toEqual([
      {
        location: `agent:${agent.id}`,
        label: 'edge',
        value: null,
        status: 'no_data',
        reason: 'ECONNREFUSED',
        reason_class: 'target',
        at: at(30),
        offline: false,
      },
      {
        location: 'eu-test',
        label: 'Test region',
        value: null,
        status: 'no_data',
        reason: 'location_offline',
        reason_class: 'measurement',
        at: null,
        offline: true,
      },
    ]);
    // Another organization's agent cannot post for it.
    const theirs = (await other.call('POST', '/v1/agents', { name: 'intruder' })).body;
    const intruder = await api.request('POST', '/v1/agent/samples', {
      headers: { authorization: `Bearer ${theirs.token}` },
      body: { samples: [{ metric_id: res.body.id, sampled_at: at(40), value: 1 }] },
    });
    expect(intruder.body).toMatchObject({ accepted: 0, rejected: [{ index: 0, reason: 'unknown_metric' }] });
  });

  it('confirms late and imported samples like live ones, and keeps the votes of the flips a rebuild finds again', async () => {
    const m = await newMetric('late and imported');
    for (const s of [0, 120, 180]) await post(m.id, s, s === 0 ? V.healthy : V.unhealthy);
    const [live] = await flips(m.id);
    expect(live).toMatchObject({ to_status: 'unhealthy', at: at(120), confirmations: 2 });
    // A late healthy sample at 60 s changes nothing (the flip keeps its votes); a late unhealthy one
    // at 90 s starts the failing run earlier: the outage begins at 90 s, confirmed by the 120 s round.
    await post(m.id, 60, V.healthy);
    expect((await flips(m.id))[0]).toMatchObject({
      to_status: 'unhealthy',
      at: at(120),
      confirmations: 2,
      rounds: live.rounds,
    });
    await post(m.id, 90, V.unhealthy);
    const [rebuilt] = await flips(m.id);
    expect(rebuilt).toMatchObject({ to_status: 'unhealthy', at: at(90), confirmed_at: at(120), confirmations: 2 });
    expect(rebuilt.rounds.map((r: { at: string }) => r.at)).toEqual([at(90), at(120)]);
    expect(await get(m.id)).toMatchObject({ status: 'unhealthy', status_since: at(90) });

    // An import: a one-sample blip is no outage under failures 2; a two-sample run is, from its first sample.
    const imported = await newMetric('imported');
    const res = await call('POST', `/v1/metrics/${imported.id}/samples/import`, {
      samples: [
        [-600, V.healthy],
        [-540, V.unhealthy],
        [-480, V.healthy],
        [-420, V.unhealthy],
        [-360, V.unhealthy],
        [-300, V.healthy],
        [-240, V.healthy],
      ].map(([s, value]) => ({ sampled_at: at(s!), value })),
    });
    expect(res.status).toBe(200);
    expect((await flips(imported.id)).map((f) => `${f.to_status}@${f.at}`)).toEqual([
      `healthy@${at(-300)}`,
      `unhealthy@${at(-420)}`,
      `healthy@${at(-600)}`,
    ]);
  });

  it('lists flips newest first, cursor-paged, and never another organization’s', async () => {
    const m = await newMetric('paged', { confirmation: { failures: 1, recoveries: 1 } });
    for (let i = 0; i < 5; i++) await post(m.id, i * 60, i % 2 ? V.unhealthy : V.healthy);
    const first = (await call('GET', `/v1/metrics/${m.id}/flips?limit=2`)).body;
    expect(first.items).toHaveLength(2);
    const second = (await call('GET', `/v1/metrics/${m.id}/flips?limit=2&cursor=${first.next_cursor}`)).body;
    const third = (await call('GET', `/v1/metrics/${m.id}/flips?limit=2&cursor=${second.next_cursor}`)).body;
    expect([...first.items, ...second.items, ...third.items].map((f: any) => f.at)).toEqual(
      [4, 3, 2, 1, 0].map((i) => at(i * 60)),
    );
    expect(third.next_cursor).toBeNull();
    expect((await other.call('GET', `/v1/metrics/${m.id}/flips`)).status).toBe(404);
    expect((await call('GET', `/v1/metrics/${m.id}/flips?cursor=nope`)).status).toBe(400);
  });
});
