import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { MetricSchema } from '../../src/db/entities';
import { metricBucketScheduleId, metricScheduleId, temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { metricSweepWorkflow } from '../../src/workflows';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { eventually as eventuallyEvery } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/** Agents measure every few seconds: poll the API gently, well inside the organization's rate limit. */
const eventually = <T>(check: () => Promise<T>, withinMs?: number) => eventuallyEvery(check, withinMs, 250);

let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture<never, 'Checkout'>;
let serviceId: string;
let target: http.Server;
let targetUrl: string;
/** What the target reports as its queue depth: the metric's value. */
let depth = 5;
let rx: Receiver;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  h = await startTemporalHarness({
    relay: true,
    webhookPolicy: { initialMs: 200, factor: 2, maxMs: 1_000, giveUpAfterMs: 10_000 },
  });
  api = await startApi({
    probeTestRunner: temporalProbeTestRunner(h.temporal),
    metricScheduler: temporalMetricScheduler(h.temporal),
    webhookStarter: h.webhookStarter,
  });
  org = await orgWithKeys(api, { plan: 'enterprise', services: ['Checkout'] });
  serviceId = org.services.Checkout;
  target = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ depth })),
  );
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/stats`;
  rx = await startReceiver();
  expect((await call('POST', '/v1/webhooks', { url: rx.url, event_types: ['metric.status_changed'] })).status).toBe(
    201,
  );
}, 180_000);
afterAll(async () => {
  for (const a of agents) await a.stop();
  // Bucket Schedules outlive their metrics until a run finds them empty; the Temporal server outlives this file.
  for await (const s of h.temporal.client.schedule.list()) {
    if (s.scheduleId.startsWith(`metric-bucket:${h.taskQueue}:`))
      await h.temporal.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
  }
  await rx.close();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await api.close();
  await h.close();
});

const call: Call = (...args) => org.call(...args);
const THRESHOLDS = { healthy_operation: 'under', healthy_value: 10, unhealthy_operation: 'over', unhealthy_value: 20 };
const metric = async (id: string) => (await call('GET', `/v1/metrics/${id}`)).body;
/** The metric's status_changed webhooks, in the order of their `created_at` (the docs promise no arrival order). */
const events = (metricId: string) =>
  rx.received
    .map((r) => JSON.parse(r.body))
    .filter((b) => b.type === 'metric.status_changed' && b.data.id === metricId)
    .sort((x, y) => x.created_at.localeCompare(y.created_at))
    .map((b) => `${b.data.previous_status}→${b.data.status}`);

describe('metrics run on schedule and turn samples into status', () => {
  it('flips healthy → unhealthy → healthy on a real agent, each flip visible through the API and as a webhook', async () => {
    const reg = await call('POST', '/v1/agents', { name: 'edge' });
    const agent = await startAgentProcess(api.baseUrl, reg.body.token);
    agents.push(agent);
    const created = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Queue depth',
      source_type: 'http',
      source_config: { url: targetUrl, json_path: '$.depth' },
      thresholds: THRESHOLDS,
      interval_seconds: 5,
      agent_id: reg.body.id,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'no_data', current_value: null, mode: 'agent', inbound_url: null });

    await eventually(
      async () =>
        expect(await metric(created.body.id)).toMatchObject({ status: 'healthy', current_value: 5, reason: null }),
      30_000,
    ).catch((e) => {
      throw new Error(`${e}\nagent output:\n${agent.output()}`);
    });
    depth = 50;
    await eventually(
      async () => expect(await metric(created.body.id)).toMatchObject({ status: 'unhealthy', current_value: 50 }),
      30_000,
    );
    depth = 5;
    const back = await eventually(async () => {
      const m = await metric(created.body.id);
      expect(m.status).toBe('healthy');
      return m;
    }, 30_000);
    expect(back.history.length).toBeGreaterThanOrEqual(3);
    expect(back.history[0]).toMatchObject({ status: 'healthy', value: 5 });
    await eventually(
      async () =>
        expect(events(created.body.id)).toEqual(['no_data→healthy', 'healthy→unhealthy', 'unhealthy→healthy']),
      30_000,
    );
    const delivered = rx.received
      .map((r) => JSON.parse(r.body))
      .find((b) => b.data.id === created.body.id && b.data.status === 'unhealthy');
    expect(delivered.data).toMatchObject({ service_id: serviceId, current_value: 50, previous_status: 'healthy' });
  }, 150_000);

  it('stores no_data with the reason when a probe fails, and current_value is null then', async () => {
    const reg = await call('POST', '/v1/agents', { name: 'edge-2' });
    const agent = await startAgentProcess(api.baseUrl, reg.body.token);
    agents.push(agent);
    const created = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Closed port',
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: 1 },
      thresholds: {
        healthy_operation: 'under',
        healthy_value: 100,
        unhealthy_operation: 'over',
        unhealthy_value: 1000,
      },
      interval_seconds: 5,
      agent_id: reg.body.id,
    });
    await eventually(
      async () =>
        expect(await metric(created.body.id)).toMatchObject({
          status: 'no_data',
          reason: 'ECONNREFUSED',
          reason_label: 'TCP connection refused',
          current_value: null,
          last_sample_at: expect.any(String),
        }),
      30_000,
    ).catch((e) => {
      throw new Error(`${e}\nagent output:\n${agent.output()}`);
    });
  }, 60_000);

  it('judges an HTTP metric created without thresholds as up or down on a real agent: 200 healthy, 503 unhealthy, a stopped target down', async () => {
    let answer = 200;
    const site = http.createServer((_req, res) => res.writeHead(answer, { 'content-type': 'text/plain' }).end('hello'));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    try {
      const reg = await call('POST', '/v1/agents', { name: 'edge-up-down' });
      const agent = await startAgentProcess(api.baseUrl, reg.body.token);
      agents.push(agent);
      const created = await call('POST', '/v1/metrics', {
        service_id: serviceId,
        name: 'Intranet home',
        source_type: 'http',
        source_config: { url: siteUrl },
        interval_seconds: 5,
        agent_id: reg.body.id,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ thresholds: null, status: 'no_data' });
      const id = created.body.id;
      await eventually(
        async () =>
          expect(await metric(id)).toMatchObject({
            status: 'healthy',
            availability: 'up',
            current_value: expect.any(Number),
            reason: null,
          }),
        30_000,
      ).catch((e) => {
        throw new Error(`${e}\nagent output:\n${agent.output()}`);
      });
      answer = 503;
      await eventually(
        async () =>
          expect(await metric(id)).toMatchObject({
            status: 'unhealthy',
            availability: 'down',
            reason: 'unexpected_status:503',
            current_value: null,
          }),
        30_000,
      );
      site.closeAllConnections();
      await new Promise((r) => site.close(r));
      await eventually(
        async () =>
          expect(await metric(id)).toMatchObject({
            status: 'no_data',
            availability: 'down',
            reason: 'ECONNREFUSED',
            reason_class: 'target',
          }),
        30_000,
      );
      await eventually(
        async () => expect(events(id)).toEqual(['no_data→healthy', 'healthy→unhealthy', 'unhealthy→no_data']),
        30_000,
      );
    } finally {
      if (site.listening) {
        site.closeAllConnections();
        await new Promise((r) => site.close(r));
      }
    }
  }, 150_000);

  it("runs a cloud metric from its bucket's Temporal Schedule, and no Schedule of its own", async () => {
    const created = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Public stats',
      source_type: 'http',
      source_config: { url: targetUrl },
      thresholds: {
        healthy_operation: 'under',
        healthy_value: 1000,
        unhealthy_operation: 'over',
        unhealthy_value: 5000,
      },
      interval_seconds: 30,
    });
    expect(created.body.mode).toBe('cloud');
    const described = await h.temporal.client.schedule
      .getHandle(metricBucketScheduleId({ id: created.body.id, intervalSeconds: 30 }, h.taskQueue))
      .describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'cloudMetricBucketWorkflow' });
    await expect(h.temporal.client.schedule.getHandle(metricScheduleId(created.body.id)).describe()).rejects.toThrow();
    // The bucket runs at its next tick, at most one interval away.
    await eventually(
      async () => expect(await metric(created.body.id)).toMatchObject({ status: 'healthy', unit: null }),
      45_000,
    );
    expect((await call('DELETE', `/v1/metrics/${created.body.id}`)).status).toBe(200);
    const refused = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Needs agent',
      source_type: 'database',
      source_config: { engine: 'postgresql', connection_string_ref: 'DB_DSN', query: 'select 1' },
      thresholds: THRESHOLDS,
    });
    expect(refused.body).toMatchObject({ title: 'validation_failed', errors: [{ path: 'agent_id' }] });
  }, 75_000);

  it('sets a manual metric by hand', async () => {
    const created = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Status by hand',
      source_type: 'manual',
      source_config: {},
    });
    expect(created.body).toMatchObject({ mode: 'push', status: 'no_data' });
    expect((await call('POST', `/v1/metrics/${created.body.id}/status`, { status: 'degraded' })).body).toMatchObject({
      status: 'degraded',
    });
    expect((await call('POST', `/v1/metrics/${created.body.id}/status`, { status: 'healthy' })).body.status).toBe(
      'healthy',
    );
    await eventually(
      async () => expect(events(created.body.id)).toEqual(['no_data→degraded', 'degraded→healthy']),
      30_000,
    );
    // The status filter: a second metric set unhealthy is listed, the healthy one is not.
    const down = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Down by hand',
      source_type: 'manual',
      source_config: {},
    });
    expect((await call('POST', `/v1/metrics/${down.body.id}/status`, { status: 'unhealthy' })).body).toMatchObject({
      status: 'unhealthy',
    });
    const unhealthy: { id: string; status: string }[] = (
      await call('GET', `/v1/metrics?service_id=${serviceId}&status=unhealthy`)
    ).body.items;
    expect(unhealthy.map((m) => m.id)).toContain(down.body.id);
    expect(unhealthy.map((m) => m.id)).not.toContain(created.body.id);
    expect(unhealthy.filter((m) => m.status !== 'unhealthy')).toEqual([]);
  });

  it('turns heartbeat pings into seconds since the last one; the sweep makes a missing heartbeat unhealthy', async () => {
    const created = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Nightly job',
      source_type: 'heartbeat',
      source_config: {},
      thresholds: { healthy_operation: 'under', healthy_value: 60, unhealthy_operation: 'over', unhealthy_value: 120 },
    });
    const url = new URL(created.body.inbound_url);
    const ping = await api.request('POST', url.pathname);
    expect(ping.status).toBe(200);
    expect(await metric(created.body.id)).toMatchObject({ status: 'healthy', current_value: 0 });
    expect((await api.request('GET', url.pathname.replace(/hb_.*/, 'hb_unknown'))).status).toBe(404);
    await api.orm.em
      .fork()
      .nativeUpdate(
        MetricSchema,
        { id: created.body.id },
        { pushState: { last_ping_at: new Date(Date.now() - 300_000).toISOString() } },
      );
    const sweep = await h.temporal.client.workflow.start(metricSweepWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `metric-sweep-test-${created.body.id}`,
    });
    expect((await sweep.result()).heartbeats).toBeGreaterThanOrEqual(1);
    const swept = await metric(created.body.id);
    expect(swept.status).toBe('unhealthy');
    expect(swept.current_value).toBeGreaterThanOrEqual(300);
    // VIGIL_RECORD_HISTORIES=1 rewrites the replay test's history of this workflow.
    if (process.env.VIGIL_RECORD_HISTORIES)
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'metric-sweep-v1.json'),
        historyToJSON(await sweep.fetchHistory()),
      );
  });

  it('marks an agent metric stale_agent_silent after 3 silent intervals, and clears it when samples resume', async () => {
    const reg = await call('POST', '/v1/agents', { name: 'silent' });
    const created = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Silent',
      source_type: 'tcp',
      source_config: { host: '127.0.0.1', port: 1 },
      thresholds: THRESHOLDS,
      interval_seconds: 10,
      agent_id: reg.body.id,
    });
    const as = { authorization: `Bearer ${reg.body.token}` };
    const old = new Date(Date.now() - 60_000).toISOString();
    const posted = await api.request('POST', '/v1/agent/samples', {
      headers: as,
      body: { samples: [{ metric_id: created.body.id, sampled_at: old, value: 3 }] },
    });
    expect(posted.body).toMatchObject({ accepted: 1, rejected: [] });
    await h.temporal.client.workflow.execute(metricSweepWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `metric-sweep-test-${created.body.id}`,
    });
    expect(await metric(created.body.id)).toMatchObject({
      status: 'no_data',
      reason: 'stale_agent_silent',
      current_value: null,
    });
    const resumed = await api.request('POST', '/v1/agent/samples', {
      headers: as,
      body: { samples: [{ metric_id: created.body.id, sampled_at: new Date().toISOString(), value: 4 }] },
    });
    expect(resumed.body.flips).toBe(1);
    expect(await metric(created.body.id)).toMatchObject({ status: 'healthy', current_value: 4, reason: null });
    // An agent cannot post samples of a metric it does not run.
    const other = await call('POST', '/v1/agents', { name: 'other' });
    const foreign = await api.request('POST', '/v1/agent/samples', {
      headers: { authorization: `Bearer ${other.body.token}` },
      body: { samples: [{ metric_id: created.body.id, sampled_at: new Date().toISOString(), value: 99 }] },
    });
    expect(foreign.body).toMatchObject({ accepted: 0, rejected: [{ index: 0, metric_id: created.body.id }] });
    expect((await metric(created.body.id)).current_value).toBe(4);
  });
});
