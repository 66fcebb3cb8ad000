import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricBucketScheduleId, metricScheduleId, temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { bucketOf as bucketOfMetric } from '../../src/domain/metric-buckets';
import { contractScheduleId, temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { eventually as eventuallyEvery } from '../support/eventually';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

const eventually = <T>(check: () => Promise<T>, withinMs?: number) => eventuallyEvery(check, withinMs, 250);

let h: TemporalHarness;
let api: ApiHarness;
let org: TestOrg;
let target: http.Server;
let targetUrl: string;
let agent: AgentProcess | null = null;

beforeAll(async () => {
  h = await startTemporalHarness({});
  const links = {
    jwksUrl: 'http://vigil.test/.well-known/jwks.json',
    verifyDocsUrl: 'https://docs.vigil.test/sla-verification',
  };
  api = await startApi({
    metricScheduler: temporalMetricScheduler(h.temporal),
    sla: { workflows: temporalSlaWorkflows(h.temporal), printer: null, links },
  });
  org = await api.createOrg('enterprise', 'Config side effects');
  target = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  );
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
}, 180_000);
afterAll(async () => {
  await agent?.stop();
  // Bucket Schedules outlive their metrics until a run finds them empty; the Temporal server outlives this file.
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

const THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 5000,
  unhealthy_operation: 'over',
  unhealthy_value: 10000,
};
const apply = (doc: unknown, query = '') =>
  api.request('POST', `/v1/config/apply${query}`, { key: org.key, body: doc });
const describeSchedule = (id: string) => h.temporal.client.schedule.getHandle(id).describe();
const idOf = (res: { body: { changes: { config_key: string | null; id: string }[] } }, key: string) =>
  res.body.changes.find((c) => c.config_key === key)!.id;

describe('an applied document has the side effects of the single-item endpoints', () => {
  it('runs a cloud metric from a Schedule, a new agent metric on the running agent, and a contract on its statement Schedule; prune removes them', async () => {
    const reg = await api.request('POST', '/v1/agents', { key: org.key, body: { name: 'edge' } });
    agent = await startAgentProcess(api.baseUrl, reg.body.token);
    const doc = {
      version: 1,
      customers: [{ config_key: 'acme', name: 'Acme', contact_email: 'billing@acme.example' }],
      services: [{ config_key: 'web', name: 'Web' }],
      metrics: [
        {
          config_key: 'web-cloud',
          service: 'web',
          name: 'From the cloud',
          source_type: 'http',
          source_config: { url: targetUrl },
          thresholds: THRESHOLDS,
          interval_seconds: 30,
        },
        {
          config_key: 'web-agent',
          service: 'web',
          name: 'From the agent',
          source_type: 'http',
          source_config: { url: targetUrl },
          thresholds: THRESHOLDS,
          interval_seconds: 5,
          agent: 'edge',
        },
      ],
      contracts: [
        {
          config_key: 'acme-sla',
          customer: 'acme',
          name: 'Acme SLA',
          services: ['web'],
          sla_target_pct: '99.9',
          timezone: 'Europe/Berlin',
          currency: 'EUR',
          monthly_fee_minor: 100000,
          effective_from: '2026-01-01',
          credit_terms: { type: 'proportional', multiplier: '10', maintenance_notice_hours: 72 },
        },
      ],
    };
    const applied = await apply(doc);
    expect(applied.status).toBe(200);
    const cloudId = idOf(applied, 'web-cloud');
    const agentMetricId = idOf(applied, 'web-agent');
    const contractId = idOf(applied, 'acme-sla');

    const bucketOf = (id: string, intervalSeconds: number) =>
      metricBucketScheduleId({ id, intervalSeconds }, h.taskQueue);
    const schedule = await describeSchedule(bucketOf(cloudId, 30));
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'cloudMetricBucketWorkflow' });
    await expect(describeSchedule(metricScheduleId(cloudId))).rejects.toThrow();
    await expect(describeSchedule(bucketOf(agentMetricId, 5))).rejects.toThrow();
    expect((await describeSchedule(contractScheduleId(contractId))).action).toMatchObject({ type: 'startWorkflow' });

    // Both metrics measure: the cloud one through its Schedule, the agent one because the agent heard of it.
    for (const id of [cloudId, agentMetricId]) {
      await eventually(
        async () =>
          expect((await api.request('GET', `/v1/metrics/${id}`, { key: org.key })).body.status).toBe('healthy'),
        30_000,
      ).catch((e) => {
        throw new Error(`${e}\nagent output:\n${agent?.output()}`);
      });
    }

    // A changed interval moves the metric to a bucket of that interval.
    doc.metrics[0]!.interval_seconds = 120;
    expect((await apply(doc)).body.summary.update).toBe(1);
    const changed = await describeSchedule(bucketOf(cloudId, 120));
    expect(changed.spec.intervals).toEqual([expect.objectContaining({ every: 120_000 })]);

    // Pruned: the Schedules go with their items.
    const pruned = await apply(
      { version: 1, customers: doc.customers, services: doc.services, metrics: [], contracts: [] },
      '?prune=true',
    );
    expect(pruned.body.summary).toMatchObject({ delete: 3 });
    // The bucket's next run finds it empty and retires its Schedule (run here at once rather than in up to 120 s).
    const run = await h.temporal.client.workflow.execute('cloudMetricBucketWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `bucket-now-${cloudId}`,
      args: [{ ...bucketOfMetric(cloudId, 120) }],
    });
    expect(run).toMatchObject({ metrics: 0, stored: 0, retired: true });
    await expect(describeSchedule(bucketOf(cloudId, 120))).rejects.toThrow();
    await expect(describeSchedule(contractScheduleId(contractId))).rejects.toThrow();
  }, 120_000);
});
