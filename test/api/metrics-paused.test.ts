import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bucketOf, bucketScheduleOptions } from '../../src/domain/metric-buckets';
import { metricBucketScheduleId, temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * Pausing a metric (PATCH /v1/metrics/{id} `paused`, issue 27) over the real API, PostgreSQL and
 * Temporal: a paused cloud metric gets no check in its bucket's round, an agent is not handed a
 * paused metric, samples sent for it are not stored; resuming undoes each.
 */
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'Checkout'>;
let other: OrgFixture<never, 'Elsewhere'>;
let target: http.Server;
let baseUrl: string;
const hits = new Map<string, number>();

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 1000,
  unhealthy_operation: 'over',
  unhealthy_value: 5000,
};

beforeAll(async () => {
  h = await startTemporalHarness();
  api = await startApi({ metricScheduler: temporalMetricScheduler(h.temporal) });
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Checkout'] });
  other = await orgWithKeys(api, { plan: 'enterprise', services: ['Elsewhere'] });
  target = http.createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  for await (const s of h.temporal.client.schedule.list()) {
    if (s.scheduleId.startsWith(`metric-bucket:${h.taskQueue}:`))
      await h.temporal.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
  }
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await api.close();
  await h.close();
});

const metric = async (id: string) => (await org.call('GET', `/v1/metrics/${id}`)).body;

/** Runs one round of the metric's bucket now (its Schedule, made sure of) and waits for it to finish. */
async function runBucketRound(m: { id: string; interval_seconds: number }): Promise<void> {
  const bucket = bucketOf(m.id, m.interval_seconds);
  await h.temporal.client.schedule.create(bucketScheduleOptions(bucket, h.taskQueue)).catch(() => undefined);
  const handle = h.temporal.client.schedule.getHandle(
    metricBucketScheduleId({ id: m.id, intervalSeconds: m.interval_seconds }, h.taskQueue),
  );
  const before = (await handle.describe()).info.recentActions.length;
  await handle.trigger();
  const action = await eventually(async () => {
    const recent = (await handle.describe()).info.recentActions;
    expect(recent.length).toBeGreaterThan(before);
    return recent.at(-1)!;
  }, 20_000);
  const started = action.action as { workflow: { workflowId: string } };
  await h.temporal.client.workflow.getHandle(started.workflow.workflowId).result();
}

describe('paused metrics', () => {
  it('PATCH paused pauses and resumes; GET and the list show paused and paused_at; status keeps the spec’s values', async () => {
    const created = await org.call('POST', '/v1/metrics', {
      service_id: org.services.Checkout,
      name: 'By hand',
      source_type: 'manual',
      source_config: {},
    });
    expect(created.body).toMatchObject({ paused: false, paused_at: null });
    const paused = await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({
      paused: true,
      paused_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status: 'no_data',
    });
    const again = await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: true });
    expect(again.body.paused_at).toBe(paused.body.paused_at);
    const listed = (await org.call('GET', `/v1/metrics?service_id=${org.services.Checkout}&limit=200`)).body.items.find(
      (m: { id: string }) => m.id === created.body.id,
    );
    expect(listed).toMatchObject({ paused: true, paused_at: paused.body.paused_at });
    expect((await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: false })).body).toMatchObject({
      paused: false,
      paused_at: null,
    });
    const bad = await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      title: 'validation_failed',
      errors: [expect.objectContaining({ path: 'paused' })],
    });
  });

  it("answers 404 to another organization's key and leaves the metric running", async () => {
    const created = await org.call('POST', '/v1/metrics', {
      service_id: org.services.Checkout,
      name: 'Mine',
      source_type: 'manual',
      source_config: {},
    });
    const theirs = await other.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: true });
    expect(theirs.status).toBe(404);
    expect((await metric(created.body.id)).paused).toBe(false);
  });

  it('skips a paused cloud metric in its bucket round, and checks it again once resumed', async () => {
    const created = await org.call('POST', '/v1/metrics', {
      service_id: org.services.Checkout,
      name: 'Public page',
      source_type: 'http',
      source_config: { url: `${baseUrl}/paused-cloud` },
      thresholds: THRESHOLDS,
      interval_seconds: 3600,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // Its first check runs at once.
    await eventually(async () => expect(await metric(id)).toMatchObject({ status: 'healthy' }), 30_000);
    expect((await org.call('PATCH', `/v1/metrics/${id}`, { paused: true })).status).toBe(200);
    const lastSample = (await metric(id)).last_sample_at;
    const hitsBefore = hits.get('/paused-cloud') ?? 0;
    await runBucketRound(created.body);
    expect(hits.get('/paused-cloud') ?? 0).toBe(hitsBefore);
    expect((await metric(id)).last_sample_at).toBe(lastSample);

    expect((await org.call('PATCH', `/v1/metrics/${id}`, { paused: false })).status).toBe(200);
    await runBucketRound(created.body);
    expect(hits.get('/paused-cloud') ?? 0).toBeGreaterThan(hitsBefore);
    await eventually(async () => expect((await metric(id)).last_sample_at).not.toBe(lastSample), 10_000);
  }, 90_000);

  it('leaves a paused metric out of its agent’s config and refuses samples sent for it', async () => {
    const reg = await org.call('POST', '/v1/agents', { name: 'pause-edge' });
    const as = { authorization: `Bearer ${reg.body.token}` };
    const created = await org.call('POST', '/v1/metrics', {
      service_id: org.services.Checkout,
      name: 'Internal port',
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: 5432 },
      thresholds: THRESHOLDS,
      agent_id: reg.body.id,
    });
    const configIds = async () =>
      (await api.request('GET', '/v1/agent/config', { headers: as })).body.metrics.map(
        (m: { metric_id: string }) => m.metric_id,
      );
    expect(await configIds()).toContain(created.body.id);
    const running = await api.request('GET', '/v1/agent/config', { headers: as });

    await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: true });
    expect(await configIds()).not.toContain(created.body.id);
    expect((await api.request('GET', '/v1/agent/config', { headers: as })).body.version).not.toBe(running.body.version);
    const sent = await api.request('POST', '/v1/agent/samples', {
      headers: as,
      body: { samples: [{ metric_id: created.body.id, sampled_at: new Date().toISOString(), value: 3 }] },
    });
    expect(sent.body).toMatchObject({
      accepted: 0,
      rejected: [{ index: 0, metric_id: created.body.id, reason: 'unknown_metric' }],
    });
    expect(await metric(created.body.id)).toMatchObject({ last_sample_at: null, status: 'no_data' });

    await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: false });
    expect(await configIds()).toContain(created.body.id);
    const resumed = await api.request('POST', '/v1/agent/samples', {
      headers: as,
      body: { samples: [{ metric_id: created.body.id, sampled_at: new Date().toISOString(), value: 3 }] },
    });
    expect(resumed.body).toMatchObject({ accepted: 1, rejected: [] });
  });

  it('ignores heartbeat pings of a paused heartbeat metric (answered, not stored)', async () => {
    const created = await org.call('POST', '/v1/metrics', {
      service_id: org.services.Checkout,
      name: 'Nightly',
      source_type: 'heartbeat',
      source_config: {},
      thresholds: { healthy_operation: 'under', healthy_value: 60, unhealthy_operation: 'over', unhealthy_value: 120 },
    });
    await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: true });
    const path = new URL(created.body.inbound_url).pathname;
    expect((await api.request('POST', path)).status).toBe(200);
    expect(await metric(created.body.id)).toMatchObject({ last_sample_at: null, status: 'no_data' });
    await org.call('PATCH', `/v1/metrics/${created.body.id}`, { paused: false });
    expect((await api.request('POST', path)).status).toBe(200);
    expect(await metric(created.body.id)).toMatchObject({ status: 'healthy', current_value: 0 });
  });
});
