import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture<never, 'Checkout'>;
let serviceId: string;
let metricId: string;
let agentToken: string;
const HOUR = 3_600_000;
let t0: number;

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { services: ['Checkout'] });
  serviceId = org.services.Checkout;
  const agent = await call('POST', '/v1/agents', { name: 'edge' });
  agentToken = agent.body.token;
  metricId = (
    await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'Latency',
      source_type: 'tcp',
      source_config: { host: 'db.internal', port: 5432 },
      thresholds: { healthy_operation: 'under', healthy_value: 100, unhealthy_operation: 'over', unhealthy_value: 500 },
      interval_seconds: 60,
      agent_id: agent.body.id,
      // The crafted history below has one sample per change: each counts at once.
      confirmation: { failures: 1, recoveries: 1 },
    })
  ).body.id;
  // A crafted history: healthy for 6 h, unhealthy for 1 h, healthy for 3 h (until now).
  t0 = Date.now() - 10 * HOUR;
  const at = (ms: number) => new Date(ms).toISOString();
  const posted = await api.request('POST', '/v1/agent/samples', {
    headers: { authorization: `Bearer ${agentToken}` },
    body: {
      samples: [
        { metric_id: metricId, sampled_at: at(t0), value: 20 },
        { metric_id: metricId, sampled_at: at(t0 + 6 * HOUR), value: 900 },
        { metric_id: metricId, sampled_at: at(t0 + 7 * HOUR), value: 30 },
      ],
    },
  });
  expect(posted.body).toMatchObject({ accepted: 3, flips: 3 });
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);

describe('SLOs over the stored status history', () => {
  it('computes attainment, error budget and burn rate for a metric', async () => {
    const res = await call('POST', '/v1/slos', {
      name: 'Latency SLO',
      config_key: 'latency',
      metric_id: metricId,
      objective: '99',
      window: { kind: 'rolling', days: 1 },
    });
    expect(res.status).toBe(201);
    const a = res.body.attainment;
    // 10 h counted (before t0 nothing was recorded), 1 h of it bad.
    expect(a.attainment).toBe('90.000');
    expect(a.met).toBe(false);
    expect(Math.round(a.bad_ms / 60_000)).toBe(60);
    expect(Math.round(a.good_ms / 60_000)).toBe(9 * 60);
    expect(a.error_budget_remaining_ms).toBeLessThan(0);
    expect(Number(a.burn_rate)).toBeGreaterThan(1);
    expect(res.body).toMatchObject({ no_data: 'excluded', maintenance: 'excluded', degraded: 'good' });
  });

  it('computes a service SLO from the worst of its metrics, over a calendar month in a time zone', async () => {
    const res = await call('POST', '/v1/slos', {
      name: 'Checkout month',
      service_id: serviceId,
      objective: '80',
      window: { kind: 'calendar_month', timezone: 'Europe/Berlin' },
    });
    expect(res.status).toBe(201);
    expect(res.body.attainment.period_label).toMatch(/^\d{4}-\d{2}$/);
    expect(res.body.attainment.met).toBe(Number(res.body.attainment.attainment) >= 80);
    expect((await call('GET', `/v1/slos/${res.body.id}`)).body.attainment.attainment).toBe(
      res.body.attainment.attainment,
    );
  });

  it('refuses an SLO on neither or both targets, a bad objective and an unknown time zone', async () => {
    expect(
      (await call('POST', '/v1/slos', { name: 'x', objective: '99', window: { kind: 'rolling', days: 30 } })).body
        .errors[0].path,
    ).toBe('metric_id');
    expect(
      (
        await call('POST', '/v1/slos', {
          name: 'x',
          metric_id: metricId,
          service_id: serviceId,
          objective: '99',
          window: { kind: 'rolling', days: 30 },
        })
      ).body.title,
    ).toBe('validation_failed');
    expect(
      (
        await call('POST', '/v1/slos', {
          name: 'x',
          metric_id: metricId,
          objective: 'lots',
          window: { kind: 'rolling', days: 30 },
        })
      ).body.errors[0].path,
    ).toBe('objective');
    const tz = await call('POST', '/v1/slos', {
      name: 'x',
      metric_id: metricId,
      objective: '99',
      window: { kind: 'calendar_month', timezone: 'Mars/Olympus' },
    });
    expect([tz.status, tz.body.errors[0].path]).toEqual([400, 'window.timezone']);
  });
});

describe('GET /v1/services/{id}', () => {
  it('rolls its metrics up to a status and shows 90 days of uptime', async () => {
    const res = await call('GET', `/v1/services/${serviceId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: serviceId, status: 'healthy', maintenance: null });
    expect(res.body.metrics.map((m: { id: string }) => m.id)).toEqual([metricId]);
    expect(res.body.uptime).toHaveLength(90);
    expect(res.body.uptime.reduce((n: number, d: { samples: number }) => n + d.samples, 0)).toBe(3);
    const withData = res.body.uptime.filter((d: { uptime_pct: string | null }) => d.uptime_pct !== null);
    expect(withData.length).toBeGreaterThanOrEqual(1);
    expect(res.body.uptime[0].uptime_pct).toBeNull();
    const second = await call('POST', '/v1/metrics', {
      service_id: serviceId,
      name: 'By hand',
      source_type: 'manual',
      source_config: {},
    });
    await call('POST', `/v1/metrics/${second.body.id}/status`, { status: 'degraded' });
    expect((await call('GET', `/v1/services/${serviceId}`)).body.status).toBe('degraded');
    await call('POST', `/v1/metrics/${second.body.id}/status`, { status: 'healthy' });
  });
});

describe('deleting what an SLO references', () => {
  it('answers 409 in_use with referenced_by, for the metric and for its service, until the SLOs are gone', async () => {
    const metricRes = await call('DELETE', `/v1/metrics/${metricId}`);
    expect(metricRes.status).toBe(409);
    expect(metricRes.body).toMatchObject({ title: 'in_use', referenced_by: { pages: [], subscribers: 0 } });
    expect(metricRes.body.referenced_by.slos).toEqual(
      expect.arrayContaining([{ id: expect.any(String), config_key: 'latency', name: 'Latency SLO' }]),
    );
    const serviceRes = await call('DELETE', `/v1/services/${serviceId}`);
    expect([serviceRes.status, serviceRes.body.title]).toEqual([409, 'in_use']);
    expect(serviceRes.body.referenced_by.slos.length).toBe(2);
    for (const s of (await call('GET', '/v1/slos')).body.items)
      expect((await call('DELETE', `/v1/slos/${s.id}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/metrics/${metricId}`)).status).toBe(200);
    expect((await call('GET', `/v1/metrics/${metricId}`)).status).toBe(404);
  });
});
