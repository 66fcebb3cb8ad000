import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { PDFDocument } from 'pdf-lib';
import {
  IncidentSchema,
  MaintenanceSchema,
  MetricStatusFlipSchema,
  OutboxEventSchema,
  SlaAuditEntrySchema,
} from '../../src/db/entities';
import { tzDataVersion } from '../../src/domain/sla/period';
import { createMailer } from '../../src/infra/mailer';
import { type StatementPdfRenderer, createStatementPdfRenderer } from '../../src/infra/statement-pdf';
import { sha256Hex, verifyStatement } from '../../src/crypto/statement-signing';
import { contractScheduleId, temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { pdfSource } from '../../src/usecases/sla/documents';
import { slaStatementWorkflowId } from '../../src/workflows/search-attribute-keys';
import { type ApiHarness, startApi } from '../support/api-harness';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { readPdfAttachments } from '../support/pdf-attachments';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';
import { testSecretBox } from '../support/env';

/**
 * SLA statements end to end: contracts through the API, the period workflow on a real Temporal
 * server drafting and signing from stored flips and maintenances, finance's actions as workflow
 * updates, delivery by real SMTP with a real Chromium PDF, corrections, reminders and the schedule.
 */

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let printer: StatementPdfRenderer;
let org: OrgFixture<'preparer' | 'approver' | 'reader' | 'metricsOnly', 'api' | 'db'>;

const links = {
  jwksUrl: 'http://vigil.test/.well-known/jwks.json',
  verifyDocsUrl: 'https://docs.vigil.test/sla-verification',
};
const timings = { reminderAfterMs: 1_500, escalateAfterMs: 3_000, correctionWindowMs: 3_600_000 };

beforeAll(async () => {
  smtp = await startSmtpSink();
  printer = createStatementPdfRenderer();
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <sla@vigil.test>', outboxDir: '/nonexistent' });
  h = await startTemporalHarness({
    sla: {
      signer: { box: testSecretBox(), tzDataVersion: tzDataVersion(process.versions.tz) },
      mail: { mailer, pdf: pdfSource(printer, links), ...links, consoleUrl: 'http://vigil.test' },
    },
  });
  api = await startApi({ sla: { workflows: temporalSlaWorkflows(h.temporal, timings), printer, links } });
  org = await orgWithKeys(api, {
    keys: {
      preparer: ['read:sla', 'write:sla'],
      approver: ['read:sla', 'write:sla'],
      reader: ['read:sla'],
      metricsOnly: ['read:metrics', 'write:metrics'],
    },
    services: ['api', 'db'],
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await h?.close();
  await printer?.close();
  await smtp?.close();
});

/** A manual metric under `service` that existed all October, with these status flips. */
async function metricWithFlips(service: string, flips: [string, string][]): Promise<string> {
  const res = await org.call('POST', '/v1/metrics', {
    service_id: service,
    name: `m-${randomUUID().slice(0, 8)}`,
    source_type: 'manual',
    source_config: {},
  });
  expect(res.status).toBe(201);
  const em = api.orm.em.fork();
  await em
    .getConnection()
    .execute(`update metrics set created_at = '2026-09-01T00:00:00Z' where id = ?`, [res.body.id]);
  let from = 'no_data';
  for (const [at, to] of flips) {
    em.create(MetricStatusFlipSchema, {
      id: randomUUID(),
      organization: org.id,
      metric: res.body.id,
      fromStatus: from,
      toStatus: to,
      value: null,
      reason: null,
      at: new Date(at),
    });
    from = to;
  }
  await em.flush();
  return res.body.id;
}

async function incident(
  title: string,
  services: string[],
  start: string,
  end: string,
  o: { published: boolean; visibleTo?: string[] },
): Promise<void> {
  const em = api.orm.em.fork();
  em.create(IncidentSchema, {
    id: randomUUID(),
    organization: org.id,
    title,
    severity: 'major',
    affectedServices: services,
    visibleToCustomerIds: o.visibleTo ?? [],
    publishedAt: o.published ? new Date(start) : null,
    resolvedAt: new Date(end),
    canceledAt: null,
    deletedAt: null,
    createdAt: new Date(start),
    updatedAt: new Date(end),
  });
  await em.flush();
}

async function maintenance(
  service: string,
  announced: string,
  start: string,
  end: string,
  title: string,
): Promise<void> {
  const em = api.orm.em.fork();
  em.create(MaintenanceSchema, {
    id: randomUUID(),
    organization: org.id,
    title,
    description: null,
    affectedServices: [service],
    scheduledStartAt: new Date(start),
    scheduledEndAt: new Date(end),
    actualStartAt: new Date(start),
    actualEndAt: new Date(end),
    canceledAt: null,
    deletedAt: null,
    startingSoonAt: null,
    createdAt: new Date(announced),
    updatedAt: new Date(announced),
  });
  await em.flush();
}

const contractBody = (over: Record<string, unknown> = {}) => ({
  customer_id: customerId,
  name: 'Acme Gold',
  service_ids: [org.services.api, org.services.db],
  sla_target_pct: '99.95',
  timezone: 'Europe/Berlin',
  currency: 'EUR',
  monthly_fee_minor: 100_000,
  effective_from: '2026-01-01',
  credit_terms: {
    type: 'tiered',
    steps: [
      { below_pct: '99.99', credit_pct: '10' },
      { below_pct: '99', credit_pct: '30' },
    ],
    maintenance_notice_hours: 48,
  },
  billing_email: 'billing@acme.test',
  finance_contacts: ['finance@vigil.test'],
  escalation_contacts: ['cfo@vigil.test'],
  ...over,
});
let customerId: string;
let apiMetric: string;
let dbMetric: string;

async function auditOf(statementId: string) {
  const res = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/audit`);
  expect(res.status).toBe(200);
  return res.body.items.map(
    (a: { action: string; from_state: string | null; to_state: string; revision: number }) =>
      `${a.revision}:${a.action}:${a.from_state ?? '-'}→${a.to_state}`,
  );
}

describe('SLA statements through the API and the period workflow', () => {
  let contractId: string;
  let statementId: string;

  it('creates a contract (with its monthly schedule) and validates it', async () => {
    customerId = (await org.call('POST', '/v1/customers', { name: 'Acme <Corp>', contact_email: 'ops@acme.test' })).body
      .id;
    const bad = await org.call(
      'POST',
      '/v1/contracts',
      contractBody({
        timezone: 'Mars/Olympus',
        currency: 'XYZ',
        effective_from: '2026-02-30',
        credit_terms: { type: 'tiered', steps: [] },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.title).toBe('validation_failed');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['timezone', 'currency', 'effective_from']),
    );
    const unknown = await org.call('POST', '/v1/contracts', contractBody({ service_ids: [randomUUID()] }));
    expect(unknown.body.title).toBe('unknown_services');

    const created = await org.keys.preparer.call('POST', '/v1/contracts', contractBody());
    expect(created.status).toBe(201);
    contractId = created.body.id;
    expect(created.body.credit_terms).toMatchObject({
      type: 'tiered',
      cap_pct: '100',
      rounding: 'half_up',
      count_degraded_as_down: false,
    });
    expect(created.body.grace_hours).toBe(48);
    const schedule = await h.temporal.client.schedule.getHandle(contractScheduleId(contractId)).describe();
    expect(schedule.spec.timezone).toBe('Europe/Berlin');
    expect(schedule.spec.calendars?.[0]).toMatchObject({
      dayOfMonth: [{ start: 3, end: 3, step: 1 }],
      hour: [{ start: 0, end: 0, step: 1 }],
    });
    expect(schedule.spec.jitter).toBe(1_800_000);
    expect((await org.keys.reader.call('POST', '/v1/contracts', contractBody())).body.title).toBe('forbidden');
  });

  it('drafts October from stored flips and maintenances: exact minutes across the DST change, a signed document', async () => {
    // api: down 30 minutes; db: down 60 minutes inside maintenance announced 3 days ahead (excluded) and 20 minutes inside one announced an hour ahead (counted).
    apiMetric = await metricWithFlips(org.services.api, [
      ['2026-09-30T00:00:00Z', 'healthy'],
      ['2026-10-10T10:00:00Z', 'unhealthy'],
      ['2026-10-10T10:30:00Z', 'healthy'],
    ]);
    dbMetric = await metricWithFlips(org.services.db, [
      ['2026-09-30T00:00:00Z', 'healthy'],
      ['2026-10-20T02:00:00Z', 'unhealthy'],
      ['2026-10-20T03:00:00Z', 'healthy'],
      ['2026-10-21T05:00:00Z', 'unhealthy'],
      ['2026-10-21T05:20:00Z', 'healthy'],
    ]);
    await maintenance(
      org.services.db,
      '2026-10-17T00:00:00Z',
      '2026-10-20T02:00:00Z',
      '2026-10-20T03:00:00Z',
      'Planned DB upgrade',
    );
    await maintenance(
      org.services.db,
      '2026-10-21T04:00:00Z',
      '2026-10-21T05:00:00Z',
      '2026-10-21T05:30:00Z',
      'Emergency patch',
    );
    // The ledger shows incidents the customer could see: not another customer's, not drafts.
    const other = (await org.call('POST', '/v1/customers', { name: 'Other customer' })).body.id;
    await incident('API errors', [org.services.api], '2026-10-10T09:55:00Z', '2026-10-10T10:40:00Z', {
      published: true,
    });
    await incident('Only for another customer', [org.services.api], '2026-10-10T09:55:00Z', '2026-10-10T10:40:00Z', {
      published: true,
      visibleTo: [other],
    });
    await incident('Never published', [org.services.api], '2026-10-10T09:55:00Z', '2026-10-10T10:40:00Z', {
      published: false,
    });

    const future = await org.keys.preparer.call('POST', `/v1/contracts/${contractId}/statements`, {
      period: '2099-01',
    });
    expect(future.body.errors?.[0]?.path).toBe('period');
    const drafted = await org.keys.preparer.call('POST', `/v1/contracts/${contractId}/statements`, {
      period: '2026-10',
    });
    expect(drafted.status).toBe(201);
    const s = drafted.body;
    statementId = s.id;
    expect(s).toMatchObject({
      contract_id: contractId,
      customer_id: customerId,
      customer_name: 'Acme <Corp>',
      period_label: '2026-10',
      timezone: 'Europe/Berlin',
      revision: 1,
      state: 'draft',
      currency: 'EUR',
      credit_state: 'pending',
    });
    expect(s.period_start).toBe('2026-09-30T22:00:00.000Z');
    expect(s.period_end).toBe('2026-10-31T23:00:00.000Z');
    // 31 days + the hour given back on 25 October = 44,700 minutes; 60 excluded; 30 + 20 down.
    expect(s.attainment_min).toBe('99.8879');
    expect(s.credit_pct).toBe('10');
    expect(s.credit_amount_minor).toBe(10_000);

    const json = await org.keys.reader.call('GET', `/v1/sla/statements/${s.id}/statement.json`);
    const bytes = Buffer.from(json.text, 'utf8');
    expect(sha256Hex(bytes)).toBe(s.sha256);
    const doc = JSON.parse(json.text);
    expect(doc.totals).toEqual({
      total_minutes: 44_700,
      excluded_minutes: 60,
      eligible_minutes: 44_640,
      down_minutes: 50,
    });
    expect(doc.period.tz_data_version).toBe(process.versions.tz);
    expect(doc.exclusions.map((e: { title: string; excluded: boolean }) => [e.title, e.excluded])).toEqual([
      ['Planned DB upgrade', true],
      ['Emergency patch', false],
    ]);
    expect(doc.exclusions[0].applies_to).toEqual([org.services.db]);
    expect(
      doc.incidents.map((i: { title: string; down_minutes: number; counted: boolean }) => [
        i.title,
        i.down_minutes,
        i.counted,
      ]),
    ).toEqual([['API errors', 30, true]]);
    const jwks = await api.request('GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(await verifyStatement(bytes, s.signature, jwks.body, { expectedSha256: s.sha256 })).toEqual({
      valid: true,
      kid: s.signing_key_id,
    });
    expect((await api.request('GET', '/v1/sla/jwks.json')).body).toEqual(jwks.body);

    const handle = h.temporal.client.workflow.getHandle(slaStatementWorkflowId(contractId, '2026-10'));
    const described = await handle.describe();
    const attrs = Object.fromEntries(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
    expect(attrs).toMatchObject({
      VigilOrganizationId: org.id,
      VigilResourceKind: 'sla_statement',
      VigilSlaContract: contractId,
      VigilSlaPeriod: '2026-10',
      VigilSlaState: 'draft',
      VigilSlaRevision: 1,
    });
    expect(described.memo).toEqual({ title: 'SLA statement 2026-10 — Acme Gold' });
    // Asking again starts nothing new.
    const again = await org.keys.preparer.call('POST', `/v1/contracts/${contractId}/statements`, { period: '2026-10' });
    expect(again.body.id).toBe(s.id);
  }, 60_000);

  it('renders HTML, CSV and a PDF carrying statement.json and statement.jws', async () => {
    const html = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/statement.html`);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toContain('Acme &#60;Corp&#62;');
    expect(html.text).not.toContain('Acme <Corp>');
    const csv = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/evidence.csv`);
    expect(csv.text.split('\r\n')[0]).toBe(
      'kind,id,name,start,end,total_minutes,excluded_minutes,eligible_minutes,down_minutes,counted,why',
    );
    const pdf = await fetch(`${api.baseUrl}/v1/sla/statements/${statementId}/statement.pdf`, {
      headers: { authorization: `Bearer ${org.keys.reader.key}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const loaded = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    const files = Object.fromEntries(readPdfAttachments(loaded).map((a) => [a.name, a.bytes]));
    const json = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/statement.json`);
    expect(Buffer.from(files['statement.json']!).toString('utf8')).toBe(json.text);
    const jws = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/statement.jws`);
    expect(Buffer.from(files['statement.jws']!).toString('utf8')).toBe(jws.text);
  }, 60_000);

  it('runs the approval flow as workflow updates: separation of duties, stale revisions, delivery by email', async () => {
    const preparer = org.keys.preparer.call;
    const approver = org.keys.approver.call;
    const s0 = (await preparer('GET', `/v1/sla/statements/${statementId}`)).body;
    expect(
      (await preparer('POST', `/v1/sla/statements/${statementId}/approve`, { revision: 1, sha256: s0.sha256 })).body
        .title,
    ).toBe('invalid_transition');
    expect((await org.keys.reader.call('POST', `/v1/sla/statements/${statementId}/submit`)).body.title).toBe(
      'forbidden',
    );

    // An exclusion while in draft recomputes and re-signs.
    const excl = await preparer('POST', `/v1/sla/statements/${statementId}/exclusions`, {
      starts_at: '2026-10-10T10:00:00.000Z',
      ends_at: '2026-10-10T10:30:00.000Z',
      justification: 'Customer-requested failover test, ticket #4711',
    });
    expect(excl.status).toBe(200);
    expect(excl.body.sha256).not.toBe(s0.sha256);
    expect(excl.body.attainment_min).toBe('99.9551');
    const outside = await preparer('POST', `/v1/sla/statements/${statementId}/exclusions`, {
      starts_at: '2026-12-01T00:00:00.000Z',
      ends_at: '2026-12-02T00:00:00.000Z',
      justification: 'wrong month',
    });
    expect(outside.body.title).toBe('validation_failed');
    const twice = await preparer('POST', `/v1/sla/statements/${statementId}/exclusions`, {
      starts_at: '2026-10-10T10:15:00.000Z',
      ends_at: '2026-10-10T10:45:00.000Z',
      justification: 'overlaps the first',
    });
    expect(twice.body.errors).toEqual([{ path: 'starts_at', message: 'Overlaps an existing exclusion' }]);
    const seconds = await preparer('POST', `/v1/sla/statements/${statementId}/exclusions`, {
      starts_at: '2026-10-11T10:15:30.000Z',
      ends_at: '2026-10-11T10:45:00.000Z',
      justification: 'not a whole minute',
    });
    expect(seconds.body.errors[0].path).toBe('starts_at');

    const submitted = await preparer('POST', `/v1/sla/statements/${statementId}/submit`, undefined, {
      'idempotency-key': 'submit-1',
    });
    expect(submitted.body.state).toBe('in_review');
    const replay = await preparer('POST', `/v1/sla/statements/${statementId}/submit`, undefined, {
      'idempotency-key': 'submit-1',
    });
    expect(replay.status).toBe(200);
    expect(replay.body.state).toBe('in_review');

    expect(
      (await preparer('POST', `/v1/sla/statements/${statementId}/approve`, { revision: 1, sha256: excl.body.sha256 }))
        .body.title,
    ).toBe('approver_is_submitter');
    expect(
      (await approver('POST', `/v1/sla/statements/${statementId}/approve`, { revision: 1, sha256: s0.sha256 })).body
        .title,
    ).toBe('stale_revision');
    expect(
      (
        await preparer('POST', `/v1/sla/statements/${statementId}/exclusions`, {
          starts_at: '2026-10-01T00:00:00.000Z',
          ends_at: '2026-10-01T01:00:00.000Z',
          justification: 'too late',
        })
      ).body.title,
    ).toBe('invalid_transition');

    // Left in review: the reminder goes to finance, then the escalation.
    await smtp.waitFor(
      (m) => m.subject?.startsWith('Reminder: SLA statement 2026-10') === true && m.to !== undefined,
      15_000,
    );
    await smtp.waitFor((m) => m.subject?.startsWith('Escalation: SLA statement 2026-10') === true, 15_000);

    const approved = await approver('POST', `/v1/sla/statements/${statementId}/approve`, {
      revision: 1,
      sha256: excl.body.sha256.toUpperCase(),
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: 'approved', credit_state: 'approved' });
    expect(approved.body.approved_at).not.toBeNull();

    const delivered = await preparer('POST', `/v1/sla/statements/${statementId}/deliver`);
    expect(delivered.body).toMatchObject({ state: 'delivered', credit_state: 'issued' });
    expect(delivered.body.sent_at).not.toBeNull();
    const mail = await smtp.waitFor((m) => m.subject?.startsWith('SLA statement 2026-10') === true, 15_000);
    expect(JSON.stringify(mail.to)).toContain('billing@acme.test');
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([
      'sla-statement-2026-10-r1.pdf',
      'statement.json',
      'statement.jws',
    ]);
    expect(mail.text).toContain(excl.body.sha256);

    const handle = h.temporal.client.workflow.getHandle(slaStatementWorkflowId(contractId, '2026-10'));
    const attrs = Object.fromEntries(
      (await handle.describe()).typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]),
    );
    expect(attrs).toMatchObject({ VigilSlaState: 'delivered', VigilSlaRevision: 1 });
  }, 90_000);

  it('corrects a delivered statement into a new revision and voids it; the audit trail and events tell it all', async () => {
    const delivered = (await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}`)).body;
    // Samples that arrive after the statement was drafted (after the grace) change nothing delivered…
    const em = api.orm.em.fork();
    em.create(MetricStatusFlipSchema, {
      id: randomUUID(),
      organization: org.id,
      metric: apiMetric,
      fromStatus: 'healthy',
      toStatus: 'unhealthy',
      value: null,
      reason: null,
      at: new Date('2026-10-15T00:00:00Z'),
    });
    em.create(MetricStatusFlipSchema, {
      id: randomUUID(),
      organization: org.id,
      metric: apiMetric,
      fromStatus: 'unhealthy',
      toStatus: 'healthy',
      value: null,
      reason: null,
      at: new Date('2026-10-15T00:10:00Z'),
    });
    await em.flush();
    expect((await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}`)).body.sha256).toBe(delivered.sha256);
    // …until a correction recomputes from the evidence as it is now (finance's exclusion kept).
    const corrected = await org.keys.preparer.call('POST', `/v1/sla/statements/${statementId}/correct`, {
      note: 'Late samples from the agent',
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body).toMatchObject({
      revision: 2,
      state: 'draft',
      supersedes_id: statementId,
      attainment_min: '99.9327',
    });
    const doc2 = JSON.parse(
      (await org.keys.reader.call('GET', `/v1/sla/statements/${corrected.body.id}/statement.json`)).text,
    );
    expect(doc2.supersedes).toEqual({ statement_id: statementId, revision: 1, sha256: delivered.sha256 });
    expect(doc2.exclusions.filter((e: { kind: string }) => e.kind === 'manual')).toHaveLength(1);
    const old = (await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}`)).body;
    expect(old).toMatchObject({ state: 'superseded', credit_state: 'superseded' });
    // An action on a superseded revision: stale_revision, as when a correction wins a race.
    expect((await org.keys.preparer.call('POST', `/v1/sla/statements/${statementId}/submit`)).body.title).toBe(
      'stale_revision',
    );
    const revs = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/revisions`);
    expect(revs.body.items.map((r: { revision: number; state: string }) => `${r.revision}:${r.state}`)).toEqual([
      '2:draft',
      '1:superseded',
    ]);

    const voided = await org.keys.preparer.call('POST', `/v1/sla/statements/${corrected.body.id}/void`, {
      reason: 'Contract renegotiated',
    });
    expect(voided.body).toMatchObject({ state: 'void', void_reason: 'Contract renegotiated', credit_state: 'void' });
    const handle = h.temporal.client.workflow.getHandle(slaStatementWorkflowId(contractId, '2026-10'));
    expect(await handle.result()).toBe('void');
    expect((await org.keys.preparer.call('POST', `/v1/sla/statements/${corrected.body.id}/submit`)).body.title).toBe(
      'statement_closed',
    );

    expect(await auditOf(statementId)).toEqual([
      '1:generate:-→draft',
      '1:add_exclusion:draft→draft',
      '1:submit:draft→in_review',
      '1:approve:in_review→approved',
      '1:deliver:approved→delivered',
      '1:supersede:delivered→superseded',
      '2:correct:-→draft',
      '2:void:draft→void',
    ]);
    const audit = await em.find(SlaAuditEntrySchema, { statement: statementId }, { orderBy: { at: 'asc' } });
    expect(audit.find((a) => a.action === 'approve')?.actor).not.toBe(audit.find((a) => a.action === 'submit')?.actor);
    await expect(
      em.getConnection().execute(`update sla_audit_entries set note = 'edited' where statement_id = ?`, [statementId]),
    ).rejects.toThrow(/append-only/);
    const events = await em.find(
      OutboxEventSchema,
      { resourceKind: 'sla_statement', organization: org.id },
      { orderBy: { createdAt: 'asc' } },
    );
    // A correction supersedes and drafts in one instant: within an instant, by revision.
    const revisionOf = (e: (typeof events)[number]) => (e.payload as { revision: number }).revision;
    events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || revisionOf(a) - revisionOf(b));
    expect(events.map((e) => e.type)).toEqual([
      'sla_statement.drafted',
      'sla_statement.recomputed',
      'sla_statement.submitted',
      'sla_statement.approved',
      'sla_statement.delivered',
      'sla_statement.superseded',
      'sla_statement.corrected',
      'sla_statement.voided',
    ]);
    if (process.env.VIGIL_RECORD_HISTORIES)
      writeFileSync(
        path.join(__dirname, '..', 'replay-histories', 'sla-statement-v2.json'),
        historyToJSON(await handle.fetchHistory()),
      );
  }, 60_000);

  it('lists statements newest first with filters, pattern-checked period and clamped limit', async () => {
    const all = await org.keys.reader.call('GET', '/v1/sla/statements?limit=500');
    expect(all.status).toBe(200);
    expect(all.body.items.map((s: { revision: number }) => s.revision)).toEqual([2, 1]);
    expect((await org.keys.reader.call('GET', '/v1/sla/statements?limit=1')).body.next_cursor).toEqual(
      expect.any(String),
    );
    expect((await org.keys.reader.call('GET', '/v1/sla/statements?state=superseded')).body.items).toHaveLength(1);
    expect((await org.keys.reader.call('GET', '/v1/sla/statements?period=2026-09')).body.items).toHaveLength(0);
    expect((await org.keys.reader.call('GET', '/v1/sla/statements?period=2026-10')).body.items).toHaveLength(2);
    const bad = await org.keys.reader.call('GET', '/v1/sla/statements?period=2026-13');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('query.period');
    expect((await org.keys.metricsOnly.call('GET', '/v1/sla/statements')).body.title).toBe('forbidden');
  });

  it('keeps organizations apart and locks the ledger behind the plan', async () => {
    const other = await orgWithKeys(api);
    expect((await other.call('GET', `/v1/sla/statements/${statementId}`)).status).toBe(404);
    expect((await other.call('GET', `/v1/contracts/${contractId}`)).status).toBe(404);
    expect((await other.call('GET', '/v1/sla/statements')).body.items).toEqual([]);
    expect((await other.call('POST', `/v1/sla/statements/${statementId}/void`, { reason: 'x' })).status).toBe(404);
    const team = await orgWithKeys(api, { plan: 'team' });
    const locked = await team.call('GET', '/v1/sla/statements');
    expect(locked.status).toBe(403);
    expect(locked.body).toMatchObject({
      title: 'feature_locked',
      quota: { capability: 'sla_ledger', cap: 0, plan: 'team' },
      upgrade: { plan: 'business' },
    });
    expect((await team.call('POST', '/v1/contracts', contractBody())).body.title).toBe('feature_locked');
    expect((await org.call('DELETE', `/v1/contracts/${contractId}`)).body).toMatchObject({
      title: 'in_use',
      referenced_by: { sla_statements: 2 },
    });
    const retz = await org.call('PATCH', `/v1/contracts/${contractId}`, {
      timezone: 'UTC',
      currency: 'EUR',
      monthly_fee_minor: 120_000,
    });
    expect(retz.body).toMatchObject({
      title: 'in_use',
      errors: [{ path: 'timezone', message: 'Fixed once statements exist' }],
    });
    expect(
      (await org.call('PATCH', `/v1/contracts/${contractId}`, { monthly_fee_minor: 120_000 })).body.monthly_fee_minor,
    ).toBe(120_000);
  });

  it('covers SLOs as well as services: an SLO stands for its metric', async () => {
    const slo = await org.call('POST', '/v1/slos', {
      name: 'DB availability',
      metric_id: dbMetric,
      objective: '99.9',
      window: { kind: 'rolling', days: 30 },
    });
    expect(slo.status).toBe(201);
    expect(
      (await org.call('POST', '/v1/contracts', contractBody({ service_ids: [], slo_ids: [randomUUID()] }))).body
        .errors[0].path,
    ).toBe('slo_ids.0');
    expect((await org.call('POST', '/v1/contracts', contractBody({ service_ids: [] }))).body.errors[0].path).toBe(
      'service_ids',
    );
    const contract = await org.call(
      'POST',
      '/v1/contracts',
      contractBody({ name: 'DB only', service_ids: [], slo_ids: [slo.body.id] }),
    );
    expect(contract.status).toBe(201);
    expect(contract.body.slo_ids).toEqual([slo.body.id]);
    const drafted = await org.call('POST', `/v1/contracts/${contract.body.id}/statements`, { period: '2026-10' });
    expect(drafted.status).toBe(201);
    // db alone: 60 minutes in the announced maintenance (excluded), 20 in the late one (counted).
    expect(drafted.body.attainment_min).toBe('99.9551');
    const doc = JSON.parse((await org.call('GET', `/v1/sla/statements/${drafted.body.id}/statement.json`)).text);
    expect(doc.services).toEqual([
      expect.objectContaining({
        id: slo.body.id,
        kind: 'slo',
        name: 'DB availability',
        metrics: 1,
        down_minutes: 20,
        excluded_minutes: 60,
      }),
    ]);
  }, 30_000);

  it('lets the monthly schedule draft the period that ended (after the grace) and not twice', async () => {
    const created = await org.call(
      'POST',
      '/v1/contracts',
      contractBody({
        name: 'Acme Silver',
        timezone: 'Pacific/Auckland',
        currency: 'JPY',
        monthly_fee_minor: 50_000,
        grace_hours: 0,
      }),
    );
    const id = created.body.id;
    const schedule = h.temporal.client.schedule.getHandle(contractScheduleId(id));
    await schedule.trigger();
    // Now is after the end of last month in Auckland: the schedule drafts last month.
    const { body } = await eventually(
      async () => {
        const res = await org.call('GET', `/v1/sla/statements?contract_id=${id}`);
        if (res.body.items.length !== 1) throw new Error('not drafted yet');
        return res;
      },
      30_000,
      250,
    );
    expect(body.items[0].period_label).toBe(previousMonthIn('Pacific/Auckland'));
    expect(body.items[0].currency).toBe('JPY');
    await schedule.trigger();
    // A fixed wait that proves a negative: the second run drafts nothing more.
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await org.call('GET', `/v1/sla/statements?contract_id=${id}`)).body.items).toHaveLength(1);
    // Deleting the contract (no statement may exist: use a fresh one) removes its schedule.
    const spare = await org.call('POST', '/v1/contracts', contractBody({ name: 'Spare' }));
    expect((await org.call('DELETE', `/v1/contracts/${spare.body.id}`)).status).toBe(200);
    await expect(h.temporal.client.schedule.getHandle(contractScheduleId(spare.body.id)).describe()).rejects.toThrow();
  }, 60_000);
});

function previousMonthIn(timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(
    new Date(),
  );
  let year = Number(parts.find((p) => p.type === 'year')!.value);
  let month = Number(parts.find((p) => p.type === 'month')!.value) - 1;
  if (month === 0) {
    month = 12;
    year -= 1;
  }
  return `${year}-${String(month).padStart(2, '0')}`;
}
