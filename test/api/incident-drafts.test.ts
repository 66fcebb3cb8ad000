import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { AlertSchema, OutboxEventSchema } from '../../src/db/entities';
import { alertWorkflowId } from '../../src/domain/alerting/rule-kinds';
import { createMailer } from '../../src/infra/mailer';
import { planEmails, sendEmailBatch } from '../../src/usecases/status-pages/notifications';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testLinkKey } from '../support/env';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { pageRequest } from '../support/status-host';

/**
 * Incidents drafted from a metric or an alert speak to customers; the evidence stays in the
 * internal note, which the API shows and no public output does; messages can be edited.
 */
let api: ApiHarness;
let org: OrgFixture<'reader' | 'writer', 'Payments' | 'Search'>;
let stranger: OrgFixture;
let payments: string;
let search: string;
const subdomain = `drafts-${randomUUID().slice(0, 8)}`;
const call: Call = (...args) => org.call(...args);
const page = (p: string) => pageRequest(api.baseUrl, subdomain, p);
/** "23:23 CET", or "1 December, 23:23 CET" when the test runs across midnight. */
const SINCE = String.raw`(\d{1,2} [A-Z][a-z]+, )?\d{2}:\d{2} (CET|CEST)`;

beforeAll(async () => {
  api = await startApi();
  [org, stranger] = await Promise.all([
    orgWithKeys(api, {
      plan: 'enterprise',
      name: 'drafts',
      services: ['Payments', 'Search'],
      keys: { reader: ['read:incidents'], writer: ['write:incidents'] },
    }),
    orgWithKeys(api, { plan: 'enterprise', name: 'drafts stranger' }),
  ]);
  ({ Payments: payments, Search: search } = org.services);
  const created = await call('POST', '/v1/status-pages', {
    subdomain,
    title: 'Drafts Status',
    time_zone: 'Europe/Berlin',
    groups: [
      {
        name: 'Core',
        components: [
          { kind: 'service', id: payments },
          { kind: 'service', id: search },
        ],
      },
    ],
  });
  expect(created.status).toBe(201);
  const imported = await call('POST', `/v1/status-pages/${created.body.id}/subscribers/import`, {
    subscribers: [{ email: 'customer@example.com' }],
    skip_confirmation: true,
  });
  expect(imported.status).toBeLessThan(300);
});
afterAll(async () => api.close());

/** A manual metric of `service` that flipped from healthy to `status`. */
async function flippedMetric(service: string, name: string, status = 'unhealthy'): Promise<string> {
  const metric = (
    await call('POST', '/v1/metrics', { service_id: service, name, source_type: 'manual', source_config: {} })
  ).body.id;
  await call('POST', `/v1/metrics/${metric}/status`, { status: 'healthy' });
  await call('POST', `/v1/metrics/${metric}/status`, { status });
  return metric;
}

/** An open alert as an alert workflow writes it (no workflow runs here). */
async function openAlert(o: OrgFixture, subject: { kind: string; id: string; name: string }): Promise<string> {
  const created = async (res: { status: number; text: string; body: { id: string } }) => {
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id;
  };
  const channel = await created(
    await o.call('POST', '/v1/notification-channels', {
      name: 'pager',
      type: 'pagerduty',
      routing_key: 'm'.repeat(32),
    }),
  );
  const policy = await created(
    await o.call('POST', '/v1/escalation-policies', {
      name: 'p',
      levels: [{ delay_minutes: 5, targets: [{ type: 'channel', id: channel }] }],
    }),
  );
  const service =
    subject.kind === 'service'
      ? subject.id
      : await created(await o.call('POST', '/v1/services', { name: `rule ${randomUUID().slice(0, 6)}` }));
  const rule = await created(
    await o.call('POST', '/v1/alert-rules', {
      name: 'r',
      kind: 'service_status',
      subject_id: service,
      severity: 'critical',
      escalation_policy_id: policy,
    }),
  );
  const id = randomUUID();
  const now = new Date(Date.now() - 90_000);
  const em = api.orm.em.fork();
  em.create(AlertSchema, {
    id,
    organization: o.id,
    rule,
    subjectKind: subject.kind,
    subjectId: subject.id,
    subjectName: subject.name,
    workflowId: alertWorkflowId(rule, subject.id),
    state: 'triggered',
    severity: 'critical',
    title: `${subject.name} is unhealthy`,
    summary: 'rule r: 3 of 3 checks failed (ECONNREFUSED)',
    level: 1,
    triggerCount: 1,
    suppressedBy: null,
    snoozedUntil: null,
    triggeredAt: now,
    lastTriggeredAt: now,
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolvedBy: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return id;
}

/** The subscriber emails an incident event sends, as the outbox worker sends them (mail written to a folder). */
async function emailsOf(
  incidentId: string,
  type: string,
  since = new Date(0),
): Promise<{ subject: string; text: string }[]> {
  const em = api.orm.em.fork();
  const events = await em.find(
    OutboxEventSchema,
    { resourceId: incidentId, type, createdAt: { $gte: since } },
    { orderBy: { createdAt: 'asc' } },
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-drafts-'));
  const deps = {
    mailer: createMailer({ from: 'Vigil <status@vigil.test>', outboxDir: dir }),
    linkKey: testLinkKey(),
    site: { statusHost: 'status.localhost', publicBaseUrl: api.baseUrl },
  };
  for (const e of events) {
    await planEmails(em.fork(), e.id, new Date());
    await sendEmailBatch(em.fork(), deps, e.id, 50, new Date());
  }
  const out = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.eml'))) {
    const mail = await simpleParser(readFileSync(path.join(dir, f)));
    out.push({ subject: mail.subject ?? '', text: `${mail.text ?? ''}\n${mail.html || ''}` });
  }
  return out;
}

describe('POST /v1/incidents/from-metric/{metricId}: words for customers', () => {
  it('drafts a title and first message a customer understands, in the status page zone, with the evidence in internal_note', async () => {
    const metric = await flippedMetric(payments, 'Card auth p99');
    const res = await call('POST', `/v1/incidents/from-metric/${metric}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      state: 'draft',
      title: 'Problems with Payments',
      severity: 'major',
      affected_services: [payments],
    });
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0].type).toBe('Investigating');
    expect(res.body.messages[0].body).toMatch(
      new RegExp(`^We are investigating problems with Payments since ${SINCE}\\.$`),
    );
    for (const internal of ['Card auth', metric, 'was healthy', 'unhealthy'])
      expect(res.body.messages[0].body).not.toContain(internal);
    expect(res.body.messages[0].body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(res.body.internal_note).toContain(`Metric Card auth p99 (${metric}) is unhealthy since`);
    expect(res.body.internal_note).toContain('(was healthy)');
    expect(res.body.internal_note).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    // Reading it needs only the read scope, and shows the note.
    const read = await org.keys.reader.call('GET', `/v1/incidents/${res.body.id}`);
    expect([read.status, read.body.internal_note]).toEqual([200, res.body.internal_note]);
  });

  it('says "degraded performance" of a degraded metric', async () => {
    const metric = await flippedMetric(search, 'Search latency', 'degraded');
    const res = await call('POST', `/v1/incidents/from-metric/${metric}`);
    expect(res.body).toMatchObject({ title: 'Degraded performance of Search', severity: 'minor' });
    expect(res.body.messages[0].body).toMatch(
      new RegExp(`^We are investigating degraded performance of Search since ${SINCE}\\.$`),
    );
  });

  it('answers 404 to another organization', async () => {
    const metric = await flippedMetric(payments, 'Card auth stranger');
    const res = await stranger.call('POST', `/v1/incidents/from-metric/${metric}`);
    expect([res.status, res.body.title]).toEqual([404, 'not_found']);
  });
});

describe('internal_note never reaches customers', () => {
  it('is absent from the public page, summary.json, the feeds and the subscriber email once published', async () => {
    const metric = await flippedMetric(payments, 'Card auth leakcheck');
    const draft = (await call('POST', `/v1/incidents/from-metric/${metric}`)).body;
    const marker = `EVIDENCE-${randomUUID()}`;
    const patched = await call('PATCH', `/v1/incidents/${draft.id}`, {
      internal_note: `${draft.internal_note}\n${marker}`,
    });
    expect(patched.body.internal_note).toContain(marker);
    expect((await call('POST', `/v1/incidents/${draft.id}/publish`)).status).toBe(200);

    const plain = draft.messages[0].body as string;
    const html = (await page('/')).text;
    expect(html).toContain('Problems with Payments');
    expect(html).toContain(plain.replace(/&/g, '&amp;'));
    for (const p of ['/', '/summary.json', '/feed.atom', '/feed.rss', `/incidents/${draft.id}`]) {
      const res = await page(p);
      expect([p, res.status]).toEqual([p, 200]);
      for (const secret of [marker, 'Card auth leakcheck', metric, 'was healthy'])
        expect([p, res.text.includes(secret)]).toEqual([p, false]);
    }
    const mails = await emailsOf(draft.id, 'incident.published');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('[Drafts Status] Investigating: Problems with Payments');
    expect(mails[0]!.text).toContain(plain);
    for (const secret of [marker, 'Card auth leakcheck', metric, 'was healthy'])
      expect(mails[0]!.text).not.toContain(secret);
  });

  it('is set on create and cleared with null, with a field path for a bad one', async () => {
    const created = await call('POST', '/v1/incidents', {
      title: 'With a note',
      internal_note: 'db failover at 10:02',
    });
    expect(created.body.internal_note).toBe('db failover at 10:02');
    expect(
      (await call('PATCH', `/v1/incidents/${created.body.id}`, { internal_note: null })).body.internal_note,
    ).toBeNull();
    const bad = await call('POST', '/v1/incidents', { title: 'Bad note', internal_note: 42 });
    expect([bad.status, bad.body.title, bad.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'validation_failed',
      ['internal_note'],
    ]);
    expect((await call('POST', '/v1/incidents', { title: 'x' })).body.internal_note).toBeNull();
  });
});

describe('POST /v1/incidents/from-alert/{alertId}', () => {
  it("drafts from a metric alert's metric, with the alert in the internal note", async () => {
    const metric = await flippedMetric(payments, 'Card auth alerting');
    const alert = await openAlert(org, { kind: 'metric', id: metric, name: 'Card auth alerting' });
    const res = await org.keys.writer.call('POST', `/v1/incidents/from-alert/${alert}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: 'draft', title: 'Problems with Payments', affected_services: [payments] });
    expect(res.body.messages[0].body).toMatch(
      new RegExp(`^We are investigating problems with Payments since ${SINCE}\\.$`),
    );
    expect(res.body.internal_note).toContain(`Alert Card auth alerting is unhealthy (${alert})`);
    expect(res.body.internal_note).toContain('ECONNREFUSED');
    expect(res.body.internal_note).toContain(`Metric Card auth alerting (${metric})`);
  });

  it("drafts from a service alert's service since the alert triggered", async () => {
    const alert = await openAlert(org, { kind: 'service', id: search, name: 'Search' });
    const res = await call('POST', `/v1/incidents/from-alert/${alert}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Problems with Search', severity: 'major', affected_services: [search] });
    expect(res.body.messages[0].body).not.toContain('ECONNREFUSED');
    expect(res.body.internal_note).toContain('ECONNREFUSED');
  });

  it('answers 400 at alertId for an alert about no service, 404 for an unknown or foreign alert, 403 without write:incidents', async () => {
    const agentAlert = await openAlert(org, { kind: 'agent', id: randomUUID(), name: 'edge-1' });
    const res = await call('POST', `/v1/incidents/from-alert/${agentAlert}`);
    expect([res.status, res.body.title, res.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'validation_failed',
      ['alertId'],
    ]);
    const service = await openAlert(org, { kind: 'service', id: payments, name: 'Payments' });
    expect((await stranger.call('POST', `/v1/incidents/from-alert/${service}`)).status).toBe(404);
    expect((await call('POST', `/v1/incidents/from-alert/${randomUUID()}`)).status).toBe(404);
    expect((await call('POST', '/v1/incidents/from-alert/not-a-uuid')).status).toBe(404);
    const denied = await org.keys.reader.call('POST', `/v1/incidents/from-alert/${service}`);
    expect([denied.status, denied.body.title]).toEqual([403, 'forbidden']);
  });
});

describe('PATCH /v1/incidents/{id}/messages/{messageId}', () => {
  it('edits a draft message and a published one, keeping edited_at and the previous bodies, without emailing subscribers', async () => {
    const metric = await flippedMetric(payments, 'Card auth editing');
    const draft = (await call('POST', `/v1/incidents/from-metric/${metric}`)).body;
    const messageId = draft.messages[0].id;
    const first = draft.messages[0].body;
    const edited = await org.keys.writer.call('PATCH', `/v1/incidents/${draft.id}/messages/${messageId}`, {
      body: 'We are investigating failed card payments.',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.messages[0]).toMatchObject({
      id: messageId,
      body: 'We are investigating failed card payments.',
      previous_bodies: [{ body: first }],
    });
    expect(edited.body.messages[0].edited_at).not.toBeNull();
    await call('POST', `/v1/incidents/${draft.id}/publish`);
    const again = await call('PATCH', `/v1/incidents/${draft.id}/messages/${messageId}`, {
      body: 'Some card payments fail; we are on it.',
    });
    expect(again.body.messages[0].previous_bodies.map((p: { body: string }) => p.body)).toEqual([
      first,
      'We are investigating failed card payments.',
    ]);
    expect((await page('/')).text).toContain('Some card payments fail; we are on it.');
    const types = (
      await api.orm.em.fork().find(OutboxEventSchema, { resourceId: draft.id }, { orderBy: { createdAt: 'asc' } })
    ).map((e) => e.type);
    expect(types.filter((t) => t === 'incident.message_added')).toHaveLength(1); // the draft's first message only
    expect(types.filter((t) => t === 'incident.updated')).toHaveLength(2);
    // The same body again changes nothing.
    const same = await call('PATCH', `/v1/incidents/${draft.id}/messages/${messageId}`, {
      body: 'Some card payments fail; we are on it.',
    });
    expect(same.body.updated_at).toBe(again.body.updated_at);
  });

  it('emails the edited latest message again only when asked', async () => {
    const created = (
      await call('POST', '/v1/incidents', {
        title: 'Search slow',
        affected_services: [search],
        initial_message: { body: 'Lokking into it' },
      })
    ).body;
    await call('POST', `/v1/incidents/${created.id}/publish`);
    const before = new Date();
    const quiet = await call('PATCH', `/v1/incidents/${created.id}/messages/${created.messages[0].id}`, {
      body: 'Looking into it.',
    });
    expect(quiet.status).toBe(200);
    expect(await emailsOf(created.id, 'incident.message_added', before)).toEqual([]);
    const res = await call('PATCH', `/v1/incidents/${created.id}/messages/${created.messages[0].id}`, {
      body: 'Looking into it',
      notify_subscribers: true,
    });
    expect(res.status).toBe(200);
    const mails = await emailsOf(created.id, 'incident.message_added', before);
    expect(mails.map((m) => m.text.includes('Looking into it'))).toEqual([true]);
    // Not the latest message any more: a field path says why.
    await call('POST', `/v1/incidents/${created.id}/messages`, {
      type: 'Update',
      body: 'Found it',
      notify_subscribers: false,
    });
    const older = await call('PATCH', `/v1/incidents/${created.id}/messages/${created.messages[0].id}`, {
      body: 'Looking into it now',
      notify_subscribers: true,
    });
    expect([older.status, older.body.title, older.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'validation_failed',
      ['notify_subscribers'],
    ]);
  });

  it('answers validation errors with field paths, 404 for unknown, foreign and cross-incident messages, 403 without write:incidents', async () => {
    const a = (await call('POST', '/v1/incidents', { title: 'A', initial_message: { body: 'a' } })).body;
    const b = (await call('POST', '/v1/incidents', { title: 'B', initial_message: { body: 'b' } })).body;
    const url = `/v1/incidents/${a.id}/messages/${a.messages[0].id}`;
    const empty = await call('PATCH', url, { body: '  ' });
    expect([empty.status, empty.body.title, empty.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      'validation_failed',
      ['body'],
    ]);
    const extra = await call('PATCH', url, { body: 'x', type: 'Resolved' });
    expect([extra.status, extra.body.title]).toEqual([400, 'validation_failed']);
    const draftNotify = await call('PATCH', url, { body: 'x', notify_subscribers: true });
    expect([draftNotify.status, draftNotify.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      ['notify_subscribers'],
    ]);
    expect((await call('PATCH', `/v1/incidents/${a.id}/messages/${b.messages[0].id}`, { body: 'x' })).status).toBe(404);
    expect((await call('PATCH', `/v1/incidents/${a.id}/messages/${randomUUID()}`, { body: 'x' })).status).toBe(404);
    expect((await call('PATCH', `/v1/incidents/${a.id}/messages/nope`, { body: 'x' })).status).toBe(404);
    const foreign = await stranger.call('PATCH', url, { body: 'stolen' });
    expect([foreign.status, foreign.body.title]).toEqual([404, 'not_found']);
    const denied = await org.keys.reader.call('PATCH', url, { body: 'x' });
    expect([denied.status, denied.body.title]).toEqual([403, 'forbidden']);
    expect((await call('GET', `/v1/incidents/${a.id}`)).body.messages[0]).toMatchObject({
      body: 'a',
      edited_at: null,
      previous_bodies: [],
    });
  });
});
