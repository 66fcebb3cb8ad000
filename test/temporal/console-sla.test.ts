import { randomUUID } from 'node:crypto';
import type { ApiHarness } from '../support/api-harness';
import { type ConsoleClient, type PageResult, signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { seedOctoberOutage } from '../support/sla-outage-metric';
import { type SlaStack, startSlaStack } from '../support/sla-stack';
import type { SmtpSink } from '../support/smtp-sink';

/**
 * The console's finance pages end to end: a statement drafted by the real period workflow (real
 * Temporal server, worker, Chromium printer, SMTP sink), reviewed through the console's forms by
 * two finance users: separation of duties, stale pages, delivery, the audit trail, roles, CSRF
 * and organization isolation.
 */

let stack: SlaStack;
let api: ApiHarness;
let smtp: SmtpSink;
let org: OrgFixture<never, 'api'>;

const links = {
  jwksUrl: 'http://vigil.test/.well-known/jwks.json',
  verifyDocsUrl: 'https://docs.vigil.test/sla-verification',
};
const run = randomUUID().slice(0, 8);
const emailOf = (who: string) => `${who}-${run}@vigil.test`;

let financeA: ConsoleClient;
let financeB: ConsoleClient;
let contractId: string;
let statementId: string;

beforeAll(async () => {
  stack = await startSlaStack(links, { temporalUiUrl: 'http://temporal-ui.test' });
  ({ smtp, api } = stack);
  org = await orgWithKeys(api, { services: ['api'] });

  // October 2026 of a contract over one service that was down 30 minutes: a draft statement.
  const customer = await org.call('POST', '/v1/customers', { name: 'Acme <Corp>', contact_email: 'ops@acme.test' });
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
    billing_email: 'billing@acme.test',
  });
  expect(contract.status).toBe(201);
  contractId = contract.body.id;
  const drafted = await org.call('POST', `/v1/contracts/${contractId}/statements`, { period: '2026-10' });
  expect(drafted.status).toBe(201);
  statementId = drafted.body.id;

  financeA = await signedInClient(api, smtp, org.id, emailOf('finance-a'), 'finance');
  financeB = await signedInClient(api, smtp, org.id, emailOf('finance-b'), 'finance');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const page = (id = statementId) => `/console/sla/${id}`;

/** The hidden fields (CSRF, revision, sha256, idempotency key) of the form posting to `action` on `html`. */
function formFields(html: string, action: string): Record<string, string> {
  const m = new RegExp(
    `<form[^>]*action="${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>([\\s\\S]*?)</form>`,
  ).exec(html);
  if (!m) throw new Error(`no form posting to ${action}`);
  return Object.fromEntries(
    [...m[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((x) => [x[1]!, x[2]!]),
  );
}

/** Opens the statement and posts the form of `action` with `extra` fields, as a browser would. */
async function act(client: ConsoleClient, action: string, extra: Record<string, string> = {}): Promise<PageResult> {
  const html = (await client.get(page())).text;
  return client.post(`${page()}/${action}`, { ...formFields(html, `${page()}/${action}`), ...extra });
}

/** The refused form's error code (the API's token), shown under the worded summary. */
const problemTitle = (html: string) =>
  /<div class="problem"[^>]*>[\s\S]*?Error code: <code>([^<]+)<\/code>/.exec(html)?.[1];

describe('console: SLA statements for finance', () => {
  let draftPage: string;

  it('lists the statement in the queue and shows it with its figures, documents and actions', async () => {
    const queue = await financeA.get('/console/sla');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain(`href="${page()}"`);
    expect(queue.text).toContain('Acme &#60;Corp&#62;');
    expect(queue.text).toContain('Acme Gold');
    expect(queue.text).toMatch(/<span class="badge neutral">draft<\/span>/);
    expect(queue.text).toContain('EUR 100.00');
    // In review comes first, then draft.
    expect(queue.text.indexOf('id="q-in_review"')).toBeLessThan(queue.text.indexOf('id="q-draft"'));
    expect((await financeA.get('/console/sla?state=bogus')).status).toBe(400);
    expect((await financeA.get('/console/sla?state=approved')).text).toContain('No statements are approved.');

    const shown = await financeA.get(page());
    expect(shown.status).toBe(200);
    draftPage = shown.text;
    expect(shown.text).toContain('<h1>SLA statement 2026-10: Acme &#60;Corp&#62; (revision 1)</h1>');
    expect(shown.text).toContain('99.9328 %');
    expect(shown.text).toContain('EUR 100.00');
    expect(shown.text).toContain('(10 % of EUR 1,000.00)');
    expect(shown.text).toContain('Incident ledger');
    expect(shown.text).toContain('Minutes per covered service');
    for (const doc of ['statement.pdf', 'statement.json', 'statement.jws', 'statement.html', 'evidence.csv'])
      expect(shown.text).toContain(`href="${page()}/${doc}"`);
    expect(shown.text).toContain(
      `href="http://temporal-ui.test/namespaces/default/workflows/${encodeURIComponent(`sla-statement:${contractId}:2026-10`)}"`,
    );
    // A draft: submit, exclusions, void; no approval or delivery yet.
    expect(shown.text).toContain(`action="${page()}/submit"`);
    expect(shown.text).toContain(`action="${page()}/exclusions"`);
    expect(shown.text).toContain(`action="${page()}/void"`);
    expect(shown.text).not.toContain(`action="${page()}/approve"`);
    expect(shown.text).not.toContain(`action="${page()}/deliver"`);
    // Each form carries its own idempotency key.
    expect(formFields(shown.text, `${page()}/submit`).idempotency_key).not.toBe(
      formFields(shown.text, `${page()}/void`).idempotency_key,
    );

    const pdf = await financeA.get(`${page()}/statement.pdf`);
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const json = await financeA.get(`${page()}/statement.json`);
    expect(JSON.parse(json.text).period.label).toBe('2026-10');
    expect((await financeA.get(`${page()}/evidence.csv`)).headers.get('content-type')).toBe('text/csv; charset=utf-8');
  }, 60_000);

  it('adds an exclusion in draft, with problems next to the fields', async () => {
    const empty = await act(financeA, 'exclusions', { starts_at: '', ends_at: '2026-10-10T10:30', justification: 'x' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('id="f-starts_at-error"');
    expect(empty.text).toMatch(/id="f-starts_at" name="starts_at" required aria-invalid="true"/);
    const outside = await act(financeA, 'exclusions', {
      starts_at: '2026-12-01T00:00',
      ends_at: '2026-12-02T00:00',
      justification: 'wrong month',
    });
    expect(outside.status).toBe(400);
    expect(outside.text).toContain('id="f-ends_at-error"');
    // The refused form keeps what was typed.
    expect(outside.text).toContain('wrong month</textarea>');

    const added = await act(financeA, 'exclusions', {
      starts_at: '2026-10-10T10:00',
      ends_at: '2026-10-10T10:30',
      justification: 'Customer-requested failover test',
    });
    expect([added.status, added.headers.get('location')]).toEqual([303, page()]);
    const now = await financeA.get(page());
    expect(now.text).toContain('100.0000 %');
    expect(now.text).toContain('Customer-requested failover test');
  }, 30_000);

  it('refuses a submit from a page showing an older sha256, then submits', async () => {
    const stale = await financeA.post(`${page()}/submit`, formFields(draftPage, `${page()}/submit`));
    expect(stale.status).toBe(409);
    expect(problemTitle(stale.text)).toBe('stale_revision');
    const submitted = await act(financeA, 'submit');
    expect(submitted.status).toBe(303);
    const shown = await financeA.get(submitted.headers.get('location')!);
    expect(shown.text).toContain('<div class="flash" role="status">Submitted for review.</div>');
    expect(shown.text).toMatch(/<span class="badge degraded">in review<\/span>/);
    expect(shown.text).toContain('You submitted this statement: someone else must approve it');
  }, 30_000);

  it('keeps the submitter from approving, refuses a stale approval and an empty note, and marks a long wait', async () => {
    // The submitter is not offered the approval; a forged one is refused all the same.
    expect((await financeA.get(page())).text).not.toContain(`action="${page()}/approve"`);
    const own = await financeA.post(
      `${page()}/approve`,
      formFields((await financeA.get(page())).text, `${page()}/request-changes`),
    );
    expect(own.status).toBe(409);
    expect(problemTitle(own.text)).toBe('approver_is_submitter');

    // The approval form of the page seen before the exclusion: revision 1 with the old sha256.
    const old = formFields(draftPage, `${page()}/submit`);
    const current = formFields((await financeB.get(page())).text, `${page()}/approve`);
    const stale = await financeB.post(`${page()}/approve`, { ...current, sha256: old.sha256! });
    expect(stale.status).toBe(409);
    expect(problemTitle(stale.text)).toBe('stale_revision');
    const badRevision = await financeB.post(`${page()}/approve`, { ...current, revision: '2' });
    expect(problemTitle(badRevision.text)).toBe('stale_revision');

    const noNote = await act(financeB, 'request-changes', { note: '  ' });
    expect(noNote.status).toBe(400);
    expect(noNote.text).toContain('id="f-note-error"');

    // Four days in review: past the reminder threshold.
    await api.orm.em
      .fork()
      .getConnection()
      .execute(`update sla_statements set submitted_at = now() - interval '4 days 1 hour' where id = ?`, [statementId]);
    const queue = await financeB.get('/console/sla');
    expect(queue.text).toContain('<span class="badge late">waiting 4 days</span>');
    const filtered = await financeB.get('/console/sla?state=in_review');
    expect(filtered.text).toContain('<span class="badge late">waiting 4 days</span>');
    expect(filtered.text).toContain(`href="${page()}"`);
  }, 30_000);

  it('lets an operator and a viewer read but not act, and refuses forms without the CSRF token', async () => {
    const operator = await signedInClient(api, smtp, org.id, emailOf('operator'), 'operator');
    expect((await operator.get('/console/sla')).status).toBe(200);
    const seen = await operator.get(page());
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain(`action="${page()}/approve"`);
    expect(seen.text).toContain('can read statements but not act on them');
    const fields = formFields((await financeB.get(page())).text, `${page()}/approve`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(seen.text)![1]!;
    const refused = await operator.post(`${page()}/approve`, { ...fields, _csrf: csrf });
    expect(refused.status).toBe(403);

    const viewer = await signedInClient(api, smtp, org.id, emailOf('viewer'), 'viewer');
    const viewerPage = await viewer.get(page());
    expect(viewerPage.status).toBe(200);
    const viewerCsrf = /name="_csrf" value="([^"]+)"/.exec(viewerPage.text)![1]!;
    expect((await viewer.post(`${page()}/void`, { _csrf: viewerCsrf, reason: 'no' })).status).toBe(403);

    const { _csrf: _omitted, ...withoutCsrf } = fields;
    const forged = await financeB.post(`${page()}/approve`, withoutCsrf);
    expect([forged.status, forged.text]).toEqual([403, expect.stringContaining('CSRF')]);
    expect((await financeB.get(page())).text).toMatch(/<span class="badge degraded">in review<\/span>/);
  }, 30_000);

  it('approves by the second finance user, delivers once on a double submit, and emails the customer', async () => {
    const approved = await act(financeB, 'approve');
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(page());
    const shown = (await financeB.get(page())).text;
    expect(shown).toContain('Approved revision 1.');
    expect(shown).toMatch(/<span class="badge healthy">approved<\/span>/);
    expect(shown).toContain(`action="${page()}/deliver"`);
    expect(shown).toContain(`action="${page()}/correct"`);

    // A double click: the same form twice runs the delivery once.
    const deliver = formFields((await financeA.get(page())).text, `${page()}/deliver`);
    const [first, second] = await Promise.all([
      financeA.post(`${page()}/deliver`, deliver),
      financeA.post(`${page()}/deliver`, deliver),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    const mail = await smtp.waitFor((m) => m.subject?.startsWith('SLA statement 2026-10') === true, 30_000);
    expect(JSON.stringify(mail.to)).toContain('billing@acme.test');
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([
      'sla-statement-2026-10-r1.pdf',
      'statement.json',
      'statement.jws',
    ]);
    const delivered = (await financeA.get(page())).text;
    expect(delivered).toMatch(/<span class="badge healthy">delivered<\/span>/);
    expect(delivered).toContain('to billing@acme.test');
    // Delivering again is no longer valid: no such form, and a forged post is refused.
    expect(delivered).not.toContain(`action="${page()}/deliver"`);
    const again = await financeA.post(`${page()}/deliver`, { ...formFields(delivered, `${page()}/correct`) });
    expect([again.status, problemTitle(again.text)]).toEqual([409, 'invalid_transition']);
  }, 60_000);

  it("shows the audit trail with each step and the console users' emails", async () => {
    const audit = await financeA.get(`${page()}/audit`);
    expect(audit.status).toBe(200);
    const rows = [...audit.text.replace(/<td data-label="[^"]*">/g, '<td>').matchAll(/<tr><td>(.*?)<\/td><\/tr>/g)].map(
      (m) => m[1]!.split('</td><td>'),
    );
    const steps = rows.map((r) => `${r[2]}|${r[3]}|${/^([^<]+)/.exec(r[1]!)?.[1]}`);
    expect(steps).toEqual([
      'generate|new → draft|Vigil',
      `add exclusion|draft → draft|${emailOf('finance-a')}`,
      `submit|draft → in review|${emailOf('finance-a')}`,
      `approve|in review → approved|${emailOf('finance-b')}`,
      `deliver|approved → delivered|${emailOf('finance-a')}`,
    ]);
    expect(audit.text).toContain('Customer-requested failover test');
    expect(audit.text).toMatch(/console user <code>console:[0-9a-f-]{36}<\/code>/);
    const revisions = await financeA.get(`${page()}/revisions`);
    expect(revisions.text).toContain('Revision 1 (this one)');
  });

  it("answers 404 for another organization's statement", async () => {
    const other = await api.createOrg('business', 'Other org');
    const stranger = await signedInClient(api, smtp, other.id, emailOf('stranger'), 'finance');
    expect((await stranger.get(page())).status).toBe(404);
    expect((await stranger.get(`${page()}/statement.pdf`)).status).toBe(404);
    expect((await stranger.get(`${page()}/audit`)).status).toBe(404);
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await stranger.get('/console/sla')).text)![1]!;
    expect((await stranger.post(`${page()}/void`, { _csrf: csrf, reason: 'not mine' })).status).toBe(404);
    expect((await stranger.get('/console/sla')).text).not.toContain(statementId);
  });

  it('pages each state of the queue', async () => {
    // Twelve more (void) statements of another contract, copied from this one.
    const spare = await org.call('POST', '/v1/contracts', {
      customer_id: (await org.call('GET', `/v1/contracts/${contractId}`)).body.customer_id,
      name: 'Spare',
      service_ids: [org.services.api],
      sla_target_pct: '99.9',
      timezone: 'UTC',
      currency: 'EUR',
      monthly_fee_minor: 1000,
      effective_from: '2026-01-01',
      credit_terms: { type: 'tiered', steps: [{ below_pct: '99', credit_pct: '10' }], maintenance_notice_hours: 48 },
    });
    expect([spare.status, spare.text]).toEqual([201, expect.any(String)]);
    const conn = api.orm.em.fork().getConnection();
    const columns = (
      await conn.execute(
        `select column_name from information_schema.columns where table_name = 'sla_statements' and table_schema = current_schema() order by ordinal_position`,
      )
    ).map((c) => String((c as { column_name: string }).column_name));
    const picked = columns.map((c: string) =>
      c === 'id'
        ? 'gen_random_uuid()'
        : c === 'contract_id'
          ? `'${spare.body.id}'::uuid`
          : c === 'revision'
            ? 'n'
            : c === 'state'
              ? `'void'`
              : c === 'created_at'
                ? `created_at + n * interval '1 second'`
                : c === 'customer_name'
                  ? `'Paged ' || n`
                  : `"${c}"`,
    );
    await conn.execute(
      `insert into sla_statements (${columns.map((c: string) => `"${c}"`).join(', ')}) select ${picked.join(', ')} from sla_statements, generate_series(1, 12) n where id = ?`,
      [statementId],
    );

    const queue = (await financeA.get('/console/sla')).text;
    expect(queue).toContain('Paged 12');
    expect(queue).not.toContain('Paged 2<');
    const more = /<a href="(\/console\/sla\?state=void&#38;cursor=[^"]+)">More void statements →<\/a>/.exec(queue);
    expect(more).not.toBeNull();
    const next = await financeA.get(more![1]!.replace(/&#38;/g, '&'));
    expect(next.status).toBe(200);
    expect(next.text).toContain('Paged 2<');
    expect(next.text).toContain('Paged 1<');
    expect(next.text).not.toContain('Paged 12');
    expect((await financeA.get('/console/sla?state=void&cursor=garbage')).status).toBe(400);
  });

  it("warns when coverage is below the contract's minimum and submits only with the gaps acknowledged", async () => {
    const service = await org.call('POST', '/v1/services', { name: `unmeasured-${randomUUID().slice(0, 6)}` });
    const customer = await org.call('POST', '/v1/customers', { name: 'Gaps Inc' });
    const contract = await org.call('POST', '/v1/contracts', {
      customer_id: customer.body.id,
      name: 'Gaps SLA',
      service_ids: [service.body.id],
      sla_target_pct: '99.9',
      timezone: 'UTC',
      currency: 'EUR',
      monthly_fee_minor: 10_000,
      effective_from: '2026-01-01',
      credit_terms: { type: 'tiered', steps: [{ below_pct: '99.9', credit_pct: '10' }], maintenance_notice_hours: 0 },
    });
    const drafted = await org.call('POST', `/v1/contracts/${contract.body.id}/statements`, { period: '2026-10' });
    expect(drafted.status).toBe(201);
    const id = drafted.body.id as string;
    const html = (await financeA.get(page(id))).text;
    expect(html).toContain('<p class="problem" role="note">Insufficient evidence');
    expect(html).toContain('name="acknowledge_gaps"');
    const fields = formFields(html, `${page(id)}/submit`);
    const refused = await financeA.post(`${page(id)}/submit`, fields);
    expect(problemTitle(refused.text)).toBe('insufficient_evidence');
    const again = formFields((await financeA.get(page(id))).text, `${page(id)}/submit`);
    const submitted = await financeA.post(`${page(id)}/submit`, { ...again, acknowledge_gaps: 'true' });
    expect(submitted.status).toBe(303);
    expect((await org.call('GET', `/v1/sla/statements/${id}`)).body.state).toBe('in_review');
  }, 60_000);
});
