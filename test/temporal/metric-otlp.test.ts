import { getFreePort } from '../../src/launchers/free-port';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { eventually } from '../support/eventually';

let api: ApiHarness;
let org: OrgFixture<never, 'Workers'>;
let agent: AgentProcess | null = null;

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { services: ['Workers'] });
});
afterAll(async () => {
  await agent?.stop();
  await api.close();
});

const call: Call = (...args) => org.call(...args);
const metric = async (id: string) => (await call('GET', `/v1/metrics/${id}`)).body;
const THRESHOLDS = { healthy_operation: 'under', healthy_value: 10, unhealthy_operation: 'over', unhealthy_value: 20 };

/** An OTLP/HTTP JSON export request, as an OpenTelemetry SDK with protocol http/json sends it. */
function exportRequest(metrics: unknown[]) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'worker' } }] },
        scopeMetrics: [{ scope: { name: 'vigil-test', version: '1.0.0' }, metrics }],
      },
    ],
  };
}
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
function gauge(name: string, points: Array<{ atMs: number; value: number; queue: string }>) {
  return {
    name,
    unit: '{messages}',
    gauge: {
      dataPoints: points.map((p) => ({
        timeUnixNano: nanos(p.atMs),
        asDouble: p.value,
        attributes: [{ key: 'queue', value: { stringValue: p.queue } }],
      })),
    },
  };
}
/** A monotonic cumulative counter: the window's sum is its increase. */
function counter(name: string, startMs: number, points: Array<{ atMs: number; total: number }>) {
  return {
    name,
    unit: '1',
    sum: {
      aggregationTemporality: 2,
      isMonotonic: true,
      dataPoints: points.map((p) => ({
        startTimeUnixNano: nanos(startMs),
        timeUnixNano: nanos(p.atMs),
        asInt: String(p.total),
      })),
    },
  };
}

describe('otlp metrics on a real agent process', () => {
  it('aggregates pushed points per metric: no_data otlp_no_samples before any, then mean/count/p90/sum and a stale verdict', async () => {
    const otlpPort = await getFreePort();
    const reg = await call('POST', '/v1/agents', { name: 'otlp-edge' });

    const create = async (
      name: string,
      sourceConfig: Record<string, unknown>,
      thresholds: Record<string, unknown> = THRESHOLDS,
    ) => {
      const created = await call('POST', '/v1/metrics', {
        service_id: org.services.Workers,
        name,
        source_type: 'otlp',
        source_config: sourceConfig,
        thresholds,
        interval_seconds: 5,
        agent_id: reg.body.id,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ mode: 'agent', status: 'no_data' });
      return created.body.id as string;
    };
    const mean = await create('Queue depth (mean)', {
      metric: 'queue.depth',
      aggregation: 'mean',
      window_seconds: 60,
      stale_seconds: 30,
    });
    const count = await create(
      'Queue depth points',
      { metric: 'queue.depth', aggregation: 'count', window_seconds: 60 },
      { healthy_operation: 'under', healthy_value: 100, unhealthy_operation: 'over', unhealthy_value: 1000 },
    );
    const p90 = await create('Queue depth p90 (orders)', {
      metric: 'queue.depth',
      aggregation: 'p90',
      window_seconds: 60,
      attributes: { queue: 'orders' },
    });
    const jobs = await create('Jobs failed', { metric: 'jobs.failed', aggregation: 'sum', window_seconds: 60 });
    const stale = await create('Queue depth (stale after 2 s)', {
      metric: 'queue.depth',
      aggregation: 'last',
      window_seconds: 60,
      stale_seconds: 2,
    });
    // Started after the metrics exist, so its first config fetch has them (a config change that
    // lands between that fetch and its first long poll would only be picked up a minute later).
    agent = await startAgentProcess(api.baseUrl, reg.body.token, { VIGIL_OTLP_PORT: String(otlpPort) });
    expect(agent.output()).toContain(`"otlp_port":${otlpPort}`);

    // Before any point: the agent reports no_data otlp_no_samples.
    await eventually(async () => {
      for (const id of [mean, count, p90, jobs])
        expect(await metric(id)).toMatchObject({
          status: 'no_data',
          reason: 'otlp_no_samples',
          current_value: null,
          last_sample_at: expect.any(String),
        });
    }, 15_000);

    const push = async (body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${otlpPort}/v1/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    };
    const t = Date.now();
    await push(
      exportRequest([
        gauge('queue.depth', [
          { atMs: t - 3_000, value: 2, queue: 'orders' },
          { atMs: t - 2_000, value: 4, queue: 'orders' },
          { atMs: t - 1_000, value: 30, queue: 'orders' },
          { atMs: t - 2_000, value: 6, queue: 'emails' },
        ]),
        counter('jobs.failed', t - 60_000, [{ atMs: t - 2_000, total: 100 }]),
      ]),
    );
    await push(exportRequest([counter('jobs.failed', t - 60_000, [{ atMs: t - 1_000, total: 112 }])]));

    // mean (2 + 4 + 30 + 6) / 4 = 10.5: neither under 10 nor over 20 → degraded.
    await eventually(
      async () => expect(await metric(mean)).toMatchObject({ status: 'degraded', current_value: 10.5, reason: null }),
      15_000,
    );
    await eventually(
      async () => expect(await metric(count)).toMatchObject({ status: 'healthy', current_value: 4 }),
      15_000,
    );
    // p90 of the orders series only (2, 4, 30): 4 + (30 − 4) × 0.8 = 24.8 → unhealthy.
    await eventually(async () => {
      const m = await metric(p90);
      expect(m.status).toBe('unhealthy');
      expect(m.current_value).toBeCloseTo(24.8, 6);
    }, 15_000);
    // A cumulative counter's first point counts in full (100), then its increase (12).
    await eventually(
      async () => expect(await metric(jobs)).toMatchObject({ status: 'unhealthy', current_value: 112 }),
      15_000,
    );
    // The newest point is soon over 2 s old: otlp_stale, while the 30 s metric still has a value.
    await eventually(
      async () =>
        expect(await metric(stale)).toMatchObject({ status: 'no_data', reason: 'otlp_stale', current_value: null }),
      15_000,
    );
    expect((await metric(mean)).status).toBe('degraded');

    // New points move the value: mean over the window (2, 4, 30, 6, 1, 1) = 44 / 6 ≈ 7.3, under 10 → healthy.
    const t2 = Date.now();
    await push(
      exportRequest([
        gauge('queue.depth', [
          { atMs: t2, value: 1, queue: 'orders' },
          { atMs: t2, value: 1, queue: 'emails' },
        ]),
      ]),
    );
    await eventually(async () => {
      const m = await metric(mean);
      expect(m.current_value).toBeCloseTo(44 / 6, 6);
      expect(m.status).toBe('healthy');
    }, 15_000);
    await eventually(async () => expect(await metric(count)).toMatchObject({ current_value: 6 }), 15_000);
  }, 60_000);
});
