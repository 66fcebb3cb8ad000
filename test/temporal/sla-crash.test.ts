import { randomUUID } from 'node:crypto';
import { SlaAuditEntrySchema } from '../../src/db/entities';
import { type TemporalHandle, connectTemporal } from '../../src/temporal/connection';
import { temporalSlaWorkflows } from '../../src/temporal/sla-workflows';
import { slaStatementWorkflowId } from '../../src/workflows/search-attribute-keys';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testTemporalAddress } from '../support/env';
import { workerProcesses } from '../support/worker-processes';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/** An SLA statement's workflow outlives its worker: timers, queued actions and delivery resume on a new one. */
const taskQueue = `test-sla-crash-${randomUUID()}`;
let temporal: TemporalHandle;
let api: ApiHarness;
let smtp: SmtpSink;
let org: OrgFixture<'preparer' | 'approver', 'api'>;
const workers = workerProcesses(taskQueue, () => ({ ...process.env, VIGIL_TEST_SMTP_URL: smtp.url }));

beforeAll(async () => {
  smtp = await startSmtpSink();
  temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue });
  const timings = { reminderAfterMs: 2_000, escalateAfterMs: 3_600_000, correctionWindowMs: 3_600_000 };
  api = await startApi({
    sla: {
      workflows: temporalSlaWorkflows(temporal, timings, { updateWaitMs: 10_000 }),
      printer: null,
      links: { jwksUrl: 'http://x/jwks', verifyDocsUrl: 'http://x/docs' },
    },
  });
  org = await orgWithKeys(api, {
    keys: { preparer: ['read:sla', 'write:sla'], approver: ['read:sla', 'write:sla'] },
    services: ['api'],
  });
}, 60_000);
afterAll(async () => {
  await workers.closeAll();
  await api?.close();
  await temporal?.close();
  await smtp?.close();
});

describe('an SLA statement workflow whose worker is killed', () => {
  it('keeps its reminder timer, takes the action retried under the same key once, and delivers once', async () => {
    const first = await workers.spawn();
    const customer = (await org.call('POST', '/v1/customers', { name: 'Crash Corp' })).body.id;
    const contract = await org.call('POST', '/v1/contracts', {
      customer_id: customer,
      name: 'Crash SLA',
      service_ids: [org.services.api],
      sla_target_pct: '99.9',
      timezone: 'Pacific/Auckland',
      currency: 'NZD',
      monthly_fee_minor: 99_00,
      effective_from: '2026-01-01',
      credit_terms: { type: 'tiered', steps: [{ below_pct: '99.9', credit_pct: '5' }], maintenance_notice_hours: 24 },
      billing_email: 'ap@crash.test',
      finance_contacts: ['finance@vigil.test'],
    });
    const drafted = await org.keys.preparer.call('POST', `/v1/contracts/${contract.body.id}/statements`, {
      period: '2026-10',
    });
    expect(drafted.status).toBe(201);
    const id = drafted.body.id;
    // The covered service has no metric: coverage 0 %, so submit and approve acknowledge the gaps.
    expect(
      (await org.keys.preparer.call('POST', `/v1/sla/statements/${id}/submit`, { acknowledge_gaps: true })).body.state,
    ).toBe('in_review');

    await workers.kill(first);
    await new Promise((r) => setTimeout(r, 2_500));
    // No worker: the action cannot be taken now; the API says so instead of hanging.
    const approve = { revision: 1, sha256: drafted.body.sha256, acknowledge_gaps: true };
    const refused = await org.keys.approver.call('POST', `/v1/sla/statements/${id}/approve`, approve, {
      'idempotency-key': 'approve-once',
    });
    expect([refused.status, refused.body.title]).toEqual([409, 'statement_busy']);
    expect(smtp.messages.filter((m) => m.subject?.startsWith('Reminder'))).toHaveLength(0);

    await workers.spawn();
    // The reminder timer, due while no worker ran, fires on the new one.
    await smtp.waitFor((m) => m.subject?.startsWith('Reminder: SLA statement 2026-10') === true, 30_000);
    const approved = await org.keys.approver.call('POST', `/v1/sla/statements/${id}/approve`, approve, {
      'idempotency-key': 'approve-once',
    });
    expect([approved.status, approved.body.state]).toEqual([200, 'approved']);
    const delivered = await org.keys.preparer.call('POST', `/v1/sla/statements/${id}/deliver`);
    expect([delivered.status, delivered.body.state ?? delivered.body.title]).toEqual([200, 'delivered']);
    await smtp.waitFor((m) => m.subject?.startsWith('SLA statement 2026-10') === true, 30_000);

    const audit = await api.orm.em.fork().find(SlaAuditEntrySchema, { statement: id }, { orderBy: { at: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['generate', 'submit', 'approve', 'deliver']);
    expect(smtp.messages.filter((m) => m.subject?.startsWith('SLA statement'))).toHaveLength(1);
    const described = await temporal.client.workflow
      .getHandle(slaStatementWorkflowId(contract.body.id, '2026-10'))
      .describe();
    expect(described.status.name).toBe('RUNNING');
    await temporal.client.workflow
      .getHandle(slaStatementWorkflowId(contract.body.id, '2026-10'))
      .terminate('test done');
  }, 120_000);
});
