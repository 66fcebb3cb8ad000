import { MetricSchema } from '../../src/db/entities';
import type { AlertState } from '../../src/domain/inbound-alerts/alert-state';
import { sweepAlertMetrics } from '../../src/usecases/inbound-alerts/alerts';
import { alertmanagerWebhook } from '../support/alert-payloads';
import { type AlertStack, startAlertStack } from '../support/alert-stack';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { eventually } from '../support/eventually';

let api: ApiHarness;
let org: OrgFixture<never, 'Payments'>;
let stack: AlertStack | null = null;

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { services: ['Payments'] });
});
afterAll(async () => {
  await stack?.stop();
  await api.close();
});

const call: Call = (...args) => org.call(...args);
const metric = async (id: string) => (await call('GET', `/v1/metrics/${id}`)).body;
/** The alert metric and the path of its inbound URL (the harness listens on loopback, whatever publicBaseUrl says). */
async function alertMetric(
  name: string,
  sourceConfig: Record<string, unknown> = {},
): Promise<{ id: string; path: string }> {
  const created = await call('POST', '/v1/metrics', {
    service_id: org.services.Payments,
    name,
    source_type: 'alert',
    source_config: sourceConfig,
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    mode: 'push',
    status: 'no_data',
    inbound_url: expect.stringMatching(/\/v1\/inbound-alerts\/al_[\w-]+$/),
  });
  return { id: created.body.id, path: new URL(created.body.inbound_url).pathname };
}
const post = (path: string, body: unknown) => api.request('POST', path, { body });

/** Moves every time the stored alert state holds back by `ms`, as if it had all arrived that long ago. */
async function ageAlertState(metricId: string, ms: number): Promise<void> {
  const em = api.orm.em.fork();
  const m = await em.findOneOrFail(MetricSchema, { id: metricId });
  const state = m.pushState as unknown as AlertState;
  const back = (t: string) => new Date(Date.parse(t) - ms).toISOString();
  const firing = Object.fromEntries(
    Object.entries(state.firing).map(([fp, a]) => [fp, { ...a, receivedAt: back(a.receivedAt) }]),
  );
  const aged: AlertState = {
    firing,
    since: back(state.since),
    lastReceivedAt: state.lastReceivedAt && back(state.lastReceivedAt),
  };
  await em.nativeUpdate(MetricSchema, { id: metricId }, { pushState: aged as unknown as Record<string, unknown> });
}

describe('alert metrics from a real Prometheus + Alertmanager', () => {
  it('turns the worst firing alert into the value; the Watchdog heartbeat keeps its metric healthy until it stops', async () => {
    const alerts = await alertMetric('Prometheus alerts');
    const heartbeat = await alertMetric('Alerting pipeline', {
      heartbeat_alert: 'Watchdog',
      heartbeat_timeout_seconds: 120,
    });
    stack = await startAlertStack({
      alertsUrl: `${api.baseUrl}${alerts.path}`,
      heartbeatUrl: `${api.baseUrl}${heartbeat.path}`,
    });

    // QueueBackedUp (critical) outranks DiskFilling (warning); Watchdog (severity none) adds nothing.
    await eventually(
      async () =>
        expect(await metric(alerts.id)).toMatchObject({ status: 'unhealthy', current_value: 2, reason: null }),
      30_000,
    );
    // Alertmanager sends one webhook per alert (group_by '...'): all three end up held.
    const stored = await eventually(async () => {
      const state = (await api.orm.em.fork().findOneOrFail(MetricSchema, { id: alerts.id }))
        .pushState as unknown as AlertState;
      expect(
        Object.values(state.firing)
          .map((a) => a.name)
          .sort(),
      ).toEqual(['DiskFilling', 'QueueBackedUp', 'Watchdog']);
      return state;
    }, 15_000);
    expect(Object.values(stored.firing).find((a) => a.name === 'QueueBackedUp')).toMatchObject({
      severity: 'unhealthy',
      endsAt: null,
    });
    expect(Object.values(stored.firing).find((a) => a.name === 'DiskFilling')).toMatchObject({ severity: 'degraded' });
    expect(await metric(alerts.id)).toMatchObject({ status: 'unhealthy', current_value: 2 });

    // The heartbeat metric receives only Watchdog, which is not counted: healthy, value 0.
    await eventually(
      async () =>
        expect(await metric(heartbeat.id)).toMatchObject({ status: 'healthy', current_value: 0, reason: null }),
      30_000,
    );
    const before = await metric(heartbeat.id);
    // A sweep while Watchdog is fresh writes nothing.
    await sweepAlertMetrics(api.orm.em.fork(), new Date());
    expect((await metric(heartbeat.id)).history.length).toBe(before.history.length);

    // The pipeline breaks: no more webhooks. Once the timeout has passed (aged in the stored
    // state rather than waited for), the sweep makes the metric no_data alert_heartbeat_missing.
    await stack.stopAlertmanager();
    await ageAlertState(heartbeat.id, 121_000);
    const swept = await sweepAlertMetrics(api.orm.em.fork(), new Date());
    expect(swept.missing).toBeGreaterThanOrEqual(1);
    expect(await metric(heartbeat.id)).toMatchObject({
      status: 'no_data',
      current_value: null,
      reason: 'alert_heartbeat_missing',
      reason_label: 'Alert source heartbeat stopped arriving',
    });
    // Once only: the next sweep does not write it again.
    const count = (await metric(heartbeat.id)).history.length;
    await sweepAlertMetrics(api.orm.em.fork(), new Date());
    expect((await metric(heartbeat.id)).history.length).toBe(count);
    // The other metric has no heartbeat rule: the sweep leaves it alone.
    expect(await metric(alerts.id)).toMatchObject({ status: 'unhealthy', current_value: 2 });

    // Watchdog arrives again (an Alertmanager payload, as the restarted pipeline would send): healthy.
    const back = await post(
      heartbeat.path,
      alertmanagerWebhook([{ labels: { alertname: 'Watchdog', severity: 'none' } }], { receiver: 'heartbeat' }),
    );
    expect(back.body).toMatchObject({ ok: true, source: 'alertmanager', status: 'healthy', value: 0, reason: null });
    expect(await metric(heartbeat.id)).toMatchObject({ status: 'healthy', current_value: 0 });
  }, 60_000);
});

describe('alert webhooks posted directly', () => {
  it('reads a Grafana unified-alerting payload: warning → degraded (1), resolved → healthy (0)', async () => {
    const m = await alertMetric('Grafana alerts');
    const alert = {
      labels: { alertname: 'HighLatency', grafana_folder: 'Checkout', severity: 'warning' },
      annotations: { summary: 'p99 latency over 800 ms' },
      startsAt: '2026-01-10T09:00:00Z',
      fingerprint: 'a1b2c3d4e5f60718',
      silenceURL: 'https://grafana.example/alerting/silence/new',
      dashboardURL: '',
      panelURL: '',
      values: { B: 912.4, C: 1 },
      valueString: "[ var='B' labels={} value=912.4 ]",
    };
    const firing = {
      receiver: 'vigil',
      status: 'firing',
      orgId: 1,
      alerts: [{ ...alert, status: 'firing', endsAt: '0001-01-01T00:00:00Z' }],
      groupLabels: { alertname: 'HighLatency' },
      commonLabels: alert.labels,
      externalURL: 'https://grafana.example/',
      version: '1',
      groupKey: '{}:{alertname="HighLatency"}',
      truncatedAlerts: 0,
      title: '[FIRING:1] HighLatency Checkout',
      state: 'alerting',
      message: '**Firing**',
    };
    const r = await post(m.path, firing);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      metric_id: m.id,
      source: 'grafana',
      alerts: 1,
      firing: 1,
      status: 'degraded',
      value: 1,
      reason: null,
    });
    expect(await metric(m.id)).toMatchObject({ status: 'degraded', current_value: 1 });

    const resolved = {
      ...firing,
      status: 'resolved',
      state: 'ok',
      title: '[RESOLVED] HighLatency Checkout',
      alerts: [{ ...alert, status: 'resolved', endsAt: '2026-01-10T09:05:00Z' }],
    };
    expect((await post(m.path, resolved)).body).toMatchObject({ status: 'healthy', value: 0, firing: 0 });
    const after = await metric(m.id);
    expect(after).toMatchObject({ status: 'healthy', current_value: 0 });
    expect(after.history.map((h: { status: string }) => h.status)).toEqual(['healthy', 'degraded']);
  });

  it('applies source_config.severity_mapping', async () => {
    const m = await alertMetric('Mapped alerts', {
      severity_mapping: { labels: ['level'], values: { sev1: 'unhealthy', sev3: 'degraded' }, fallback: 'none' },
    });
    const am = (level: string) => alertmanagerWebhook([{ labels: { alertname: `A-${level}`, level } }]);
    expect((await post(m.path, am('sev3'))).body).toMatchObject({ value: 1, status: 'degraded' });
    expect((await post(m.path, am('whatever'))).body).toMatchObject({ value: 1, firing: 2 });
    expect((await post(m.path, am('sev1'))).body).toMatchObject({ value: 2, status: 'unhealthy' });
  });

  it('still answers at the alert URL’s former spelling, /v1/alerts/{token}, which senders are configured with', async () => {
    const m = await alertMetric('Former URL');
    const token = m.path.split('/').pop()!;
    const am = alertmanagerWebhook([{ labels: { alertname: 'Old', severity: 'warning' } }]);
    expect((await post(`/v1/alerts/${token}`, am)).body).toMatchObject({
      ok: true,
      metric_id: m.id,
      value: 1,
      status: 'degraded',
    });
    expect(
      (await post(m.path, alertmanagerWebhook([{ labels: { alertname: 'New', severity: 'critical' } }]))).body,
    ).toMatchObject({ metric_id: m.id, value: 2, firing: 2 });
    // Paging alerts keep the template's GET: an alert URL's secret is no alert id.
    expect((await call('GET', `/v1/alerts/${token}`)).status).toBe(404);
  });

  it('answers 400 validation_failed with the parser’s errors for a malformed payload, and 404 for an unknown token', async () => {
    const m = await alertMetric('Strict alerts');
    const bad = await post(m.path, { status: 'firing', alerts: [{ status: 'burning', labels: { alertname: 'X' } }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      title: 'validation_failed',
      errors: [{ path: 'alerts.0.status', message: 'Expected firing or resolved' }],
    });
    const unknownShape = await post(m.path, { hello: 'world' });
    expect(unknownShape.status).toBe(400);
    expect(unknownShape.body).toMatchObject({
      title: 'validation_failed',
      errors: [{ path: '', message: expect.stringContaining('Not an Alertmanager or Grafana alert webhook') }],
    });
    expect((await post(m.path, undefined)).body).toMatchObject({
      title: 'validation_failed',
      errors: [{ path: '', message: 'Expected a JSON object' }],
    });
    expect(
      (await api.request('POST', m.path, { rawBody: '{"alerts": [', headers: { 'content-type': 'application/json' } }))
        .body,
    ).toMatchObject({ title: 'invalid_json' });
    // Nothing was stored.
    expect(await metric(m.id)).toMatchObject({ status: 'no_data', last_sample_at: null });

    const unknown = await post('/v1/alerts/al_unknown', { status: 'firing', alerts: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.title).toBe('not_found');
    // A heartbeat token is not an alert token.
    const hb = await call('POST', '/v1/metrics', {
      service_id: org.services.Payments,
      name: 'Cron',
      source_type: 'heartbeat',
      source_config: {},
      thresholds: { healthy_operation: 'under', healthy_value: 60, unhealthy_operation: 'over', unhealthy_value: 120 },
    });
    const hbToken = new URL(hb.body.inbound_url).pathname.split('/').pop();
    expect((await post(`/v1/alerts/${hbToken}`, { status: 'firing', alerts: [] })).status).toBe(404);
    // A deleted metric's URL stops working.
    await call('DELETE', `/v1/metrics/${m.id}`);
    expect((await post(m.path, { status: 'firing', alerts: [] })).status).toBe(404);
  });

  it('refuses alert options out of shape when the metric is created', async () => {
    const res = await call('POST', '/v1/metrics', {
      service_id: org.services.Payments,
      name: 'Misconfigured',
      source_type: 'alert',
      source_config: { heartbeat_timeout_seconds: 'soon', severity_mapping: { fallback: 'bad' } },
    });
    expect([res.status, res.body.title]).toEqual([400, 'validation_failed']);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['source_config.heartbeat_timeout_seconds']));
    expect(paths.every((p: string) => p.startsWith('source_config.'))).toBe(true);
  });
});
