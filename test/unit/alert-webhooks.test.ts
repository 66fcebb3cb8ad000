import {
  DEFAULT_SEVERITY_VALUES,
  detectAlertWebhookSource,
  labelsFingerprint,
  parseAlertWebhook,
  severityOf,
  type NormalizedAlertBatch,
  type SeverityMapping,
} from '../../src/domain/inbound-alerts/webhook-formats';
import { alertmanagerWebhook } from '../support/alert-payloads';

// Alertmanager webhooks, payload version "4" (test/support/alert-payloads.ts builds the envelope
// from the alerts). Firing alerts carry Go's zero time as endsAt.
const PROBE_FAILURE = {
  labels: {
    alertname: 'ProbeFailure',
    instance: 'https://shop.example.com',
    job: 'blackbox_http',
    prometheus: 'monitoring/k8s',
    severity: 'critical',
  },
  annotations: {
    description: 'Instance https://shop.example.com has been down for over 5m. Job: blackbox_http',
    summary: 'BlackBox probe failure: https://shop.example.com',
  },
  startsAt: '2026-03-02T13:08:45.828Z',
  generatorURL: 'http://prometheus.example.com:9090/graph?g0.expr=probe_success+%3D%3D+0&g0.tab=1',
  fingerprint: '1a30ba71cca2921f',
};
const AM_FIRING_CRITICAL = alertmanagerWebhook([PROBE_FAILURE], { route: '{}/{severity="critical"}' });

const AM_FIRING_WARNING = alertmanagerWebhook(
  [
    {
      labels: {
        alertname: 'KubePodCrashLooping',
        container: 'api',
        namespace: 'shop',
        pod: 'api-7c9f8d6b5-x2xkq',
        prometheus: 'monitoring/k8s',
        severity: 'warning',
      },
      annotations: {
        description: 'Pod shop/api-7c9f8d6b5-x2xkq (api) is in waiting state (reason: "CrashLoopBackOff").',
        runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubepodcrashlooping',
        summary: 'Pod is crash looping.',
      },
      startsAt: '2026-03-02T13:20:15.091Z',
      generatorURL:
        'http://prometheus.example.com:9090/graph?g0.expr=max_over_time%28kube_pod_container_status_waiting_reason%5B5m%5D%29+%3E%3D+1&g0.tab=1',
      fingerprint: '5b3a4a4b9c1d2e7f',
    },
  ],
  { groupLabels: { alertname: 'KubePodCrashLooping', namespace: 'shop' } },
);

// send_resolved: the same alert once Prometheus stopped firing it; endsAt is now set.
const AM_RESOLVED = alertmanagerWebhook(
  [{ ...PROBE_FAILURE, status: 'resolved', endsAt: '2026-03-02T13:31:45.828Z' }],
  { route: '{}/{severity="critical"}' },
);

// kube-prometheus' always-firing Watchdog, as sent by an Alertmanager before 0.19 (no fingerprint field).
const AM_WATCHDOG = alertmanagerWebhook(
  [
    {
      labels: { alertname: 'Watchdog', prometheus: 'monitoring/k8s', severity: 'none' },
      annotations: {
        description:
          'This is an alert meant to ensure that the entire alerting pipeline is functional.\nThis alert is always firing, therefore it should always be firing in Alertmanager\nand always fire against a receiver.',
        runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/general/watchdog',
        summary: 'An alert that should always be firing to certify that Alertmanager is working properly.',
      },
      startsAt: '2026-03-01T00:00:12.394266876+01:00',
      generatorURL: 'http://prometheus.example.com:9090/graph?g0.expr=vector%281%29&g0.tab=1',
    },
  ],
  { receiver: 'vigil-heartbeat', route: '{}/{alertname="Watchdog"}', truncatedAlerts: null },
);

// Grafana unified alerting webhook contact point (grafana.com/docs, "Webhook JSON payload").
const GRAFANA_UNIFIED = {
  receiver: 'My Super Webhook',
  status: 'firing',
  orgId: 1,
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'High memory usage', team: 'blue', zone: 'us-1' },
      annotations: {
        description: 'The system has high memory usage',
        runbook_url: 'https://myrunbook.com/runbook/1234',
        summary: 'This alert was triggered for zone us-1',
      },
      startsAt: '2021-10-12T09:51:03.157076+02:00',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'https://play.grafana.org/alerting/1afz29v7z/edit',
      fingerprint: 'c6eadffa33fcdf37',
      silenceURL:
        'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1',
      dashboardURL: '',
      panelURL: '',
      values: { B: 44.23943737541908, C: 1 },
    },
    {
      status: 'firing',
      labels: { alertname: 'High CPU usage', team: 'blue', zone: 'eu-1' },
      annotations: {
        description: 'The system has high CPU usage',
        runbook_url: 'https://myrunbook.com/runbook/1234',
        summary: 'This alert was triggered for zone eu-1',
      },
      startsAt: '2021-10-12T09:56:03.157076+02:00',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'https://play.grafana.org/alerting/d1rdpdv7k/edit',
      fingerprint: 'bc97ff14869b13e3',
      silenceURL:
        'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1',
      dashboardURL: '',
      panelURL: '',
      valueString: "[ metric='' labels={} value=47043.702386305304 ]",
    },
  ],
  groupLabels: {},
  commonLabels: { team: 'blue' },
  commonAnnotations: {},
  externalURL: 'https://play.grafana.org/',
  version: '1',
  groupKey: '{}:{}',
  truncatedAlerts: 0,
  title: '[FIRING:2]  (blue)',
  state: 'alerting',
  message:
    '**Firing**\n\nLabels:\n - alertname = T2\n - team = blue\n - zone = us-1\nAnnotations:\n - description = This is the alert rule checking the second system\n - runbook_url = https://myrunbook.com\n - summary = This is my summary\nSource: https://play.grafana.org/alerting/1afz29v7z/edit\nSilence: https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1\n\nLabels:\n - alertname = T1\n - team = blue\n - zone = eu-1\nAnnotations:\nSource: https://play.grafana.org/alerting/d1rdpdv7k/edit\nSilence: https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1\n',
};

// Legacy (dashboard) Grafana alert notification, Grafana ≤ 8 webhook notifier.
const GRAFANA_LEGACY = {
  dashboardId: 1,
  evalMatches: [{ value: 1, metric: 'Count', tags: {} }],
  imageUrl: 'https://grafana.com/static/assets/img/blog/mixed_styles.png',
  message: 'Notification Message',
  orgId: 1,
  panelId: 2,
  ruleId: 1,
  ruleName: 'Panel Title alert',
  ruleUrl: 'http://localhost:3000/d/hZ7BuVbWz/test-dashboard?fullscreen&edit&tab=alert&panelId=2&orgId=1',
  state: 'alerting',
  tags: { 'tag name': 'tag value' },
  title: '[Alerting] Panel Title alert',
};

function batchOf(body: unknown, mapping?: SeverityMapping): NormalizedAlertBatch {
  const r = parseAlertWebhook(body, mapping);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(body).slice(0, 80)} to parse: ${JSON.stringify(r.errors)}`);
  return r.batch;
}
function errorsOf(body: unknown): Record<string, string> {
  const r = parseAlertWebhook(body);
  if (r.ok) throw new Error(`expected ${JSON.stringify(body).slice(0, 80)} to fail`);
  return Object.fromEntries(r.errors.map((e) => [e.path, e.message]));
}
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('Alertmanager webhooks', () => {
  it('reads a firing critical alert as unhealthy, with no end (Go zero time)', () => {
    expect(batchOf(AM_FIRING_CRITICAL)).toEqual({
      source: 'alertmanager',
      alerts: [
        {
          fingerprint: '1a30ba71cca2921f',
          name: 'ProbeFailure',
          status: 'firing',
          severity: 'unhealthy',
          startsAt: '2026-03-02T13:08:45.828Z',
          endsAt: null,
        },
      ],
    });
  });

  it('reads a warning as degraded', () => {
    expect(batchOf(AM_FIRING_WARNING).alerts).toEqual([
      {
        fingerprint: '5b3a4a4b9c1d2e7f',
        name: 'KubePodCrashLooping',
        status: 'firing',
        severity: 'degraded',
        startsAt: '2026-03-02T13:20:15.091Z',
        endsAt: null,
      },
    ]);
  });

  it('reads a resolved alert with its end time and the same fingerprint', () => {
    expect(batchOf(AM_RESOLVED).alerts).toEqual([
      {
        fingerprint: '1a30ba71cca2921f',
        name: 'ProbeFailure',
        status: 'resolved',
        severity: 'unhealthy',
        startsAt: '2026-03-02T13:08:45.828Z',
        endsAt: '2026-03-02T13:31:45.828Z',
      },
    ]);
  });

  it('reads the Watchdog, computing the fingerprint Alertmanager would send and normalizing the offset and nanoseconds', () => {
    const [watchdog] = batchOf(AM_WATCHDOG).alerts;
    expect(watchdog).toEqual({
      fingerprint: labelsFingerprint({ alertname: 'Watchdog', prometheus: 'monitoring/k8s', severity: 'none' }),
      name: 'Watchdog',
      status: 'firing',
      severity: 'none',
      startsAt: '2026-02-28T23:00:12.394Z',
      endsAt: null,
    });
    expect(watchdog!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('uses the computed fingerprint when the field is empty', () => {
    const body = clone(AM_FIRING_CRITICAL);
    body.alerts[0]!.fingerprint = '';
    expect(batchOf(body).alerts[0]!.fingerprint).toBe(labelsFingerprint(AM_FIRING_CRITICAL.alerts[0]!.labels));
  });
});

describe('Grafana webhooks', () => {
  it('reads the documented unified-alerting payload with two alerts (values and valueString)', () => {
    expect(batchOf(GRAFANA_UNIFIED)).toEqual({
      source: 'grafana',
      alerts: [
        {
          fingerprint: 'c6eadffa33fcdf37',
          name: 'High memory usage',
          status: 'firing',
          severity: 'unhealthy',
          startsAt: '2021-10-12T07:51:03.157Z',
          endsAt: null,
        },
        {
          fingerprint: 'bc97ff14869b13e3',
          name: 'High CPU usage',
          status: 'firing',
          severity: 'unhealthy',
          startsAt: '2021-10-12T07:56:03.157Z',
          endsAt: null,
        },
      ],
    });
  });

  it('tolerates Grafana sending null values and no fingerprint', () => {
    const body = clone(GRAFANA_UNIFIED) as unknown as { alerts: Array<Record<string, unknown>> };
    body.alerts[0]!.values = null;
    delete body.alerts[1]!.fingerprint;
    const [, second] = batchOf(body).alerts;
    expect(second!.fingerprint).toBe(labelsFingerprint({ alertname: 'High CPU usage', team: 'blue', zone: 'eu-1' }));
  });

  it('reads the legacy format: one alert per rule, fingerprint from the rule identity, severity from tags', () => {
    const [alert] = batchOf(GRAFANA_LEGACY).alerts;
    expect(alert).toEqual({
      fingerprint: labelsFingerprint({
        alertname: 'Panel Title alert',
        rule_id: '1',
        org_id: '1',
        dashboard_id: '1',
        panel_id: '2',
      }),
      name: 'Panel Title alert',
      status: 'firing',
      severity: 'unhealthy',
      startsAt: null,
      endsAt: null,
    });
    const ok = batchOf({ ...GRAFANA_LEGACY, state: 'ok', title: '[OK] Panel Title alert', evalMatches: [] }).alerts[0]!;
    expect(ok).toMatchObject({ fingerprint: alert!.fingerprint, status: 'resolved' });
    expect(batchOf({ ...GRAFANA_LEGACY, tags: { severity: 'warning' } }).alerts[0]!.severity).toBe('degraded');
  });

  it('maps the legacy states: no_data fires as degraded, paused and pending resolve', () => {
    const read = (state: string) => batchOf({ ...GRAFANA_LEGACY, state }).alerts[0]!;
    expect(read('no_data')).toMatchObject({ status: 'firing', severity: 'degraded' });
    expect(read('paused').status).toBe('resolved');
    expect(read('pending').status).toBe('resolved');
  });
});

describe('format detection', () => {
  it('tells the three senders apart by shape', () => {
    expect(detectAlertWebhookSource(AM_FIRING_CRITICAL)).toBe('alertmanager');
    expect(detectAlertWebhookSource(AM_WATCHDOG)).toBe('alertmanager');
    expect(detectAlertWebhookSource(GRAFANA_UNIFIED)).toBe('grafana');
    expect(
      detectAlertWebhookSource({
        ...AM_FIRING_CRITICAL,
        alerts: [{ ...AM_FIRING_CRITICAL.alerts[0], values: { A: 1 } }],
      }),
    ).toBe('grafana');
    expect(detectAlertWebhookSource(GRAFANA_LEGACY)).toBe('grafana_legacy');
    expect(detectAlertWebhookSource({ hello: 'world' })).toBeNull();
    expect(detectAlertWebhookSource([AM_FIRING_CRITICAL])).toBeNull();
  });
});

describe('malformed payloads', () => {
  it('refuses a body of neither format', () => {
    expect(errorsOf({ hello: 'world' })).toEqual({
      '': expect.stringContaining('Not an Alertmanager or Grafana alert webhook'),
    });
    expect(errorsOf('firing')).toEqual({ '': 'Expected a JSON object' });
    expect(errorsOf(null)).toEqual({ '': 'Expected a JSON object' });
  });

  it('lists every problem with its path', () => {
    const body = clone(AM_FIRING_CRITICAL) as unknown as Record<string, unknown> & {
      alerts: Array<Record<string, unknown>>;
    };
    delete body.status;
    body.truncatedAlerts = -1;
    body.alerts[0]!.status = 'pending';
    body.alerts[0]!.labels = { alertname: 'ProbeFailure', severity: 2 };
    body.alerts[0]!.startsAt = 'yesterday';
    body.alerts.push({ labels: {} });
    expect(errorsOf(body)).toEqual({
      status: 'Required',
      truncatedAlerts: 'Expected an integer ≥ 0',
      'alerts.0.status': 'Expected firing or resolved',
      'alerts.0.labels.severity': 'Expected a string value',
      'alerts.0.startsAt': 'Expected an RFC 3339 timestamp',
      'alerts.1.status': 'Required',
    });
  });

  it('refuses alerts that are not an array, and Grafana fields of the wrong type', () => {
    expect(errorsOf({ ...AM_FIRING_CRITICAL, alerts: {} })).toEqual({ alerts: 'Expected an array of alerts' });
    const grafana = clone(GRAFANA_UNIFIED) as unknown as { orgId: unknown; alerts: Array<Record<string, unknown>> };
    grafana.orgId = 'one';
    grafana.alerts[0]!.values = { B: 'high' };
    expect(Object.keys(errorsOf(grafana)).sort()).toEqual(['alerts.0.values.B', 'orgId']);
  });

  it('refuses a legacy payload with an unknown state or no rule identity', () => {
    expect(errorsOf({ ...GRAFANA_LEGACY, state: 'firing' })).toEqual({
      state: 'Expected one of alerting, ok, no_data, paused, pending',
    });
    expect(errorsOf({ state: 'alerting', title: 'x' })).toEqual({
      ruleName: 'Required (or ruleId): the rule cannot be identified',
    });
  });
});

describe('severity mapping', () => {
  it('maps the documented values case-insensitively, severity before priority', () => {
    for (const v of ['critical', 'error', 'page', 'high', 'P1', 'p2'])
      expect(severityOf({ severity: v })).toBe('unhealthy');
    for (const v of ['warning', 'warn', 'Medium', 'p3', 'minor']) expect(severityOf({ severity: v })).toBe('degraded');
    for (const v of ['info', 'none', 'low']) expect(severityOf({ severity: v })).toBe('none');
    expect(severityOf({ priority: 'p3' })).toBe('degraded');
    expect(severityOf({ severity: 'info', priority: 'p1' })).toBe('none');
    expect(Object.keys(DEFAULT_SEVERITY_VALUES)).toEqual(expect.arrayContaining(['critical', 'warning', 'info']));
  });

  it('reads a missing label or an unknown value as unhealthy', () => {
    expect(severityOf({ alertname: 'X' })).toBe('unhealthy');
    expect(severityOf({ severity: 'catastrophic' })).toBe('unhealthy');
    expect(severityOf({ severity: '  ' })).toBe('unhealthy');
  });

  it('takes an optional mapping: labels, extra values and the fallback', () => {
    const mapping = {
      labels: ['urgency'],
      values: { SEV1: 'unhealthy', sev3: 'none', critical: 'degraded' },
      fallback: 'degraded',
    } as const;
    expect(severityOf({ urgency: 'sev1' }, mapping)).toBe('unhealthy');
    expect(severityOf({ urgency: 'SEV3' }, mapping)).toBe('none');
    expect(severityOf({ urgency: 'critical' }, mapping)).toBe('degraded');
    expect(severityOf({ severity: 'critical' }, mapping)).toBe('degraded');
    expect(batchOf(GRAFANA_UNIFIED, { fallback: 'none' }).alerts.map((a) => a.severity)).toEqual(['none', 'none']);
  });
});

describe('fingerprint', () => {
  it("matches Prometheus' label-set fingerprint (FNV-1a 64, sorted labels, 0xff separators)", () => {
    // Test vectors of prometheus/common model/signature_test.go.
    expect(labelsFingerprint({})).toBe(14695981039346656037n.toString(16));
    expect(labelsFingerprint({ name: 'garland, briggs', fear: 'love is not enough' })).toBe(
      5799056148416392346n.toString(16).padStart(16, '0'),
    );
  });

  it('does not depend on label order and hashes non-ASCII values as UTF-8', () => {
    expect(labelsFingerprint({ b: '2', a: '1' })).toBe(labelsFingerprint({ a: '1', b: '2' }));
    expect(labelsFingerprint({ zone: 'zürich' })).not.toBe(labelsFingerprint({ zone: 'zurich' }));
    expect(labelsFingerprint({ a: 'b\u00ff' })).not.toBe(labelsFingerprint({ a: 'b', '\u00ff': '' }));
  });
});
