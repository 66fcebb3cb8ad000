import type { EntityManager } from '@mikro-orm/postgresql';
import { ContractSchema, CustomerSchema, SlaStatementSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import type { Mailer } from '../../infra/mailer';
import type { StatementRef } from './ports';

/** Renders a stored statement for people: the PDF the customer receives (HTML inside, statement.json and .jws attached). */
export interface StatementPdfSource {
  pdf(em: EntityManager, statementId: string): Promise<Buffer>;
}

export interface SlaMailDeps {
  mailer: Mailer;
  pdf: StatementPdfSource;
  /** Where the public keys are published (`<public URL>/.well-known/jwks.json`). */
  jwksUrl: string;
  /** The verification guide. */
  verifyDocsUrl: string;
}

function money(minor: number, currency: string, exponent: number): string {
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = exponent ? digits.slice(0, -exponent) : digits;
  return `${currency} ${whole}${exponent ? `.${digits.slice(-exponent)}` : ''}`;
}

/**
 * Emails the approved statement to the customer's billing contact: the PDF with statement.json and
 * statement.jws attached, and how to verify them. The Message-ID is the revision's, so a send
 * retried after a lost answer reaches the recipient as the same message. Answers where it went.
 */
export async function mailStatement(em: EntityManager, deps: SlaMailDeps, ref: StatementRef, statementId: string): Promise<{ sentTo: string }> {
  const row = await em.findOne(SlaStatementSchema, { id: statementId, organization: ref.organizationId });
  if (!row) throw new ProblemError('not_found', 'The statement is gone.');
  if (row.state !== 'approved') throw new ProblemError('invalid_transition', `Only an approved statement is delivered; this one is ${row.state.replace('_', ' ')}.`);
  const contract = await em.findOneOrFail(ContractSchema, { id: row.contract });
  const customer = await em.findOne(CustomerSchema, { id: row.customer });
  const to = contract.billingEmail ?? customer?.contactEmail ?? null;
  if (!to) throw new ProblemError('no_billing_contact', 'Neither the contract (billing_email) nor the customer (contact_email) has an email address to deliver the statement to.');
  const pdf = await deps.pdf.pdf(em, row.id);
  const document = JSON.parse(Buffer.from(row.document).toString('utf8')) as { contract: { currency_exponent: number; name: string } };
  const credit = money(row.creditAmountMinor, row.currency, document.contract.currency_exponent);
  const subject = `SLA statement ${row.periodLabel} — ${row.customerName} (revision ${row.revision})`;
  const lines = [
    `Your SLA statement for ${row.periodLabel} (${row.timezone}) under "${document.contract.name}" is attached.`,
    '',
    `Attainment: ${row.attainmentMin} %`,
    `Service credit: ${row.creditPct} % of the monthly fee, ${credit}`,
    '',
    `The PDF carries the signed statement (statement.json) and its signature (statement.jws), also attached here.`,
    `SHA-256 of statement.json: ${row.sha256}`,
    `Signing key: ${row.signingKeyId}`,
    `Public keys: ${deps.jwksUrl}`,
    `How to verify: ${deps.verifyDocsUrl}`,
  ];
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  await deps.mailer.send({
    to,
    subject,
    text: lines.join('\n'),
    html: `<!doctype html><html lang="en"><body>${lines.map((l) => (l ? `<p>${escape(l)}</p>` : '')).join('')}</body></html>`,
    headers: { 'X-Vigil-Statement': `${row.id}; revision=${row.revision}; sha256=${row.sha256}` },
    messageId: `sla-statement-${row.id}`,
    attachments: [
      { filename: `sla-statement-${row.periodLabel}-r${row.revision}.pdf`, content: pdf, contentType: 'application/pdf' },
      { filename: 'statement.json', content: Buffer.from(row.document), contentType: 'application/json' },
      { filename: 'statement.jws', content: row.signature, contentType: 'application/jose' },
    ],
  });
  return { sentTo: to };
}

/**
 * Tells the contract's finance contacts (reminder, after 3 days in review) or its escalation
 * contacts (after 7) that a statement waits for approval. Once per submission: the row remembers.
 */
export async function remindReviewers(em: EntityManager, deps: Pick<SlaMailDeps, 'mailer'> & { consoleUrl: string }, ref: StatementRef, statementId: string, kind: 'reminder' | 'escalation', now: Date): Promise<boolean> {
  const row = await em.findOne(SlaStatementSchema, { id: statementId, organization: ref.organizationId });
  if (!row || row.state !== 'in_review') return false;
  if (kind === 'reminder' ? row.remindedAt : row.escalatedAt) return false;
  const contract = await em.findOneOrFail(ContractSchema, { id: row.contract });
  const recipients = kind === 'reminder' ? contract.financeContacts : contract.escalationContacts.length ? contract.escalationContacts : contract.financeContacts;
  const days = row.submittedAt ? Math.floor((now.getTime() - row.submittedAt.getTime()) / 86_400_000) : 0;
  const subject = `${kind === 'reminder' ? 'Reminder' : 'Escalation'}: SLA statement ${row.periodLabel} for ${row.customerName} awaits approval${days ? ` (${days} days)` : ''}`;
  const text = [
    `The SLA statement ${row.id} (revision ${row.revision}, ${row.periodLabel}) for ${row.customerName} was submitted for review ${row.submittedAt?.toISOString() ?? ''} and is still waiting for approval.`,
    `Review it: ${deps.consoleUrl}/v1/sla/statements/${row.id}`,
  ].join('\n');
  for (const to of recipients) {
    await deps.mailer.send({ to, subject, text, html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '</p><p>')}</p>`, messageId: `sla-${kind}-${row.id}-${row.submittedAt?.getTime() ?? 0}-${to}` });
  }
  if (kind === 'reminder') row.remindedAt = now;
  else row.escalatedAt = now;
  await em.flush();
  return recipients.length > 0;
}
