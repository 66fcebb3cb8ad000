import type { EntityManager } from '@mikro-orm/postgresql';
import { ContractSchema, CustomerSchema, SlaStatementSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { isPermanentMailError } from '../../domain/mail-errors';
import type { MailMessage, Mailer } from '../shared/ports';
import { reviewReminderEmail, statementDeliveryEmail } from '../../render/sla/emails';
import { documentOf } from './documents';
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

/**
 * Emails the approved statement to the customer's billing contact: the PDF with statement.json and
 * statement.jws attached, and how to verify them. The Message-ID is the revision's, so a send
 * retried after a lost answer reaches the recipient as the same message. Answers where it went.
 */
export async function mailStatement(
  em: EntityManager,
  deps: SlaMailDeps,
  ref: StatementRef,
  statementId: string,
): Promise<{ sentTo: string }> {
  const row = await em.findOne(SlaStatementSchema, { id: statementId, organization: ref.organizationId });
  if (!row) throw new ProblemError('not_found', 'The statement is gone.');
  if (row.state !== 'approved')
    throw new ProblemError(
      'invalid_transition',
      `Only an approved statement is delivered; this one is ${row.state.replace('_', ' ')}.`,
    );
  const contract = await em.findOneOrFail(ContractSchema, { id: row.contract });
  const customer = await em.findOne(CustomerSchema, { id: row.customer });
  const to = contract.billingEmail ?? customer?.contactEmail ?? null;
  if (!to)
    throw new ProblemError(
      'no_billing_contact',
      'Neither the contract (billing_email) nor the customer (contact_email) has an email address to deliver the statement to.',
    );
  const pdf = await deps.pdf.pdf(em, row.id);
  const document = documentOf(row);
  const email = statementDeliveryEmail({
    periodLabel: row.periodLabel,
    timezone: row.timezone,
    customerName: row.customerName,
    contractName: document.contract.name,
    revision: row.revision,
    attainmentMin: row.attainmentMin,
    creditPct: row.creditPct,
    creditAmountMinor: row.creditAmountMinor,
    currency: row.currency,
    currencyExponent: document.contract.currency_exponent,
    sha256: row.sha256,
    signingKeyId: row.signingKeyId,
    jwksUrl: deps.jwksUrl,
    verifyDocsUrl: deps.verifyDocsUrl,
  });
  await sendRefusalAware(deps.mailer, to, {
    ...email,
    headers: { 'X-Vigil-Statement': `${row.id}; revision=${row.revision}; sha256=${row.sha256}` },
    messageId: `sla-statement-${row.id}`,
    attachments: [
      {
        filename: `sla-statement-${row.periodLabel}-r${row.revision}.pdf`,
        content: pdf,
        contentType: 'application/pdf',
      },
      { filename: 'statement.json', content: Buffer.from(row.document), contentType: 'application/json' },
      { filename: 'statement.jws', content: row.signature, contentType: 'application/jose' },
    ],
  });
  return { sentTo: to };
}

/**
 * A permanent refusal (an unknown mailbox, a rejected sender) fails the delivery at once with the
 * server's answer, for finance to act on: retrying would only hide it behind a busy statement.
 * A temporary one (4xx, no answer) throws as it is, so the activity is retried.
 */
async function sendRefusalAware(mailer: Mailer, to: string, msg: Omit<MailMessage, 'to'>): Promise<void> {
  try {
    await mailer.send({ to, ...msg });
  } catch (err) {
    if (!isPermanentMailError(err)) throw err;
    const answer = String((err as { response?: unknown }).response ?? (err as Error).message ?? 'refused').slice(
      0,
      300,
    );
    throw new ProblemError(
      'delivery_refused',
      `The mail server refused the statement for ${to}: ${answer}. The statement stays approved: correct the billing email (or have the mailbox fixed), then deliver again.`,
    );
  }
}

/**
 * Tells the contract's finance contacts (reminder, after 3 days in review) or its escalation
 * contacts (after 7) that a statement waits for approval. Once per submission: the row remembers.
 */
export async function remindReviewers(
  em: EntityManager,
  deps: Pick<SlaMailDeps, 'mailer'> & { consoleUrl: string },
  ref: StatementRef,
  statementId: string,
  kind: 'reminder' | 'escalation',
  now: Date,
): Promise<boolean> {
  const row = await em.findOne(SlaStatementSchema, { id: statementId, organization: ref.organizationId });
  if (!row || row.state !== 'in_review') return false;
  if (kind === 'reminder' ? row.remindedAt : row.escalatedAt) return false;
  const contract = await em.findOneOrFail(ContractSchema, { id: row.contract });
  const recipients =
    kind === 'reminder'
      ? contract.financeContacts
      : contract.escalationContacts.length
        ? contract.escalationContacts
        : contract.financeContacts;
  const email = reviewReminderEmail({
    kind,
    statementId: row.id,
    revision: row.revision,
    periodLabel: row.periodLabel,
    customerName: row.customerName,
    submittedAt: row.submittedAt ?? null,
    now,
    reviewUrl: `${deps.consoleUrl}/v1/sla/statements/${row.id}`,
  });
  for (const to of recipients)
    await deps.mailer.send({
      to,
      ...email,
      messageId: `sla-${kind}-${row.id}-${row.submittedAt?.getTime() ?? 0}-${to}`,
    });
  if (kind === 'reminder') row.remindedAt = now;
  else row.escalatedAt = now;
  await em.flush();
  return recipients.length > 0;
}
