import type { ParsedMail } from 'mailparser';
import { OutboxEventSchema, SubscriberEmailSchema } from '../../src/db/entities';
import { createMailer } from '../../src/infra/mailer';
import { emailWorkflowId } from '../../src/temporal/outbox-workflow-starter';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { testLinkKey } from '../support/env';
import { eventually } from '../support/eventually';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { useOwnDatabase } from '../support/own-database';

let api: ApiHarness;
let t: TemporalHarness;
let sink: SmtpSink;
let org: OrgFixture<'reader'>;
let stranger: OrgFixture;
let service: string;

const HOUR = 3_600_000;
const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';
const at = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 60_000) * 60_000).toISOString();

async function schedule(
  title: string,
  window = { scheduled_start_at: at(24 * HOUR), scheduled_end_at: at(26 * HOUR) },
) {
  const res = await org.call('POST', '/v1/maintenances', { title, affected_services: [service], ...window });
  expect(res.status).toBe(201);
  return res.body as { id: string; scheduled_start_at: string; scheduled_end_at: string };
}

/** Waits until every email run of the maintenance's events of this type has finished. */
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
  org = await orgWithKeys(api, { name: 'maint-msgs', keys: { reader: ['read:incidents'] } });
  stranger = await orgWithKeys(api, { name: 'maint-msgs-stranger' });
  service = (await org.call('POST', '/v1/services', { name: 'Database' })).body.id;
  const page = await org.call('POST', '/v1/status-pages', {
    subdomain: 'maint-msgs',
    title: 'Maint Status',
    groups: [{ name: null, components: [{ kind: 'service', id: service }] }],
  });
  expect(page.status).toBe(201);
  const imported = await org.call('POST', `/v1/status-pages/${page.body.id}/subscribers/import`, {
    subscribers: [{ email: 'erin@example.com' }, { email: 'frank@example.com' }],
    skip_confirmation: true,
  });
  expect(imported.body.created).toBe(2);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await api?.close();
  await sink?.close();
});

describe('POST /v1/maintenances/{id}/messages', () => {
  it('appends an update to the timeline, emits maintenance.message_added and emails the subscribers', async () => {
    const m = await schedule('Database upgrade');
    const res = await org.call('POST', `/v1/maintenances/${m.id}/messages`, {
      body: 'Replica promoted, primary next.',
    });
    expect(res.status).toBe(200);
    const update = res.body.messages.at(-1);
    expect(update).toMatchObject({
      type: 'Update',
      kind: 'update',
      body: 'Replica promoted, primary next.',
      notify_subscribers: true,
    });

    const read = await org.keys.reader.call('GET', `/v1/maintenances/${m.id}`);
    expect(read.status).toBe(200);
    expect(read.body.messages).toEqual(res.body.messages);

    const subject = '[Maint Status] Maintenance update: Database upgrade';
    const got = await Promise.all(
      ['erin@example.com', 'frank@example.com'].map((a) =>
        sink.waitFor((x) => to(x) === a && x.subject === subject, 20_000),
      ),
    );
    expect(got[0]!.text).toContain('Replica promoted, primary next.');
    const [event] = await emailsSettled('maintenance.message_added', m.id);
    expect((event!.payload as { message: { id: string } }).message.id).toBe(update.id);
    const sent = await api.orm.em.fork().find(SubscriberEmailSchema, { event: event!.id, state: 'sent' });
    expect(sent).toHaveLength(2);
  });

  it('sends no email with notify_subscribers false, and the event still goes out', async () => {
    const m = await schedule('Quiet change');
    const res = await org.call('POST', `/v1/maintenances/${m.id}/messages`, {
      body: 'Internal note, no email.',
      notify_subscribers: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.messages.at(-1)).toMatchObject({ kind: 'update', notify_subscribers: false });
    const [event] = await emailsSettled('maintenance.message_added', m.id);
    expect(await api.orm.em.fork().count(SubscriberEmailSchema, { event: event!.id })).toBe(0);
    // The schedule email of the same maintenance did go out, so the sink was listening.
    await emailsSettled('maintenance.scheduled', m.id);
    expect(
      sink.messages.filter((x) => x.subject === '[Maint Status] Scheduled maintenance: Quiet change'),
    ).toHaveLength(2);
    expect(sink.messages.filter((x) => x.subject === '[Maint Status] Maintenance update: Quiet change')).toHaveLength(
      0,
    );
  });

  it('records a reschedule on the timeline, and nothing for a PATCH that keeps the times', async () => {
    const m = await schedule('Move me', {
      scheduled_start_at: '2099-01-10T10:00:00.000Z',
      scheduled_end_at: '2099-01-10T12:00:00.000Z',
    });
    const res = await org.call('PATCH', `/v1/maintenances/${m.id}`, {
      scheduled_start_at: '2099-01-11T22:00:00.000Z',
      scheduled_end_at: '2099-01-12T01:30:00.000Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0]).toMatchObject({
      kind: 'reschedule',
      type: 'Information',
      notify_subscribers: null,
      body: 'Rescheduled from 2099-01-10 10:00–12:00 UTC to 2099-01-11 22:00 – 2099-01-12 01:30 UTC.',
    });
    const moved = await org.call('PATCH', `/v1/maintenances/${m.id}`, { scheduled_end_at: '2099-01-12T02:00:00.000Z' });
    expect(moved.body.messages.map((x: { body: string }) => x.body)).toEqual([
      'Rescheduled from 2099-01-10 10:00–12:00 UTC to 2099-01-11 22:00 – 2099-01-12 01:30 UTC.',
      'Rescheduled from 2099-01-11 22:00 – 2099-01-12 01:30 UTC to 2099-01-11 22:00 – 2099-01-12 02:00 UTC.',
    ]);

    const renamed = await org.call('PATCH', `/v1/maintenances/${m.id}`, {
      title: 'Moved',
      scheduled_start_at: '2099-01-11T22:00:00.000Z',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.messages).toHaveLength(2);
  });

  it('answers 400 validation_failed naming the field for a bad body', async () => {
    const m = await schedule('Validation');
    for (const [body, path] of [
      [{}, 'body'],
      [{ body: '   ' }, 'body'],
      [{ body: 'x'.repeat(20_001) }, 'body'],
      [{ body: 'ok', notify_subscribers: 'yes' }, 'notify_subscribers'],
      [{ body: 'ok', type: 'Resolved' }, 'type'],
    ] as const) {
      const res = await org.call('POST', `/v1/maintenances/${m.id}/messages`, body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.type).toMatch(/validation_failed$/);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const after = await org.call('GET', `/v1/maintenances/${m.id}`);
    expect(after.body.messages).toEqual([]);
  });

  it('answers 409 already_canceled and already_completed once the maintenance is over', async () => {
    const canceled = await schedule('Called off');
    expect((await org.call('POST', `/v1/maintenances/${canceled.id}/cancel`)).status).toBe(200);
    const a = await org.call('POST', `/v1/maintenances/${canceled.id}/messages`, { body: 'Too late' });
    expect([a.status, a.body.type]).toEqual([409, expect.stringMatching(/already_canceled$/)]);

    const done = await schedule('Done early');
    await org.call('POST', `/v1/maintenances/${done.id}/start`);
    await org.call('POST', `/v1/maintenances/${done.id}/complete`);
    const b = await org.call('POST', `/v1/maintenances/${done.id}/messages`, { body: 'Too late' });
    expect([b.status, b.body.type]).toEqual([409, expect.stringMatching(/already_completed$/)]);
  });

  it("answers 404 to another organization's key and for a malformed id, and 403 without write:incidents", async () => {
    const m = await schedule('Mine');
    const foreign = await stranger.call('POST', `/v1/maintenances/${m.id}/messages`, { body: 'stolen' });
    expect([foreign.status, foreign.body.type]).toEqual([404, expect.stringMatching(/not_found$/)]);
    expect((await stranger.call('POST', '/v1/maintenances/not-a-uuid/messages', { body: 'x' })).status).toBe(404);
    const readOnly = await org.keys.reader.call('POST', `/v1/maintenances/${m.id}/messages`, { body: 'x' });
    expect([readOnly.status, readOnly.body.type]).toEqual([403, expect.stringMatching(/forbidden$/)]);
    expect((await org.call('GET', `/v1/maintenances/${m.id}`)).body.messages).toEqual([]);
  });
});
