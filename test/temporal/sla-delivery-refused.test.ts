import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createConsoleUser } from '../../src/usecases/console/users';
import type { ApiHarness } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInInBrowser } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { seedOctoberOutage } from '../support/sla-outage-metric';
import { type SlaStack, startSlaStack } from '../support/sla-stack';
import type { SmtpSink } from '../support/smtp-sink';

/**
 * An approved SLA statement whose delivery the customer's mail server refuses for good (550), on
 * the real period workflow, worker, Chromium printer and SMTP: the API and the console say why at
 * once, the statement stays approved with nothing in its audit trail, and delivering again once
 * the mailbox works sends it.
 */

let stack: SlaStack;
let api: ApiHarness;
let smtp: SmtpSink;
let browser: Browser;
let org: OrgFixture<'preparer' | 'approver' | 'reader', 'api'>;

const links = {
  jwksUrl: 'http://vigil.test/.well-known/jwks.json',
  verifyDocsUrl: 'https://docs.vigil.test/sla-verification',
};
const run = randomUUID().slice(0, 8);
const billing = `billing-${run}@acme.test`;
const finance = `finance-${run}@vigil.test`;
let statementId: string;

beforeAll(async () => {
  stack = await startSlaStack(links);
  ({ smtp, api } = stack);
  browser = await launchBrowser();
  org = await orgWithKeys(api, {
    keys: { preparer: ['read:sla', 'write:sla'], approver: ['read:sla', 'write:sla'], reader: ['read:sla'] },
    services: ['api'],
  });
  const customer = await org.call('POST', '/v1/customers', { name: 'Acme', contact_email: 'ops@acme.test' });
  await seedOctoberOutage(api, org, org.services.api);
  const contract = await org.call('POST', '/v1/contracts', {
    customer_id: customer.body.id,
    name: 'Acme Gold',
    service_ids: [org.services.api],
    sla_target_pct: '99.95',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    monthly_fee_minor: 100_000,
    effective_from: '2026-01-01',
    credit_terms: { type: 'tiered', steps: [{ below_pct: '99.99', credit_pct: '10' }], maintenance_notice_hours: 48 },
    billing_email: billing,
  });
  expect(contract.status).toBe(201);
  const drafted = await org.keys.preparer.call('POST', `/v1/contracts/${contract.body.id}/statements`, {
    period: '2026-10',
  });
  expect(drafted.status).toBe(201);
  statementId = drafted.body.id;
  expect((await org.keys.preparer.call('POST', `/v1/sla/statements/${statementId}/submit`)).body.state).toBe(
    'in_review',
  );
  const approved = await org.keys.approver.call('POST', `/v1/sla/statements/${statementId}/approve`, {
    revision: 1,
    sha256: drafted.body.sha256,
  });
  expect(approved.body.state).toBe('approved');
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: finance, role: 'finance' }, new Date());
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function auditOf(): Promise<string[]> {
  const res = await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}/audit`);
  expect(res.status).toBe(200);
  return res.body.items.map(
    (a: { action: string; from_state: string | null; to_state: string }) =>
      `${a.action}:${a.from_state ?? '-'}→${a.to_state}`,
  );
}

const statementMail = (m: { subject?: string; to?: unknown }) =>
  m.subject?.startsWith('SLA statement 2026-10') === true && JSON.stringify(m.to).includes(billing);

describe('an SLA statement the customer’s mail server refuses', () => {
  it('answers delivery_refused with the server’s reason at once; the statement stays approved and unaudited', async () => {
    smtp.rejectRecipients.add(billing);
    const refused = await org.keys.preparer.call('POST', `/v1/sla/statements/${statementId}/deliver`);
    // At once, not after the request's 30 s wait for a workflow still retrying (statement_busy).
    expect([refused.status, refused.body.title]).toEqual([409, 'delivery_refused']);
    expect(refused.body.detail).toContain(billing);
    expect(refused.body.detail).toMatch(/550/);
    expect(refused.body.detail).toContain('Recipient address rejected');
    const s = (await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}`)).body;
    expect(s).toMatchObject({ state: 'approved', credit_state: 'approved', sent_at: null });
    expect(await auditOf()).toEqual(['generate:-→draft', 'submit:draft→in_review', 'approve:in_review→approved']);
    expect(smtp.messages.some(statementMail)).toBe(false);
  }, 60_000);

  it('the console shows finance the reason next to the Deliver button; delivering again once the mailbox works sends it', async () => {
    const context = await browser.newContext();
    const page: Page = await context.newPage();
    try {
      await signInInBrowser({ page, baseUrl: api.baseUrl, smtp }, finance);
      await page.goto(`${api.baseUrl}/console/sla/${statementId}`);
      await page.getByRole('button', { name: 'Deliver to the customer' }).click();
      const problem = page.getByRole('alert');
      await problem.waitFor();
      expect(await problem.textContent()).toContain(`The mail server refused the statement for ${billing}`);
      expect(await problem.textContent()).toContain('delivery_refused');
      expect(await page.locator('.badge').first().textContent()).toBe('approved');

      // The mailbox is fixed: the same button delivers.
      smtp.rejectRecipients.delete(billing);
      await page.getByRole('button', { name: 'Deliver to the customer' }).click();
      await page.getByText('Delivered: the statement was emailed to the customer.').waitFor();
      const mail = await smtp.waitFor(statementMail, 30_000);
      expect(mail.attachments.map((a) => a.filename).sort()).toEqual([
        'sla-statement-2026-10-r1.pdf',
        'statement.json',
        'statement.jws',
      ]);
      expect((await org.keys.reader.call('GET', `/v1/sla/statements/${statementId}`)).body).toMatchObject({
        state: 'delivered',
        credit_state: 'issued',
        sent_at: expect.any(String),
      });
      expect(await auditOf()).toEqual([
        'generate:-→draft',
        'submit:draft→in_review',
        'approve:in_review→approved',
        'deliver:approved→delivered',
      ]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
