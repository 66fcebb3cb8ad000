/**
 * The two organizations of a run and what they hold: live, deleted (or canceled, revoked,
 * expired) items of every kind an operation's path can name, credentials, cursors and a paging
 * alert, made through the API as a customer would. The fuzzer aims one organization's requests at
 * its own items, at the other's, and at the deleted ones.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rawRows, rawRun } from '../../../src/db/raw-sql';
import { signAlertLink } from '../../../src/crypto/alert-action-links';
import { ConsoleUserSchema } from '../../../src/db/entities';
import type { ApiHarness } from '../api-harness';
import { eventually } from '../eventually';
import type { OrgFixture } from '../org-fixture';
import type { TemporalHarness } from '../temporal-harness';
import type { VendorReceiver } from '../vendor-receivers';

/** What making the holdings needs of the running stack. */
export interface HoldingParts {
  api: ApiHarness;
  temporal: TemporalHarness;
  /** The PagerDuty stand-in that the paging alert notifies. */
  pagerduty: VendorReceiver;
  /** The key of the one-click links in alert notifications, as the API and the worker hold it. */
  alertLinkKey: Buffer;
}

export type Kind =
  | 'service'
  | 'customer'
  | 'metric'
  | 'incident'
  | 'incidentMessage'
  | 'maintenance'
  | 'changeEvent'
  | 'incidentTemplate'
  | 'webhook'
  | 'delivery'
  | 'agent'
  | 'slo'
  | 'statusPage'
  | 'subscriber'
  | 'contract'
  | 'statement'
  | 'job'
  | 'heartbeat'
  | 'alertReceiver'
  | 'notificationChannel'
  | 'escalationPolicy'
  | 'onCallSchedule'
  | 'alertRule'
  | 'silence'
  | 'alert'
  | 'alertLink'
  | 'subdomain';

export interface Holdings {
  org: OrgFixture;
  live: Record<Kind, string>;
  deleted: Partial<Record<Kind, string>>;
  agentToken: string;
  revokedAgentToken: string;
  /** next_cursor of the first page of services and of incidents (limit 1). */
  cursors: { services: string; incidents: string };
  /** A pending subscriber of the organization's page, for link tokens. */
  pendingSubscriber: string;
  /** What valid alerting bodies name, kept apart from the live ids so that the deletes of those can succeed. */
  paging: { channel: string; policy: string; consoleEmail: string };
}

export const PERIOD = '2026-10';
export const HTTP_THRESHOLDS = {
  healthy_operation: 'under',
  healthy_value: 500,
  unhealthy_operation: 'over',
  unhealthy_value: 2000,
};

/** A fixture's call, which must succeed. */
export async function must<T = any>(
  org: OrgFixture,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const res = await org.call(method, path, body, headers);
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
  return res.body as T;
}

/** Names (subdomains, emails) no other run or suite uses. */
let uniq = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(uniq++).toString(36)}`;

/** Makes what an organization holds, named after `label`. */
export async function hold(parts: HoldingParts, org: OrgFixture, label: string): Promise<Holdings> {
  const { api } = parts;
  const id = async (method: string, path: string, body?: unknown) =>
    (await must<{ id: string }>(org, method, path, body)).id;
  const service = await id('POST', '/v1/services', { name: `${label} api` });
  await id('POST', '/v1/services', { name: `${label} web` });
  const serviceDeleted = await id('POST', '/v1/services', { name: `${label} gone` });
  await must(org, 'DELETE', `/v1/services/${serviceDeleted}`);
  const customer = await id('POST', '/v1/customers', {
    name: `${label} customer`,
    contact_email: 'billing@example.com',
  });
  const customerDeleted = await id('POST', '/v1/customers', { name: `${label} gone` });
  await must(org, 'DELETE', `/v1/customers/${customerDeleted}`);
  const metric = await id('POST', '/v1/metrics', {
    service_id: service,
    name: `${label} manual`,
    source_type: 'manual',
    source_config: {},
  });
  const metricDeleted = await id('POST', '/v1/metrics', {
    service_id: service,
    name: `${label} gone`,
    source_type: 'manual',
    source_config: {},
  });
  await must(org, 'DELETE', `/v1/metrics/${metricDeleted}`);
  const inbound = async (source_type: string, thresholds?: unknown) => {
    const m = await must<{ id: string; inbound_url: string }>(org, 'POST', '/v1/metrics', {
      service_id: service,
      name: `${label} ${source_type}`,
      source_type,
      source_config: {},
      ...(thresholds ? { thresholds } : {}),
    });
    return { id: m.id, token: m.inbound_url.split('/').pop()! };
  };
  const heartbeat = await inbound('heartbeat', {
    healthy_operation: 'under',
    healthy_value: 120,
    unhealthy_operation: 'over',
    unhealthy_value: 600,
  });
  const alertReceiver = await inbound('alert');
  const heartbeatGone = await inbound('heartbeat', {
    healthy_operation: 'under',
    healthy_value: 120,
    unhealthy_operation: 'over',
    unhealthy_value: 600,
  });
  await must(org, 'DELETE', `/v1/metrics/${heartbeatGone.id}`);

  const agent = await must<{ id: string; token: string }>(org, 'POST', '/v1/agents', { name: `${label} agent` });
  const revoked = await must<{ id: string; token: string }>(org, 'POST', '/v1/agents', { name: `${label} revoked` });
  await must(org, 'POST', `/v1/agents/${revoked.id}/revoke`);
  const beat = await api.request('POST', '/v1/agent/heartbeat', {
    headers: { authorization: `Bearer ${agent.token}` },
    body: { version: '1.7.0', hostname: `${label}-host` },
  });
  if (beat.status !== 200) throw new Error(`agent heartbeat: ${beat.status} ${beat.text}`);

  const incident = await id('POST', '/v1/incidents', {
    title: `${label} incident`,
    affected_services: [service],
    publish: true,
    initial_message: { body: 'Looking.' },
  });
  await id('POST', '/v1/incidents', { title: `${label} draft` });
  const incidentMessage = (await must<{ messages: { id: string }[] }>(org, 'GET', `/v1/incidents/${incident}`))
    .messages[0]!.id;
  const incidentDeleted = await id('POST', '/v1/incidents', { title: `${label} gone` });
  await must(org, 'DELETE', `/v1/incidents/${incidentDeleted}`);
  const maintenance = await id('POST', '/v1/maintenances', {
    title: `${label} window`,
    affected_services: [service],
    scheduled_start_at: '2099-01-01T00:00:00.000Z',
    scheduled_end_at: '2099-01-01T01:00:00.000Z',
  });
  const maintenanceCanceled = await id('POST', '/v1/maintenances', {
    title: `${label} canceled`,
    scheduled_start_at: '2099-02-01T00:00:00.000Z',
    scheduled_end_at: '2099-02-01T01:00:00.000Z',
  });
  await must(org, 'POST', `/v1/maintenances/${maintenanceCanceled}/cancel`);
  const changeEvent = await id('POST', '/v1/change-events', {
    kind: 'deploy',
    title: `${label} deploy`,
    service_ids: [service],
  });
  const incidentTemplate = await id('POST', '/v1/incident-templates', {
    name: `${label} template`,
    title: `${label} outage`,
    body: 'Looking.',
    service_impacts: [{ service_id: service, impact: 'major_outage' }],
  });
  const incidentTemplateDeleted = await id('POST', '/v1/incident-templates', { name: `${label} gone`, title: 'gone' });
  await must(org, 'DELETE', `/v1/incident-templates/${incidentTemplateDeleted}`);
  const webhook = await id('POST', '/v1/webhooks', {
    url: 'https://hooks.example.com/vigil',
    event_types: ['incident.created'],
    enabled: false,
  });
  const webhookDeleted = await id('POST', '/v1/webhooks', {
    url: 'https://hooks.example.com/gone',
    event_types: ['incident.created'],
  });
  await must(org, 'DELETE', `/v1/webhooks/${webhookDeleted}`);
  // A delivery as the outbox relay would make one (running the relay here would take other suites' events too).
  const [event] = await rawRows<{ id: string }>(
    api.orm.em.fork(),
    'select id from outbox_events where organization_id = ? order by created_at limit 1',
    [org.id],
  );
  const delivery = randomUUID();
  await rawRun(
    api.orm.em.fork(),
    `insert into webhook_deliveries (id, organization_id, subscription_id, event_id, event_type, state, attempt_count, created_at, updated_at, completed_at)
     values (?, ?, ?, ?, 'incident.created', 'failed', 1, now(), now(), now())`,
    [delivery, org.id, webhook, event!.id],
  );
  const slo = await id('POST', '/v1/slos', {
    name: `${label} slo`,
    service_id: service,
    objective: '99.9',
    window: { kind: 'rolling', days: 30 },
  });
  const sloDeleted = await id('POST', '/v1/slos', {
    name: `${label} gone`,
    service_id: service,
    objective: '99',
    window: { kind: 'rolling', days: 7 },
  });
  await must(org, 'DELETE', `/v1/slos/${sloDeleted}`);
  const subdomain = unique(`fz${label}`);
  const statusPage = await id('POST', '/v1/status-pages', {
    subdomain,
    title: `${label} status`,
    groups: [
      {
        name: 'Core',
        components: [
          { kind: 'service', id: service },
          { kind: 'metric', id: metric },
        ],
      },
    ],
  });
  const goneSubdomain = unique(`fz${label}gone`);
  const statusPageDeleted = await id('POST', '/v1/status-pages', { subdomain: goneSubdomain, title: 'gone' });
  await must(org, 'DELETE', `/v1/status-pages/${statusPageDeleted}`);
  await must(org, 'POST', `/v1/status-pages/${statusPage}/subscribers/import`, {
    subscribers: [{ email: `${label}-confirmed@example.com` }],
    skip_confirmation: true,
  });
  await must(org, 'POST', `/v1/status-page/${subdomain}/subscribe`, { email: `${label}-pending@example.com` });
  const subscribers = await must<{ items: { id: string; state: string }[] }>(
    org,
    'GET',
    `/v1/status-pages/${statusPage}/subscribers`,
  );
  const subscriber = subscribers.items.find((s) => s.state === 'confirmed')!.id;
  const pendingSubscriber = subscribers.items.find((s) => s.state === 'pending')!.id;

  const contractBody = (name: string) => ({
    customer_id: customer,
    name,
    service_ids: [service],
    sla_target_pct: '99.9',
    timezone: 'UTC',
    currency: 'EUR',
    monthly_fee_minor: 1000,
    effective_from: '2026-01-01',
    credit_terms: { type: 'tiered', steps: [{ below_pct: '99.9', credit_pct: '10' }], maintenance_notice_hours: 0 },
  });
  const contract = await id('POST', '/v1/contracts', contractBody(`${label} contract`));
  const contractDeleted = await id('POST', '/v1/contracts', contractBody(`${label} gone`));
  await must(org, 'DELETE', `/v1/contracts/${contractDeleted}`);
  const statement = await must<{ id: string }>(org, 'POST', `/v1/contracts/${contract}/statements`, { period: PERIOD });

  const test = await must<{ job_id?: string; poll?: string }>(org, 'POST', '/v1/metrics/test', {
    agent_id: agent.id,
    source_type: 'http',
    source_config: { url: 'https://example.com/health' },
    thresholds: HTTP_THRESHOLDS,
    wait_seconds: 0,
  });
  const job = test.job_id ?? test.poll!.split('/').pop()!;

  const alerting = await holdAlerting(parts, org, label, service);

  const cursorOf = async (path: string) =>
    (await must<{ next_cursor: string | null }>(org, 'GET', `${path}?limit=1`)).next_cursor!;
  return {
    org,
    live: {
      service,
      customer,
      metric,
      incident,
      incidentMessage,
      maintenance,
      changeEvent,
      incidentTemplate,
      webhook,
      delivery,
      agent: agent.id,
      slo,
      statusPage,
      subscriber,
      contract,
      statement: statement.id,
      job,
      heartbeat: heartbeat.token,
      alertReceiver: alertReceiver.token,
      ...alerting.live,
      subdomain,
    },
    deleted: {
      service: serviceDeleted,
      customer: customerDeleted,
      metric: metricDeleted,
      incident: incidentDeleted,
      incidentTemplate: incidentTemplateDeleted,
      maintenance: maintenanceCanceled,
      webhook: webhookDeleted,
      agent: revoked.id,
      slo: sloDeleted,
      statusPage: statusPageDeleted,
      contract: contractDeleted,
      heartbeat: heartbeatGone.token,
      ...alerting.deleted,
      subdomain: goneSubdomain,
    },
    agentToken: agent.token,
    revokedAgentToken: revoked.token,
    cursors: { services: await cursorOf('/v1/services'), incidents: await cursorOf('/v1/incidents') },
    pendingSubscriber,
    paging: alerting.paging,
  };
}

/**
 * Alerting. The live rule escalates by the live policy, which targets the live channel
 * and schedule (the deletes, run last in that order, each succeed). A second chain pages for real:
 * an unhealthy metric, its rule, policy and PagerDuty channel, and the alert workflow it starts on
 * this suite's worker, whose alert the alert operations act on (a level's delay of 10 hours keeps
 * it from escalating during the run). Its one-click link is signed with the API's key.
 *
 * Rules stay disabled but while the paging one opens its alert: another suite's relay drains the
 * whole shared outbox and would start alert workflows of enabled rules on its own worker, paging
 * this suite's channels through that suite's receivers.
 */
async function holdAlerting(parts: HoldingParts, org: OrgFixture, label: string, service: string) {
  const { api, pagerduty, alertLinkKey } = parts;
  const id = async (method: string, path: string, body?: unknown) =>
    (await must<{ id: string }>(org, method, path, body)).id;
  const consoleEmail = `${label}-oncall@example.com`;
  const em = api.orm.em.fork();
  em.create(ConsoleUserSchema, {
    id: randomUUID(),
    organization: org.id,
    email: consoleEmail,
    role: 'operator',
    createdAt: new Date(),
    lastSignInAt: null,
    disabledAt: null,
  });
  await em.flush();
  const channelBody = (name: string) => ({
    name: `${label} ${name}`,
    type: 'pagerduty',
    routing_key: randomBytes(16).toString('hex'),
  });
  const scheduleBody = (name: string) => ({
    name: `${label} ${name}`,
    timezone: 'Europe/Berlin',
    layers: [
      {
        name: 'weekly',
        rotation: { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-01-05', participants: [consoleEmail] },
      },
    ],
    overrides: [{ user: consoleEmail, start_at: '2099-01-01T00:00:00.000Z', end_at: '2099-01-02T00:00:00.000Z' }],
  });
  const notificationChannel = await id('POST', '/v1/notification-channels', channelBody('pager'));
  const channelDeleted = await id('POST', '/v1/notification-channels', channelBody('gone'));
  await must(org, 'DELETE', `/v1/notification-channels/${channelDeleted}`);
  const onCallSchedule = await id('POST', '/v1/on-call/schedules', scheduleBody('primary'));
  const scheduleDeleted = await id('POST', '/v1/on-call/schedules', scheduleBody('gone'));
  await must(org, 'DELETE', `/v1/on-call/schedules/${scheduleDeleted}`);
  const policyBody = (name: string, targets: unknown[]) => ({
    name: `${label} ${name}`,
    levels: [{ delay_minutes: 600, targets }],
    repeat: 1,
  });
  const escalationPolicy = await id(
    'POST',
    '/v1/escalation-policies',
    policyBody('policy', [
      { type: 'channel', id: notificationChannel },
      { type: 'schedule', id: onCallSchedule },
      { type: 'user', email: consoleEmail },
    ]),
  );
  const policyDeleted = await id(
    'POST',
    '/v1/escalation-policies',
    policyBody('gone', [{ type: 'user', email: consoleEmail }]),
  );
  await must(org, 'DELETE', `/v1/escalation-policies/${policyDeleted}`);
  const ruleBody = (name: string) => ({
    name: `${label} ${name}`,
    kind: 'service_status',
    subject_id: service,
    severity: 'critical',
    escalation_policy_id: escalationPolicy,
    enabled: false,
  });
  const alertRule = await id('POST', '/v1/alert-rules', ruleBody('rule'));
  const ruleDeleted = await id('POST', '/v1/alert-rules', ruleBody('gone'));
  await must(org, 'DELETE', `/v1/alert-rules/${ruleDeleted}`);
  const silenceBody = (reason: string) => ({
    rule_ids: [alertRule],
    service_ids: [service],
    ends_at: '2099-01-01T00:00:00.000Z',
    reason: `${label} ${reason}`,
  });
  const silence = await id('POST', '/v1/silences', silenceBody('freeze'));
  const silenceDeleted = await id('POST', '/v1/silences', silenceBody('gone'));
  await must(org, 'DELETE', `/v1/silences/${silenceDeleted}`);

  const pagingService = await id('POST', '/v1/services', { name: `${label} paging` });
  const pagingMetric = await id('POST', '/v1/metrics', {
    service_id: pagingService,
    name: `${label} paging`,
    source_type: 'manual',
    source_config: {},
  });
  await must(org, 'POST', `/v1/metrics/${pagingMetric}/status`, { status: 'unhealthy' });
  const pagingChannel = await id('POST', '/v1/notification-channels', channelBody('paging'));
  const pagingPolicy = await id(
    'POST',
    '/v1/escalation-policies',
    policyBody('paging', [{ type: 'channel', id: pagingChannel }]),
  );
  const pagingRule = await id('POST', '/v1/alert-rules', {
    name: `${label} paging`,
    kind: 'metric_status',
    subject_id: pagingMetric,
    severity: 'critical',
    escalation_policy_id: pagingPolicy,
    auto_resolve: false,
  });
  // As the outbox relay signals a firing change; then wait for the page at the receiver, so that no send is under way when fuzzing starts.
  const paged = pagerduty.requests.length + 1;
  await parts.temporal.webhookStarter.signalAlerts!([
    { signalId: randomUUID(), organizationId: org.id, ruleId: pagingRule, subjectId: pagingMetric, firing: true },
  ]);
  await pagerduty.waitFor(paged, 60_000);
  const alert = await eventually(async () => {
    const page = await must<{ items: { id: string; state: string }[] }>(org, 'GET', `/v1/alerts?rule_id=${pagingRule}`);
    if (page.items[0]?.state !== 'triggered')
      throw new Error(`no triggered alert for ${label}: ${JSON.stringify(page.items)}`);
    return page.items[0].id;
  }, 10_000);
  // The workflow runs on (it reads the rule again only when signalled, which a disabled rule never is).
  await must(org, 'PATCH', `/v1/alert-rules/${pagingRule}`, { enabled: false });
  return {
    live: {
      notificationChannel,
      escalationPolicy,
      onCallSchedule,
      alertRule,
      silence,
      alert,
      alertLink: signAlertLink(alertLinkKey, alert, 'acknowledge', { kind: 'channel', id: pagingChannel }, Date.now()),
    },
    deleted: {
      notificationChannel: channelDeleted,
      escalationPolicy: policyDeleted,
      onCallSchedule: scheduleDeleted,
      alertRule: ruleDeleted,
      silence: silenceDeleted,
      // A link of this organization's alert that expired.
      alertLink: signAlertLink(
        alertLinkKey,
        alert,
        'resolve',
        { kind: 'channel', id: pagingChannel },
        Date.now() - 25 * 3_600_000,
      ),
    },
    paging: { channel: pagingChannel, policy: pagingPolicy, consoleEmail },
  };
}
