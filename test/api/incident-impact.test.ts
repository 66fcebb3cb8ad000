import type { ParsedMail } from 'mailparser';
import { OutboxEventSchema, SubscriberEmailSchema } from '../../src/db/entities';
import { createMailer } from '../../src/infra/mailer';
import { emailWorkflowId } from '../../src/temporal/outbox-workflow-starter';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { testLinkKey } from '../support/env';
import { eventually } from '../support/eventually';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { pageRequest } from '../support/status-host';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { useOwnDatabase } from '../support/own-database';

let api: ApiHarness;
let t: TemporalHarness;
let sink: SmtpSink;
let org: OrgFixture<never, 'API' | 'Web'>;

const SUBDOMAIN = 'impact-status';
const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

/** Waits until every email run of the incident's events of this type has finished; answers the events. */
async function emailsSettled(eventType: string, resourceId: string) {
  const em = api.orm.em.fork();
  const events = await eventually(async () => {
    const e = await em.find(OutboxEventSchema, { type: eventType, resourceId });
    expect(e.length).toBeGreaterThan(0);
    return e;
  });
  for (const e of events) {
    await eventually(async () => {
      const d = await t.temporal.client.workflow.getHandle(emailWorkflowId(e.id)).describe();
      expect(d.status.name).toBe('COMPLETED');
    }, 20_000);
  }
  return events;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  // The relay below drains its own database: the API must write there too (the teardown drops it).
  await useOwnDatabase();
  api = await startApi();
  t = await startTemporalHarness({
    relay: true,
    email: {
      mailer: createMailer({ smtpUrl: sink.url, from: 'Acme Status <status@acme.test>', outboxDir: '/tmp/unused' }),
      linkKey: testLinkKey(),
      site: { statusHost: 'status.localhost', publicBaseUrl: api.baseUrl },
      retryBaseMs: 300,
    },
  });
  org = await orgWithKeys(api, { name: 'impact', services: ['API', 'Web'] });
  const page = await org.call('POST', '/v1/status-pages', {
    subdomain: SUBDOMAIN,
    title: 'Impact Status',
    groups: [
      {
        name: null,
        components: [
          { kind: 'service', id: org.services.API },
          { kind: 'service', id: org.services.Web },
        ],
      },
    ],
  });
  expect(page.status).toBe(201);
  const imported = await org.call('POST', `/v1/status-pages/${page.body.id}/subscribers/import`, {
    subscribers: [{ email: 'gina@example.com' }],
    skip_confirmation: true,
  });
  expect(imported.body.created).toBe(1);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await api?.close();
  await sink?.close();
});

describe('impact per service', () => {
  it('takes chosen impacts, derives the others from the severity, and keeps the spec fields as they were', async () => {
    const { API, Web } = org.services;
    const created = await org.call('POST', '/v1/incidents', {
      title: 'Slow checkout',
      severity: 'minor',
      affected_services: [API, Web],
      service_impacts: [{ service_id: Web, impact: 'partial_outage' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      affected_services: [API, Web],
      service_impacts: [
        { service_id: API, impact: 'degraded_performance' },
        { service_id: Web, impact: 'partial_outage' },
      ],
    });
    const id = created.body.id;
    // Severity critical: the derived impact follows, the chosen one stays.
    const critical = await org.call('PATCH', `/v1/incidents/${id}`, { severity: 'critical' });
    expect(critical.body.service_impacts).toEqual([
      { service_id: API, impact: 'major_outage' },
      { service_id: Web, impact: 'partial_outage' },
    ]);
    // Replacing the chosen impacts on a published incident: incident.updated, and Web follows the severity again.
    await org.call('POST', `/v1/incidents/${id}/publish`);
    const edited = await org.call('PATCH', `/v1/incidents/${id}`, {
      title: 'Checkout down',
      service_impacts: [{ service_id: API, impact: 'partial_outage' }],
    });
    expect(edited.body).toMatchObject({
      state: 'published',
      title: 'Checkout down',
      affected_services: [API, Web],
      service_impacts: [
        { service_id: API, impact: 'partial_outage' },
        { service_id: Web, impact: 'major_outage' },
      ],
    });
    const updates = await api.orm.em.fork().find(OutboxEventSchema, { resourceId: id, type: 'incident.updated' });
    expect(updates).toHaveLength(2);
    // The same impacts again change nothing: no event, same updated_at.
    const same = await org.call('PATCH', `/v1/incidents/${id}`, {
      service_impacts: [{ service_id: API, impact: 'partial_outage' }],
    });
    expect(same.body.updated_at).toBe(edited.body.updated_at);
    // A service named only by an impact becomes affected.
    const only = await org.call('POST', '/v1/incidents', {
      title: 'Web only',
      service_impacts: [{ service_id: Web, impact: 'major_outage' }],
    });
    expect([only.body.affected_services, only.body.warnings]).toEqual([[Web], []]);
    expect((await org.call('GET', `/v1/incidents/${id}`)).body.messages).toEqual([]);
  });

  it('refuses impacts it cannot keep, with the token and path', async () => {
    const { API } = org.services;
    const bad = await org.call('POST', '/v1/incidents', {
      title: 'x',
      service_impacts: [{ service_id: API, impact: 'meltdown' }],
    });
    expect([bad.status, bad.body.title, bad.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'validation_failed',
      ['service_impacts.0.impact'],
    ]);
    const twice = await org.call('POST', '/v1/incidents', {
      title: 'x',
      service_impacts: [
        { service_id: API, impact: 'partial_outage' },
        { service_id: API.toUpperCase(), impact: 'major_outage' },
      ],
    });
    expect([twice.status, twice.body.errors]).toEqual([
      400,
      [{ path: 'service_impacts.1.service_id', message: expect.any(String) }],
    ]);
    const unknown = await org.call('POST', '/v1/incidents', {
      title: 'x',
      service_impacts: [{ service_id: '00000000-0000-4000-8000-000000000000', impact: 'partial_outage' }],
    });
    expect([unknown.status, unknown.body.title, unknown.body.errors]).toEqual([
      400,
      'unknown_services',
      [{ path: 'service_impacts.0.service_id', message: 'No such service' }],
    ]);
  });

  it('shows each affected service with its impact on the public page and in summary.json', async () => {
    const { API, Web } = org.services;
    const inc = (
      await org.call('POST', '/v1/incidents', {
        title: 'Database failover',
        severity: 'major',
        affected_services: [API, Web],
        service_impacts: [{ service_id: API, impact: 'major_outage' }],
        publish: true,
        initial_message: { body: 'Failing over.', notify_subscribers: false },
      })
    ).body;
    await eventually(async () => {
      const html = (await pageRequest(api.baseUrl, SUBDOMAIN, '/')).text;
      expect(html).toContain(`data-incident-id="${inc.id}"`);
      expect(html).toContain(
        `<span class="impact" data-service-id="${API}" data-impact="major_outage">API (Major outage)</span>`,
      );
      expect(html).toContain(
        `<span class="impact" data-service-id="${Web}" data-impact="partial_outage">Web (Partial outage)</span>`,
      );
    });
    const summary = JSON.parse((await pageRequest(api.baseUrl, SUBDOMAIN, '/summary.json')).text);
    const shown = summary.active_incidents.find((i: { id: string }) => i.id === inc.id);
    expect(shown.affected_services).toEqual([
      { id: API, name: 'API', impact: 'major_outage' },
      { id: Web, name: 'Web', impact: 'partial_outage' },
    ]);
    await org.call('POST', `/v1/incidents/${inc.id}/resolve`);
  });
});

describe('notify_subscribers on incident updates', () => {
  it('emails an update by default or when true, and sends nothing for one posted with false', async () => {
    const { API } = org.services;
    const inc = (
      await org.call('POST', '/v1/incidents', {
        title: 'Login errors',
        severity: 'major',
        affected_services: [API],
        publish: true,
        initial_message: { body: 'Looking into login errors.' },
      })
    ).body;
    const first = await sink.waitFor(
      (m) => to(m) === 'gina@example.com' && (m.text ?? '').includes('Looking into login errors.'),
      20_000,
    );
    expect(first.subject).toBe('[Impact Status] Investigating: Login errors');

    const quiet = await org.call('POST', `/v1/incidents/${inc.id}/messages`, {
      type: 'Identified',
      body: 'Quiet: a bad deploy.',
      notify_subscribers: false,
    });
    expect(quiet.status).toBe(200);
    expect(quiet.body.messages.at(-1)).toMatchObject({
      type: 'Identified',
      body: 'Quiet: a bad deploy.',
      notify_subscribers: false,
    });
    const loud = await org.call('POST', `/v1/incidents/${inc.id}/messages`, {
      type: 'Monitoring',
      body: 'Loud: rolled back, watching.',
      notify_subscribers: true,
    });
    expect(loud.body.messages.at(-1).notify_subscribers).toBe(true);
    await sink.waitFor(
      (m) => to(m) === 'gina@example.com' && (m.text ?? '').includes('Loud: rolled back, watching.'),
      20_000,
    );

    // Every message_added run has finished: the quiet one planned no email at all (webhooks still got the event).
    const events = await emailsSettled('incident.message_added', inc.id);
    expect(events).toHaveLength(3);
    const quietEvent = events.find(
      (e) => (e.payload as { messages: { body: string }[] }).messages.at(-1)?.body === 'Quiet: a bad deploy.',
    )!;
    expect(await api.orm.em.fork().count(SubscriberEmailSchema, { event: quietEvent.id })).toBe(0);
    expect(
      sink.messages.filter((m) => (m.text ?? '').includes('Quiet: a bad deploy.') && !(m.text ?? '').includes('Loud:')),
    ).toEqual([]);

    // A quiet Resolved update resolves without an email for the resolve either.
    const resolved = await org.call('POST', `/v1/incidents/${inc.id}/messages`, {
      type: 'Resolved',
      body: 'Quiet: fixed.',
      notify_subscribers: false,
    });
    expect(resolved.body.state).toBe('resolved');
    const [resolveEvent] = await emailsSettled('incident.resolved', inc.id);
    expect(await api.orm.em.fork().count(SubscriberEmailSchema, { event: resolveEvent!.id })).toBe(0);
    expect(sink.messages.filter((m) => (m.text ?? '').includes('Quiet: fixed.'))).toEqual([]);
  });
});
