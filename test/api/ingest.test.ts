import type { EntityManager } from '@mikro-orm/postgresql';
import { commitSamples } from '../../src/usecases/metrics/ingest';
import { SampleBatcher } from '../../src/usecases/metrics/sample-batcher';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

/**
 * Agent sample batches as the API stores them: evaluation, the latest outcome, flips in time
 * order, day rollups, retries, late samples, rejections, and concurrent batches of the same
 * metrics. Checked against the rows in PostgreSQL.
 */
let api: ApiHarness;
let org: OrgFixture<never, 'Ingest'>;
let agent: { id: string; token: string };
let otherAgent: { id: string; token: string };

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 100,
  unhealthy_operation: 'over',
  unhealthy_value: 200,
};
/** Values by status under THRESHOLDS. */
const V = { healthy: 50, degraded: 150, unhealthy: 250 } as const;
type Status = keyof typeof V;

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Ingest'] });
  agent = (await call('POST', '/v1/agents', { name: 'edge' })).body;
  otherAgent = (await call('POST', '/v1/agents', { name: 'other' })).body;
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);

/** Every sample counts at once (failures and recoveries 1, as metrics from before issue 25): these tests are about the store statement; test/api/confirmation.test.ts covers confirmation. */
async function newMetric(name: string, agentId = agent.id): Promise<string> {
  const res = await call('POST', '/v1/metrics', {
    service_id: org.services.Ingest,
    name,
    source_type: 'tcp',
    source_config: { host: 'db.internal', port: 5432 },
    thresholds: THRESHOLDS,
    interval_seconds: 60,
    agent_id: agentId,
    confirmation: { failures: 1, recoveries: 1 },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

interface Sample {
  metric_id: string;
  sampled_at: string;
  value: number | null;
  reason?: string | null;
}

async function post(samples: Sample[], token = agent.token) {
  const res = await api.request('POST', '/v1/agent/samples', {
    headers: { authorization: `Bearer ${token}` },
    body: { samples },
  });
  expect(res.status).toBe(200);
  return res.body as {
    accepted: number;
    rejected: { index: number; metric_id: string; reason: string }[];
    flips: number;
  };
}

const sql = async <T = any>(text: string, params: unknown[] = []) =>
  (await api.orm.em.getConnection().execute(text, params)) as T[];
const flipsOf = async (metricId: string) =>
  (
    await sql<{
      from_status: string;
      to_status: string;
      at: string;
      value: number | null;
      reason_class: string | null;
    }>(
      `select from_status, to_status, at, value, reason_class from metric_status_flips where metric_id = ? order by at`,
      [metricId],
    )
  ).map((f) => ({ ...f, at: new Date(f.at) }));
const rollupsOf = (metricId: string) =>
  sql<{ day: string; samples: number; healthy: number; degraded: number; unhealthy: number; no_data: number }>(
    `select to_char(day, 'YYYY-MM-DD') as day, samples, healthy, degraded, unhealthy, no_data from metric_daily_rollups where metric_id = ? order by day`,
    [metricId],
  );
const eventsOf = (metricId: string) =>
  sql<{ payload: any }>(
    `select payload from outbox_events where type = 'metric.status_changed' and resource_id = ? order by (payload->>'last_sample_at')`,
    [metricId],
  );
const samplesOf = async (metricId: string) =>
  Number((await sql<{ n: string }>(`select count(*) as n from metric_samples where metric_id = ?`, [metricId]))[0]!.n);

/** The newest event's payload is the metric exactly as the API shows it, plus previous_status and previous_availability. */
async function expectLastEventIsTheView(metricId: string): Promise<void> {
  const payloads = (await eventsOf(metricId)).map((e) => e.payload);
  const { previous_status, previous_availability, flip, ...payload } = payloads.at(-1);
  expect(typeof previous_status).toBe('string');
  // The flip's evidence: when it began, when it was confirmed, the rounds' votes.
  expect(flip).toMatchObject({
    at: expect.any(String),
    confirmed_at: payload.last_sample_at,
    confirmations: expect.any(Number),
    rounds: expect.any(Array),
  });
  expect(['up', 'down', 'unmeasured']).toContain(previous_availability);
  const view = (await call('GET', `/v1/metrics/${metricId}`)).body;
  expect(payload).toEqual(Object.fromEntries(Object.keys(payload).map((k) => [k, view[k]])));
  expect(Object.keys(payload).sort()).toEqual(
    Object.keys(view)
      .filter((k) => k !== 'recent_samples' && k !== 'history' && payload[k] !== undefined)
      .sort(),
  );
}

const DAY = 86_400_000;
/** Two seconds before yesterday (UTC): two UTC days in one batch, and within SAMPLE_MAX_AGE. */
const base = Math.floor(Date.now() / DAY) * DAY - DAY - 2_000;
const at = (s: number) => new Date(base + s * 1000).toISOString();
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const [day1, day2] = [dayOf(base), dayOf(base + DAY)];

describe('POST /v1/agent/samples stores, evaluates and flips', () => {
  it('walks a shuffled batch in time order: flips, latest outcome, status_since, rollups by UTC day and one event per flip', async () => {
    const a = await newMetric('a');
    const b = await newMetric('b');
    // a: healthy, healthy, unhealthy, degraded, healthy (4 flips); b: no_data (with reason, as it starts: no flip), unhealthy (1).
    const batch: Sample[] = [
      { metric_id: a, sampled_at: at(3), value: V.degraded },
      { metric_id: b, sampled_at: at(2), value: V.unhealthy },
      { metric_id: a, sampled_at: at(0), value: V.healthy },
      { metric_id: a, sampled_at: at(4), value: V.healthy },
      { metric_id: b, sampled_at: at(1), value: null, reason: 'connection_refused' },
      { metric_id: a, sampled_at: at(2), value: V.unhealthy },
      { metric_id: a, sampled_at: at(1), value: V.healthy },
    ];
    expect(await post(batch)).toEqual({ accepted: 7, rejected: [], flips: 5 });

    // A new metric starts as no_data: its first sample is a flip.
    expect((await flipsOf(a)).map((f) => `${f.from_status}→${f.to_status}@${f.at.toISOString()}`)).toEqual([
      `no_data→healthy@${at(0)}`,
      `healthy→unhealthy@${at(2)}`,
      `unhealthy→degraded@${at(3)}`,
      `degraded→healthy@${at(4)}`,
    ]);
    expect((await flipsOf(b)).map((f) => `${f.from_status}→${f.to_status}`)).toEqual(['no_data→unhealthy']);

    const ma = (await call('GET', `/v1/metrics/${a}`)).body;
    expect(ma).toMatchObject({
      status: 'healthy',
      current_value: V.healthy,
      last_sample_at: at(4),
      status_since: at(4),
      reason: null,
    });
    const mb = (await call('GET', `/v1/metrics/${b}`)).body;
    expect(mb).toMatchObject({
      status: 'unhealthy',
      current_value: V.unhealthy,
      last_sample_at: at(2),
      status_since: at(2),
    });

    // at(0), at(1) fall on the day before yesterday; the rest on yesterday (UTC).
    expect(await rollupsOf(a)).toEqual([
      { day: day1, samples: 2, healthy: 2, degraded: 0, unhealthy: 0, no_data: 0 },
      { day: day2, samples: 3, healthy: 1, degraded: 1, unhealthy: 1, no_data: 0 },
    ]);
    expect(await rollupsOf(b)).toEqual([
      { day: day1, samples: 1, healthy: 0, degraded: 0, unhealthy: 0, no_data: 1 },
      { day: day2, samples: 1, healthy: 0, degraded: 0, unhealthy: 1, no_data: 0 },
    ]);

    const events = (await eventsOf(a)).map((e) => e.payload);
    expect(events.map((p) => `${p.previous_status}→${p.status}`)).toEqual([
      'no_data→healthy',
      'healthy→unhealthy',
      'unhealthy→degraded',
      'degraded→healthy',
    ]);
    expect(events[1]).toMatchObject({
      id: a,
      service_id: org.services.Ingest,
      name: 'a',
      source_type: 'tcp',
      agent_id: agent.id,
      mode: 'agent',
      current_value: V.unhealthy,
      last_sample_at: at(2),
      status_since: at(2),
      thresholds: THRESHOLDS,
    });
    expect(events[1].updated_at >= ma.created_at).toBe(true);
    await expectLastEventIsTheView(a);
    await expectLastEventIsTheView(b);
  });

  it('records no_data with its reason, and a null current_value in the event', async () => {
    const m = await newMetric('nodata');
    expect(
      await post([
        { metric_id: m, sampled_at: at(0), value: 10 },
        { metric_id: m, sampled_at: at(1), value: null, reason: 'dns_error' },
      ]),
    ).toMatchObject({ flips: 2 });
    expect((await call('GET', `/v1/metrics/${m}`)).body).toMatchObject({
      status: 'no_data',
      current_value: null,
      reason: 'dns_error',
      reason_label: expect.any(String),
    });
    const last = (await eventsOf(m)).map((e) => e.payload).find((p) => p.status === 'no_data');
    expect(last).toMatchObject({
      previous_status: 'healthy',
      current_value: null,
      reason: 'dns_error',
      reason_label: expect.any(String),
      reason_hint: expect.any(String),
    });
    await expectLastEventIsTheView(m);
    // No reason given: the no_data reason itself is described.
    await post([
      { metric_id: m, sampled_at: at(2), value: 10 },
      { metric_id: m, sampled_at: at(3), value: null },
    ]);
    expect((await eventsOf(m)).at(-1)!.payload).toMatchObject({
      status: 'no_data',
      reason: 'no_data',
      reason_label: expect.any(String),
    });
    await expectLastEventIsTheView(m);
  });

  it('stores the reason class of a no_data reading on the sample, the metric, the flip and the event: a refused connection after healthy is an outage starting', async () => {
    const m = await newMetric('refused');
    expect(
      await post([
        { metric_id: m, sampled_at: at(0), value: V.healthy },
        { metric_id: m, sampled_at: at(1), value: null, reason: 'ECONNREFUSED' },
      ]),
    ).toMatchObject({ flips: 2 });
    expect((await flipsOf(m)).map((f) => `${f.from_status}→${f.to_status}/${f.reason_class}`)).toEqual([
      'no_data→healthy/null',
      'healthy→no_data/target',
    ]);
    const view = (await call('GET', `/v1/metrics/${m}`)).body;
    expect(view).toMatchObject({
      status: 'no_data',
      current_value: null,
      reason: 'ECONNREFUSED',
      reason_class: 'target',
      availability: 'down',
      status_since: at(1),
    });
    expect(view.history.map((h: { reason_class: string | null }) => h.reason_class)).toEqual(['target', null]);
    expect((await sql(`select reason_class from metrics where id = ?`, [m]))[0]).toEqual({ reason_class: 'target' });
    const stored = await sql<{ reason_class: string | null; received_at: string | null; imported: boolean }>(
      `select reason_class, received_at, imported from metric_samples where metric_id = ? order by sampled_at`,
      [m],
    );
    expect(stored.map((r) => [r.reason_class, r.received_at !== null, r.imported])).toEqual([
      [null, true, false],
      ['target', true, false],
    ]);
    expect((await eventsOf(m)).at(-1)!.payload).toMatchObject({
      previous_status: 'healthy',
      status: 'no_data',
      reason: 'ECONNREFUSED',
      reason_class: 'target',
      previous_availability: 'up',
      availability: 'down',
    });
    await expectLastEventIsTheView(m);
    // A reading with a value has no class, in the event as in the view.
    await post([{ metric_id: m, sampled_at: at(2), value: V.healthy }]);
    expect((await eventsOf(m)).at(-1)!.payload).toMatchObject({
      previous_status: 'no_data',
      status: 'healthy',
      reason_class: null,
    });
    await expectLastEventIsTheView(m);
  });

  it('stores a change of reason class within no_data (measurement ↔ target) as a flip and a status_changed event (an outage starting or ending); status_since stays', async () => {
    const m = await newMetric('classes');
    // A new metric is no_data (a measurement gap) until its first sample: a measurement reason changes nothing.
    expect(await post([{ metric_id: m, sampled_at: at(0), value: null, reason: 'header_ref_missing' }])).toMatchObject({
      flips: 0,
    });
    expect(
      await post([
        { metric_id: m, sampled_at: at(1), value: null, reason: 'ETIMEDOUT' },
        { metric_id: m, sampled_at: at(2), value: null, reason: 'ECONNRESET' },
      ]),
    ).toMatchObject({ flips: 1 });
    const created = (await call('GET', `/v1/metrics/${m}`)).body.created_at;
    expect(await post([{ metric_id: m, sampled_at: at(3), value: null, reason: 'stale_agent_silent' }])).toMatchObject({
      flips: 1,
    });
    await expectLastEventIsTheView(m);
    expect(
      (await flipsOf(m)).map((f) => `${f.from_status}→${f.to_status}/${f.reason_class}@${f.at.toISOString()}`),
    ).toEqual([`no_data→no_data/target@${at(1)}`, `no_data→no_data/measurement@${at(3)}`]);
    // The availability changed: a receiver learns the outage started, then ended into a gap.
    expect((await eventsOf(m)).map((e) => e.payload)).toEqual([
      expect.objectContaining({
        previous_status: 'no_data',
        status: 'no_data',
        reason: 'ETIMEDOUT',
        reason_class: 'target',
        previous_availability: 'unmeasured',
        availability: 'down',
        status_since: created,
      }),
      expect.objectContaining({
        previous_status: 'no_data',
        status: 'no_data',
        reason: 'stale_agent_silent',
        reason_class: 'measurement',
        previous_availability: 'down',
        availability: 'unmeasured',
        status_since: created,
      }),
    ]);
    // The status never changed: status_since is still the metric's creation.
    const view = (await call('GET', `/v1/metrics/${m}`)).body;
    expect(view).toMatchObject({
      status: 'no_data',
      reason: 'stale_agent_silent',
      reason_class: 'measurement',
      status_since: created,
    });
  });

  it('rejects, one by one, agent samples older than SAMPLE_MAX_AGE (7 days by default) as sampled_too_old', async () => {
    const m = await newMetric('old');
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const res = await post([
      { metric_id: m, sampled_at: ago(8 * DAY), value: V.unhealthy },
      { metric_id: m, sampled_at: ago(6 * DAY), value: V.healthy },
      { metric_id: m, sampled_at: '1970-01-01T00:00:00.000Z', value: V.unhealthy },
    ]);
    expect(res).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, metric_id: m, reason: 'sampled_too_old' },
        { index: 2, metric_id: m, reason: 'sampled_too_old' },
      ],
      flips: 1,
    });
    expect(await samplesOf(m)).toBe(1);
    expect((await flipsOf(m)).map((f) => f.to_status)).toEqual(['healthy']);
  });

  it('writes the same event for push metrics (manual status), whose mode is push', async () => {
    const created = await call('POST', '/v1/metrics', {
      service_id: org.services.Ingest,
      name: 'By hand',
      source_type: 'manual',
      source_config: {},
      unit: 'x',
    });
    expect(created.status).toBe(201);
    expect((await call('POST', `/v1/metrics/${created.body.id}/status`, { status: 'degraded' })).status).toBe(200);
    expect((await eventsOf(created.body.id)).at(-1)!.payload).toMatchObject({
      mode: 'push',
      status: 'degraded',
      previous_status: 'no_data',
      unit: 'x',
    });
    await expectLastEventIsTheView(created.body.id);
  });

  it('changes nothing when a batch is retried', async () => {
    const m = await newMetric('retry');
    const batch: Sample[] = [0, 1, 2, 3].map((s) => ({
      metric_id: m,
      sampled_at: at(s),
      value: s % 2 ? V.unhealthy : V.healthy,
    }));
    expect(await post(batch)).toEqual({ accepted: 4, rejected: [], flips: 4 });
    const before = {
      flips: await flipsOf(m),
      rollups: await rollupsOf(m),
      events: (await eventsOf(m)).length,
      metric: (await call('GET', `/v1/metrics/${m}`)).body,
    };
    expect(await post(batch)).toEqual({ accepted: 4, rejected: [], flips: 0 });
    expect(await flipsOf(m)).toEqual(before.flips);
    expect(await rollupsOf(m)).toEqual(before.rollups);
    expect((await eventsOf(m)).length).toBe(before.events);
    expect(await samplesOf(m)).toBe(4);
    expect((await call('GET', `/v1/metrics/${m}`)).body).toMatchObject({
      status: before.metric.status,
      last_sample_at: before.metric.last_sample_at,
      status_since: before.metric.status_since,
    });
  });

  it('keeps and counts a late sample, rebuilds the flips from it (no event), and keeps the latest outcome', async () => {
    const m = await newMetric('late');
    await post([{ metric_id: m, sampled_at: at(10), value: V.healthy }]);
    expect(
      await post([
        { metric_id: m, sampled_at: at(5), value: V.unhealthy },
        { metric_id: m, sampled_at: at(11), value: V.healthy },
      ]),
    ).toEqual({ accepted: 2, rejected: [], flips: 0 });
    expect((await call('GET', `/v1/metrics/${m}`)).body).toMatchObject({
      status: 'healthy',
      last_sample_at: at(11),
      status_since: at(10),
    });
    expect(await samplesOf(m)).toBe(3);
    expect((await rollupsOf(m)).reduce((n, r) => n + r.unhealthy, 0)).toBe(1);
    expect((await flipsOf(m)).map((f) => `${f.from_status}→${f.to_status}@${f.at.toISOString()}`)).toEqual([
      `no_data→unhealthy@${at(5)}`,
      `unhealthy→healthy@${at(10)}`,
    ]);
    expect((await eventsOf(m)).length).toBe(1);
  });

  it('counts a late unhealthy sample between two healthy ones in the service uptime (from the flips)', async () => {
    const service = await call('POST', '/v1/services', { name: 'Late service' });
    expect(service.status).toBe(201);
    const res = await call('POST', '/v1/metrics', {
      service_id: service.body.id,
      name: 'late uptime',
      source_type: 'tcp',
      source_config: { host: 'db.internal', port: 5432 },
      thresholds: THRESHOLDS,
      interval_seconds: 60,
      agent_id: agent.id,
      confirmation: { failures: 1, recoveries: 1 },
    });
    const m = res.body.id;
    await post([
      { metric_id: m, sampled_at: at(100), value: V.healthy },
      { metric_id: m, sampled_at: at(700), value: V.healthy },
    ]);
    const uptimeOfDay2 = async () =>
      (await call('GET', `/v1/services/${service.body.id}`)).body.uptime.find((u: { date: string }) => u.date === day2)
        .uptime_pct;
    expect(await uptimeOfDay2()).toBe('100.000');
    await post([
      { metric_id: m, sampled_at: at(400), value: V.unhealthy },
      { metric_id: m, sampled_at: at(500), value: V.healthy },
    ]);
    expect((await flipsOf(m)).map((f) => `${f.to_status}@${f.at.toISOString()}`)).toEqual([
      `healthy@${at(100)}`,
      `unhealthy@${at(400)}`,
      `healthy@${at(500)}`,
    ]);
    const pct = Number(await uptimeOfDay2());
    expect(pct).toBeLessThan(100);
    expect(pct).toBeGreaterThan(99);
    expect((await call('GET', `/v1/metrics/${m}`)).body).toMatchObject({
      status: 'healthy',
      last_sample_at: at(700),
      status_since: at(500),
    });
  });

  it('rejects, by index, samples of unknown metrics, of metrics another agent runs and of deleted metrics; the rest is stored', async () => {
    const mine = await newMetric('mine');
    const theirs = await newMetric('theirs', otherAgent.id);
    const gone = await newMetric('gone');
    expect((await call('DELETE', `/v1/metrics/${gone}`)).status).toBe(200);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await post([
      { metric_id: unknown, sampled_at: at(0), value: 1 },
      { metric_id: mine, sampled_at: at(0), value: 1 },
      { metric_id: theirs, sampled_at: at(0), value: 1 },
      { metric_id: gone, sampled_at: at(0), value: 1 },
    ]);
    expect(res).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, metric_id: unknown, reason: 'unknown_metric' },
        { index: 2, metric_id: theirs, reason: 'unknown_metric' },
        { index: 3, metric_id: gone, reason: 'unknown_metric' },
      ],
      flips: 1,
    });
    expect(await samplesOf(theirs)).toBe(0);
    expect(await samplesOf(gone)).toBe(0);
    // The other agent may post for its own metric.
    expect(await post([{ metric_id: theirs, sampled_at: at(0), value: 1 }], otherAgent.token)).toMatchObject({
      accepted: 1,
      rejected: [],
    });
  });

  it('serialises concurrent batches of the same metrics: no sample lost, no flip twice, the newest sample wins, late samples rebuild the flips', async () => {
    const metrics = await Promise.all([0, 1, 2, 3, 4].map((i) => newMetric(`c${i}`)));
    const statuses: Status[] = ['healthy', 'degraded', 'unhealthy'];
    const statusAt = (mi: number, s: number) => statuses[(mi * 7 + s * 13 + ((s * s) % 5)) % 3]!;
    // 12 batches of 10 instants each, interleaved in time, posted all at once.
    const batches: Sample[][] = Array.from({ length: 12 }, (_, k) =>
      metrics.flatMap((metric_id, mi) =>
        Array.from({ length: 10 }, (_, j) => ({
          metric_id,
          sampled_at: at(100 + j * 12 + k),
          value: V[statusAt(mi, j * 12 + k)],
        })),
      ),
    );
    const results = await Promise.all(batches.map((b) => post(b)));
    expect(results.every((r) => r.accepted === 50 && r.rejected.length === 0)).toBe(true);
    const flipTotal = results.reduce((n, r) => n + r.flips, 0);
    let events = 0;
    for (const [mi, m] of metrics.entries()) {
      expect(await samplesOf(m)).toBe(120);
      expect((await rollupsOf(m)).reduce((n, r) => n + r.samples, 0)).toBe(120);
      const flips = await flipsOf(m);
      // Whatever order the batches committed in, the flips are those of the whole series in time order.
      const series = Array.from({ length: 120 }, (_, s) => statusAt(mi, s));
      const expected = series.flatMap((status, s) =>
        status !== (s ? series[s - 1] : 'no_data') ? [`${s ? series[s - 1] : 'no_data'}→${status}@${at(100 + s)}`] : [],
      );
      expect(flips.map((f) => `${f.from_status}→${f.to_status}@${f.at.toISOString()}`)).toEqual(expected);
      const newest = statusAt(mi, 119);
      const view = (await call('GET', `/v1/metrics/${m}`)).body;
      expect(view).toMatchObject({ status: newest, last_sample_at: at(100 + 119) });
      expect(flips.at(-1)!.to_status).toBe(newest);
      // Events go out for the flips made at the newest edge (answered as `flips`), not for rebuilt history.
      events += (await eventsOf(m)).length;
    }
    expect(events).toBe(flipTotal);
  });

  it('group-commits batches that wait behind a running commit, answers each its own flips, and fails only the batch that cannot be stored', async () => {
    const batcher = new SampleBatcher(() => api.orm.em.fork() as EntityManager, 1);
    const m = await newMetric('grouped');
    const row = (s: number, status: Status, reason: string | null = null) => ({
      metricId: m,
      sampledAt: new Date(at(200 + s)),
      value: V[status],
      status,
      reason,
    });
    // The first commit starts at once; the next three wait for it and are merged into one.
    const first = batcher.commit(org.id, [row(0, 'healthy')], new Date());
    const second = batcher.commit(org.id, [row(1, 'unhealthy'), row(2, 'unhealthy')], new Date());
    const third = batcher.commit(org.id, [row(3, 'healthy'), row(4, 'degraded')], new Date());
    expect(await Promise.all([first, second, third])).toEqual([1, 1, 2]);
    expect((await flipsOf(m)).map((f) => f.to_status)).toEqual(['healthy', 'unhealthy', 'healthy', 'degraded']);

    // A reason longer than the column allows fails the merged commit; each batch is then tried alone.
    const lead = batcher.commit(org.id, [row(10, 'healthy')], new Date());
    const bad = batcher.commit(org.id, [row(11, 'unhealthy', 'x'.repeat(300))], new Date());
    const good = batcher.commit(org.id, [row(12, 'unhealthy')], new Date());
    await expect(lead).resolves.toBe(1);
    await expect(bad).rejects.toThrow(/too long/);
    await expect(good).resolves.toBe(1);
    expect(await samplesOf(m)).toBe(7);
    expect((await call('GET', `/v1/metrics/${m}`)).body).toMatchObject({
      status: 'unhealthy',
      last_sample_at: at(212),
    });
  });

  it('stores any reason text and value exactly', async () => {
    const m = await newMetric('literal');
    const reason = 'a "quoted", {braced} \\ back\\slashed reason with NULL in it';
    const rows = [
      { metricId: m, sampledAt: new Date(at(300)), value: null, status: 'no_data', reason },
      { metricId: m, sampledAt: new Date(at(301)), value: 1.5e-7, status: 'healthy', reason: null },
      { metricId: m, sampledAt: new Date(at(302)), value: -12345678.125, status: 'healthy', reason: null },
      { metricId: m, sampledAt: new Date(at(303)), value: null, status: 'no_data', reason: 'NULL' },
    ];
    await commitSamples(api.orm.em.fork() as EntityManager, org.id, rows, new Date());
    const stored = await sql<{ value: number | null; reason: string | null }>(
      `select value, reason from metric_samples where metric_id = ? order by sampled_at`,
      [m],
    );
    expect(stored).toEqual([
      { value: null, reason },
      { value: 1.5e-7, reason: null },
      { value: -12345678.125, reason: null },
      { value: null, reason: 'NULL' },
    ]);
  });
});
