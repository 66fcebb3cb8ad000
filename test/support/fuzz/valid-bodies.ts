/**
 * A valid request body per operation, and a valid source_config per source type: what the
 * mutations start from, so that each hostile case differs from an accepted request in one way.
 */
import { HTTP_THRESHOLDS, type Holdings, PERIOD, unique } from './holdings';

/** A valid body per operation, in the owner's terms; the fuzzer mutates it. */
export function validBody(op: string, h: Holdings): unknown {
  const L = h.live;
  const bodies: Record<string, () => unknown> = {
    createService: () => ({ name: 'fz service', description: 'made by the fuzzer', config_key: null }),
    updateService: () => ({ name: 'fz service renamed', description: null }),
    createCustomer: () => ({ name: 'fz customer', external_id: 'ext-1', contact_email: 'c@example.com' }),
    updateCustomer: () => ({ name: 'fz customer renamed', external_id: null }),
    createChangeEvent: () => ({
      kind: 'deploy',
      title: 'fz deploy',
      description: 'd',
      service_ids: [L.service],
      actor: 'ci',
      source: 'fuzz',
      links: [{ label: 'run', url: 'https://ci.example.com/1' }],
      metadata: { version: '1.2.3' },
      occurred_at: new Date().toISOString(),
    }),
    createIncident: () => ({
      title: 'fz incident',
      severity: 'minor',
      affected_services: [L.service],
      visible_to_customer_ids: [L.customer],
      publish: false,
      initial_message: { type: 'Investigating', body: 'Looking.', notify_subscribers: true },
      service_impacts: [{ service_id: L.service, impact: 'partial_outage' }],
    }),
    updateIncident: () => ({
      title: 'fz incident renamed',
      severity: 'major',
      affected_services: [L.service],
      service_impacts: [{ service_id: L.service, impact: 'major_outage' }],
    }),
    addIncidentMessage: () => ({ type: 'Update', body: 'Still looking.', notify_subscribers: false }),
    updateIncidentMessage: () => ({ body: 'Still looking, edited.' }),
    createIncidentTemplate: () => ({
      name: 'fz template',
      title: 'fz outage',
      body: 'Looking.',
      severity: 'major',
      message_type: 'Identified',
      affected_services: [L.service],
      service_impacts: [{ service_id: L.service, impact: 'partial_outage' }],
    }),
    updateIncidentTemplate: () => ({
      name: 'fz template renamed',
      body: null,
      service_impacts: [{ service_id: L.service, impact: 'major_outage' }],
    }),
    resolveIncident: () => ({ message: 'Fixed.' }),
    createMaintenance: () => ({
      title: 'fz window',
      description: 'd',
      affected_services: [L.service],
      scheduled_start_at: '2099-03-01T00:00:00.000Z',
      scheduled_end_at: '2099-03-01T01:00:00.000Z',
    }),
    addMaintenanceMessage: () => ({ body: 'Halfway done.', notify_subscribers: false }),
    updateMaintenance: () => ({
      title: 'fz window renamed',
      description: null,
      affected_services: [L.service],
      scheduled_start_at: '2099-01-01T00:00:00.000Z',
      scheduled_end_at: '2099-01-01T02:00:00.000Z',
    }),
    createWebhook: () => ({
      url: 'https://hooks.example.com/fz',
      event_types: ['incident.created', 'incident.resolved'],
      description: 'fz',
      enabled: false,
    }),
    updateWebhook: () => ({ description: 'fz renamed', enabled: false, event_types: ['incident.created'] }),
    registerAgent: () => ({ name: 'fz agent' }),
    createMetric: () => ({
      service_id: L.service,
      name: 'fz metric',
      source_type: 'manual',
      source_config: {},
      unit: 'ms',
    }),
    updateMetric: () => ({ name: 'fz metric renamed', unit: 's' }),
    setMetricStatus: () => ({ status: 'degraded', note: 'fz' }),
    importMetricSamples: () => ({
      samples: [
        { sampled_at: new Date(Date.now() - 10 * 86_400_000).toISOString(), value: 1 },
        { sampled_at: new Date(Date.now() - 9 * 86_400_000).toISOString(), value: null, reason: 'ECONNREFUSED' },
      ],
    }),
    receiveAlerts: () => ({
      receiver: 'vigil',
      status: 'firing',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'HighLatency', severity: 'critical' },
          annotations: { summary: 's' },
          startsAt: new Date().toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: '',
        },
      ],
      groupLabels: { alertname: 'HighLatency' },
      commonLabels: { alertname: 'HighLatency', severity: 'critical' },
      commonAnnotations: {},
      externalURL: 'http://alertmanager.example.com:9093',
      version: '4',
      groupKey: '{}:{alertname="HighLatency"}',
      truncatedAlerts: 0,
    }),
    // The former alert URL takes the same payload.
    receiveAlertsDeprecated: () => bodies.receiveAlerts!(),
    createSlo: () => ({
      name: 'fz slo',
      service_id: L.service,
      objective: '99.9',
      window: { kind: 'calendar_month', timezone: 'Europe/Berlin' },
      no_data: 'excluded',
    }),
    updateSlo: () => ({ name: 'fz slo renamed', objective: '99.5', window: { kind: 'rolling', days: 7 } }),
    createContract: () => ({
      customer_id: L.customer,
      name: 'fz contract',
      service_ids: [L.service],
      slo_ids: [L.slo],
      sla_target_pct: '99.9',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      monthly_fee_minor: 50_000,
      effective_from: '2026-01-01',
      effective_to: null,
      credit_terms: { type: 'proportional', multiplier: '10', cap_pct: '50', maintenance_notice_hours: 24 },
      billing_email: 'billing@example.com',
      finance_contacts: ['f@example.com'],
      grace_hours: 24,
    }),
    updateContract: () => ({ name: 'fz contract renamed', grace_hours: 12, monthly_fee_minor: 60_000 }),
    requestSlaStatement: () => ({ period: PERIOD }),
    submitSlaStatement: () => ({ acknowledge_gaps: true }),
    approveSlaStatement: () => ({ revision: 1, sha256: '0'.repeat(64) }),
    requestSlaStatementChanges: () => ({ note: 'please recheck' }),
    addSlaStatementExclusion: () => ({
      starts_at: '2026-10-02T00:00:00.000Z',
      ends_at: '2026-10-02T01:00:00.000Z',
      justification: 'agreed freeze',
    }),
    correctSlaStatement: () => ({ note: 'correction' }),
    voidSlaStatement: () => ({ reason: 'issued in error' }),
    createStatusPage: () => ({
      subdomain: unique('fzpage'),
      title: 'fz page',
      description: 'd',
      time_zone: 'Europe/Berlin',
      branding: { logo_url: 'https://cdn.example.com/logo.png', accent_color: '#112233', header_color: null },
      links: [{ label: 'Home', url: 'https://example.com' }],
      groups: [{ name: 'Core', components: [{ kind: 'service', id: L.service }] }],
    }),
    updateStatusPage: () => ({
      title: 'fz page renamed',
      description: null,
      groups: [{ name: null, components: [{ kind: 'metric', id: L.metric }] }],
    }),
    importSubscribers: () => ({
      subscribers: [{ email: `${unique('imp')}@example.com`, components: [L.service], customer_id: null }],
      skip_confirmation: true,
    }),
    createViewerToken: () => ({ customer_id: L.customer, ttl_seconds: 600 }),
    applyConfig: () => ({
      version: 1,
      customers: [
        { config_key: 'fz-cust', name: 'fz config customer', external_id: 'ext-9', contact_email: 'c@example.com' },
      ],
      services: [{ config_key: 'fz-svc', name: 'fz config service', description: 'd' }],
      metrics: [
        {
          config_key: 'fz-metric',
          service: 'fz-svc',
          name: 'fz config metric',
          source_type: 'http',
          source_config: { url: 'https://example.com/health' },
          thresholds: HTTP_THRESHOLDS,
          interval_seconds: 60,
          unit: 'ms',
        },
      ],
      slos: [
        {
          config_key: 'fz-slo',
          name: 'fz config slo',
          service: 'fz-svc',
          objective: '99.9',
          window: { kind: 'rolling', days: 30 },
        },
      ],
      status_pages: [
        {
          config_key: 'fz-page',
          subdomain: CONFIG_SUBDOMAIN,
          title: 'fz config page',
          time_zone: 'UTC',
          groups: [{ name: 'Core', components: [{ service: 'fz-svc' }, { slo: 'fz-slo' }] }],
        },
      ],
      webhooks: [
        {
          config_key: 'fz-hook',
          url: 'https://hooks.example.com/config',
          event_types: ['incident.created'],
          enabled: false,
        },
      ],
      contracts: [
        {
          config_key: 'fz-contract',
          customer: 'fz-cust',
          name: 'fz config contract',
          services: ['fz-svc'],
          sla_target_pct: '99.9',
          timezone: 'UTC',
          currency: 'EUR',
          monthly_fee_minor: 1000,
          effective_from: '2026-01-01',
          credit_terms: {
            type: 'tiered',
            steps: [{ below_pct: '99.9', credit_pct: '10' }],
            maintenance_notice_hours: 0,
          },
        },
      ],
    }),
    subscribeToStatusPage: () => ({ email: `${unique('sub')}@example.com`, components: [L.service] }),
    testProbe: () => ({
      agent_id: L.agent,
      source_type: 'http',
      source_config: { url: 'https://example.com/health' },
      thresholds: HTTP_THRESHOLDS,
      wait_seconds: 0,
    }),
    agentHeartbeat: () => ({ version: '1.7.0', hostname: 'fz-host' }),
    postAgentSamples: () => ({
      samples: [{ metric_id: L.metric, sampled_at: new Date().toISOString(), value: 12.5, reason: null }],
    }),
    postAgentJobResult: () => ({
      outcome: { value: 120, unit: 'ms', value_description: null, reason: null, duration_ms: 120 },
    }),
    createNotificationChannel: () => ({ name: 'fz pager', type: 'pagerduty', routing_key: 'a'.repeat(32) }),
    updateNotificationChannel: () => ({ name: 'fz renamed', enabled: false }),
    createEscalationPolicy: () => ({
      name: 'fz policy',
      levels: [
        {
          delay_minutes: 5,
          targets: [
            { type: 'channel', id: h.paging.channel },
            { type: 'user', email: h.paging.consoleEmail },
          ],
        },
      ],
      repeat: 1,
    }),
    updateEscalationPolicy: () => ({ name: 'fz policy renamed', repeat: 0 }),
    createOnCallSchedule: () => ({
      name: 'fz schedule',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'l1',
          rotation: {
            kind: 'weekly',
            handoff_time: '09:00',
            starts_on: '2026-01-05',
            participants: [h.paging.consoleEmail],
          },
        },
      ],
      overrides: [
        { user: h.paging.consoleEmail, start_at: '2099-03-01T00:00:00.000Z', end_at: '2099-03-02T00:00:00.000Z' },
      ],
    }),
    updateOnCallSchedule: () => ({ name: 'fz schedule renamed' }),
    createAlertRule: () => ({
      name: 'fz rule',
      kind: 'service_status',
      subject_id: L.service,
      severity: 'critical',
      escalation_policy_id: h.paging.policy,
      enabled: false,
    }),
    updateAlertRule: () => ({ name: 'fz rule renamed', severity: 'warning', enabled: false }),
    createSilence: () => ({
      rule_ids: [L.alertRule],
      service_ids: [L.service],
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'fz',
    }),
    acknowledgeAlert: () => ({ note: 'fz' }),
    resolveAlert: () => ({ note: 'fz' }),
    snoozeAlert: () => ({ minutes: 30 }),
  };
  const make = bodies[op];
  if (!make) throw new Error(`No valid body for ${op}: add one to validBody`);
  return make();
}

/** The subdomain of the status page of the valid configuration document (the same in every apply of a run). */
export const CONFIG_SUBDOMAIN = unique('fzcfg');

/** A valid source_config per source type, whose fields the fuzzer replaces one at a time. */
export const SOURCE_CONFIGS: Record<string, Record<string, unknown>> = {
  http: { url: 'https://example.com/health', method: 'GET', expected_status: [200], timeout_ms: 5000 },
  tcp: { host: 'example.com', port: 443 },
  dns: { name: 'example.com', record_type: 'A' },
  icmp: { host: 'example.com', count: 3 },
  tls_cert: { host: 'example.com', port: 443 },
  grpc: { target: 'example.com:443', tls: true },
  websocket: { url: 'wss://example.com/ws', send: 'ping', expect: 'pong' },
  database: { engine: 'postgres', connection_string_ref: 'DB_URL', query: 'select 1', statement_timeout_ms: 1000 },
  prometheus: { query: 'up', server_url: 'http://prometheus:9090' },
  loki: { query: '{job="api"}', url: 'http://loki:3100' },
  elasticsearch: {
    url: 'https://es.example.com',
    index: 'logs-*',
    query: { match_all: {} },
    aggregation: { type: 'count' },
  },
  cloudwatch: {
    namespace: 'AWS/EC2',
    metric_name: 'CPUUtilization',
    statistic: 'Average',
    dimensions: { InstanceId: 'i-1' },
    period_seconds: 60,
    region: 'eu-west-1',
  },
  host: { metric: 'cpu' },
};
