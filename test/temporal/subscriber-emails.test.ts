import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { ParsedMail } from 'mailparser';
import { SubscriberEmailSchema, SubscriberSchema, OutboxEventSchema } from '../../src/db/entities';
import { createMailer } from '../../src/infra/mailer';
import { emailWorkflowId } from '../../src/temporal/outbox-workflow-starter';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { testLinkKey } from '../support/env';
import { eventually } from '../support/eventually';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { formBody, pageRequest } from '../support/status-host';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { useOwnDatabase } from '../support/own-database';

let api: ApiHarness;
let t: TemporalHarness;
let sink: SmtpSink;
let org: OrgFixture;
let svcA: string;
let svcB: string;
let customer1: string;
let customer2: string;
let pageId: string;

const call: Call = (...args) => org.call(...args);
const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';
const mailTo = (address: string, subject: string | RegExp) =>
  sink.waitFor(
    (m) => to(m) === address && (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject ?? '')),
    20_000,
  );
/** The link in an email's text that starts with the page's base URL and this path, as a path + query on the page host. */
const linkIn = (m: ParsedMail, path: string) => {
  const url = new URL((m.text ?? '').match(new RegExp(`https?://\\S+${path}\\?token=[\\w.-]+`))![0]);
  return `${url.pathname}${url.search}`;
};
const header = (m: ParsedMail, name: string) =>
  m.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n\s+/g, ' ');

/** Waits for the event's email workflow to finish, so "nobody else got it" can be asserted. */
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
  org = await orgWithKeys(api, { name: 'email' });
  svcA = (await call('POST', '/v1/services', { name: 'API' })).body.id;
  svcB = (await call('POST', '/v1/services', { name: 'Dashboard' })).body.id;
  customer1 = (await call('POST', '/v1/customers', { name: 'One' })).body.id;
  customer2 = (await call('POST', '/v1/customers', { name: 'Two' })).body.id;
  pageId = (
    await call('POST', '/v1/status-pages', {
      subdomain: 'mail-status',
      title: 'Mailtest Status',
      groups: [
        {
          name: null,
          components: [
            { kind: 'service', id: svcA },
            { kind: 'service', id: svcB },
          ],
        },
      ],
    })
  ).body.id;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await api?.close();
  await sink?.close();
});

describe('subscriber email over real SMTP', () => {
  it('subscribe → confirmation email → confirm → notifications → one-click unsubscribe', async () => {
    for (const [email, components] of [
      ['alice@example.com', undefined],
      ['bob@example.com', [svcB]],
    ] as const) {
      const r = await api.request('POST', '/v1/status-page/mail-status/subscribe', {
        body: { email, ...(components ? { components } : {}) },
      });
      expect(r.status).toBe(202);
      const confirmation = await mailTo(email, 'Confirm your subscription to Mailtest Status');
      expect(header(confirmation, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      const confirmPath = linkIn(confirmation, '/confirm');
      // The link opens a page with a button; only its POST confirms (mail scanners only GET).
      expect((await pageRequest(api.baseUrl, 'mail-status', confirmPath)).status).toBe(200);
      const token = new URLSearchParams(confirmPath.split('?')[1]).get('token')!;
      expect(
        (await pageRequest(api.baseUrl, 'mail-status', '/confirm', { method: 'POST', ...formBody({ token }) })).status,
      ).toBe(200);
    }
    const em = api.orm.em.fork();
    expect(
      (await em.find(SubscriberSchema, { page: pageId }, { orderBy: { email: 'asc' } })).map((s) => [s.email, s.state]),
    ).toEqual([
      ['alice@example.com', 'confirmed'],
      ['bob@example.com', 'confirmed'],
    ]);
    const imported = await call('POST', `/v1/status-pages/${pageId}/subscribers/import`, {
      subscribers: [
        { email: 'carol@example.com', customer_id: customer1 },
        { email: 'dave@example.com', customer_id: customer2 },
      ],
      skip_confirmation: true,
    });
    expect(imported.body.created).toBe(2);

    // A public incident on A: everyone who chose A or everything, one email each (publish and first message are one change).
    const incident = (
      await call('POST', '/v1/incidents', {
        title: 'API errors',
        severity: 'major',
        affected_services: [svcA],
        publish: true,
        initial_message: { type: 'Investigating', body: 'Elevated errors' },
      })
    ).body;
    const subject = '[Mailtest Status] Investigating: API errors';
    const got = await Promise.all(
      ['alice@example.com', 'carol@example.com', 'dave@example.com'].map((a) => mailTo(a, subject)),
    );
    expect(got[0]!.text).toContain('Elevated errors');
    const unsubscribeHeader = header(got[0]!, 'list-unsubscribe')!;
    expect(unsubscribeHeader).toMatch(
      /^List-Unsubscribe: <http:\/\/mail-status\.status\.localhost:\d+\/unsubscribe\?token=[\w.-]+>$/,
    );
    expect(header(got[0]!, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    await emailsSettled('incident.published', incident.id);
    await emailsSettled('incident.message_added', incident.id);
    expect(
      sink.messages
        .filter((m) => m.subject === subject)
        .map(to)
        .sort(),
    ).toEqual(['alice@example.com', 'carol@example.com', 'dave@example.com']);
    const sent = await em.fork().find(SubscriberEmailSchema, {
      state: 'sent',
      event: { $in: (await em.fork().find(OutboxEventSchema, { resourceId: incident.id })).map((e) => e.id) },
    });
    expect(sent).toHaveLength(3);
    expect(sent.map((s) => s.messageId).sort()).toEqual(
      sink.messages
        .filter((m) => m.subject === subject)
        .map((m) => m.messageId)
        .sort(),
    );

    // A customer-scoped incident reaches only that customer's subscribers.
    const secret = (
      await call('POST', '/v1/incidents', {
        title: 'Private trouble',
        severity: 'minor',
        affected_services: [svcA],
        visible_to_customer_ids: [customer1],
        publish: true,
        initial_message: { body: 'Only for One' },
      })
    ).body;
    await mailTo('carol@example.com', /Private trouble/);
    await emailsSettled('incident.published', secret.id);
    expect(sink.messages.filter((m) => /Private trouble/.test(m.subject ?? '')).map(to)).toEqual(['carol@example.com']);

    // Maintenance on B reaches bob too; alice unsubscribes with one click from her email's header.
    const maintenance = (
      await call('POST', '/v1/maintenances', {
        title: 'DB upgrade',
        affected_services: [svcB],
        scheduled_start_at: '2099-01-01T00:00:00.000Z',
        scheduled_end_at: '2099-01-01T01:00:00.000Z',
      })
    ).body;
    await Promise.all(
      ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com'].map((a) =>
        mailTo(a, '[Mailtest Status] Scheduled maintenance: DB upgrade'),
      ),
    );
    const oneClick = new URL(unsubscribeHeader.match(/<(http[^>]+)>/)![1]!);
    const off = await pageRequest(api.baseUrl, 'mail-status', `${oneClick.pathname}${oneClick.search}`, {
      method: 'POST',
      ...formBody({ 'List-Unsubscribe': 'One-Click' }),
    });
    expect(off.status).toBe(200);
    await call('POST', `/v1/maintenances/${maintenance.id}/cancel`);
    await Promise.all(
      ['bob@example.com', 'carol@example.com', 'dave@example.com'].map((a) =>
        mailTo(a, '[Mailtest Status] Maintenance canceled: DB upgrade'),
      ),
    );
    await emailsSettled('maintenance.canceled', maintenance.id);
    expect(
      sink.messages.filter((m) => m.subject === '[Mailtest Status] Maintenance canceled: DB upgrade').map(to),
    ).not.toContain('alice@example.com');
  }, 120_000);

  it('records a refused address as failed and still delivers to the rest', async () => {
    sink.rejectRecipients.add('dave@example.com');
    const inc = (
      await call('POST', '/v1/incidents', {
        title: 'Refusal',
        severity: 'minor',
        affected_services: [svcB],
        publish: true,
        initial_message: { body: 'x' },
      })
    ).body;
    await mailTo('carol@example.com', /Refusal/);
    const [event] = await emailsSettled('incident.published', inc.id);
    const rows = await api.orm.em.fork().find(SubscriberEmailSchema, { event: event!.id });
    const bySub = await api.orm.em.fork().find(SubscriberSchema, { id: { $in: rows.map((r) => r.subscriber) } });
    const state = (email: string) => rows.find((r) => r.subscriber === bySub.find((s) => s.email === email)?.id);
    expect(state('dave@example.com')).toMatchObject({ state: 'failed', attempts: 1 });
    expect(state('dave@example.com')!.lastError).toMatch(/550/);
    expect(state('carol@example.com')).toMatchObject({ state: 'sent' });
    const handle = t.temporal.client.workflow.getHandle(emailWorkflowId(event!.id));
    expect(await handle.result()).toMatchObject({ failed: 1 });
    // VIGIL_RECORD_HISTORIES=1 rewrites the replay test's history of this workflow.
    if (process.env.VIGIL_RECORD_HISTORIES)
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'subscriber-email-v1.json'),
        historyToJSON(await handle.fetchHistory()),
      );
  }, 60_000);

  it('retries an address the server defers (4xx) after a durable backoff, and sends it once', async () => {
    sink.rejectRecipients.clear();
    sink.deferRecipients.set('carol@example.com', 2);
    const inc = (
      await call('POST', '/v1/incidents', {
        title: 'Deferred',
        severity: 'minor',
        affected_services: [svcA],
        publish: true,
        initial_message: { body: 'y' },
      })
    ).body;
    const mail = await mailTo('carol@example.com', /Deferred/);
    const [event] = await emailsSettled('incident.published', inc.id);
    const carol = await api.orm.em.fork().findOneOrFail(SubscriberSchema, { email: 'carol@example.com', page: pageId });
    const row = await api.orm.em
      .fork()
      .findOneOrFail(SubscriberEmailSchema, { event: event!.id, subscriber: carol.id });
    expect(row).toMatchObject({ state: 'sent', attempts: 3, messageId: mail.messageId });
    expect(sink.messages.filter((m) => to(m) === 'carol@example.com' && /Deferred/.test(m.subject ?? ''))).toHaveLength(
      1,
    );
    const history = await t.temporal.client.workflow.getHandle(emailWorkflowId(event!.id)).fetchHistory();
    expect(history.events?.filter((e) => e.timerStartedEventAttributes).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('starts no email workflow for an organization without confirmed subscribers', async () => {
    const quiet = await orgWithKeys(api, { name: 'no subscribers' });
    const inc = (
      await quiet.call('POST', '/v1/incidents', { title: 'Nobody listens', severity: 'minor', publish: true })
    ).body;
    const em = api.orm.em.fork();
    const event = await eventually(async () => {
      const e = await em.findOne(
        OutboxEventSchema,
        { resourceId: inc.id, type: 'incident.published' },
        { refresh: true },
      );
      expect(e?.dispatchedAt).toBeTruthy();
      return e!;
    }, 10_000);
    // Its relay drained after dispatching it; a claim, had there been one, commits in that drain.
    await t.relay!.idle();
    const runs = await em
      .getConnection()
      .execute('select count(*)::int as n from notification_runs where event_id = ?', [event.id]);
    expect(runs).toEqual([{ n: 0 }]);
  }, 30_000);
});
