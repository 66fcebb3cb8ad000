import type { RenderedEmail } from '../emails';
import { esc } from '../html';
import { formatMoney } from './money';

/** Emails about SLA statements: the delivery to the customer and the reminders to reviewers. Plain text plus escaped HTML paragraphs. */

function paragraphs(lines: readonly string[]): string {
  return `<!doctype html><html lang="en"><body>${lines.map((l) => (l ? `<p>${esc(l)}</p>` : '')).join('')}</body></html>`;
}

export interface StatementEmailInput {
  periodLabel: string;
  timezone: string;
  customerName: string;
  contractName: string;
  revision: number;
  attainmentMin: string;
  creditPct: string;
  creditAmountMinor: number;
  currency: string;
  currencyExponent: number;
  sha256: string;
  signingKeyId: string;
  jwksUrl: string;
  verifyDocsUrl: string;
}

export function statementDeliveryEmail(i: StatementEmailInput): RenderedEmail {
  const lines = [
    `Your SLA statement for ${i.periodLabel} (${i.timezone}) under "${i.contractName}" is attached.`,
    '',
    `Attainment: ${i.attainmentMin} %`,
    `Service credit: ${i.creditPct} % of the monthly fee, ${formatMoney(i.creditAmountMinor, i.currency, i.currencyExponent)}`,
    '',
    'The PDF carries the signed statement (statement.json) and its signature (statement.jws), also attached here.',
    `SHA-256 of statement.json: ${i.sha256}`,
    `Signing key: ${i.signingKeyId}`,
    `Public keys: ${i.jwksUrl}`,
    `How to verify: ${i.verifyDocsUrl}`,
  ];
  return {
    subject: `SLA statement ${i.periodLabel} — ${i.customerName} (revision ${i.revision})`,
    text: lines.join('\n'),
    html: paragraphs(lines),
  };
}

export function reviewReminderEmail(i: {
  kind: 'reminder' | 'escalation';
  statementId: string;
  revision: number;
  periodLabel: string;
  customerName: string;
  submittedAt: Date | null;
  now: Date;
  reviewUrl: string;
}): RenderedEmail {
  const days = i.submittedAt ? Math.floor((i.now.getTime() - i.submittedAt.getTime()) / 86_400_000) : 0;
  const lines = [
    `The SLA statement ${i.statementId} (revision ${i.revision}, ${i.periodLabel}) for ${i.customerName} was submitted for review ${i.submittedAt?.toISOString() ?? ''} and is still waiting for approval.`,
    `Review it: ${i.reviewUrl}`,
  ];
  return {
    subject: `${i.kind === 'reminder' ? 'Reminder' : 'Escalation'}: SLA statement ${i.periodLabel} for ${i.customerName} awaits approval${days ? ` (${days} days)` : ''}`,
    text: lines.join('\n'),
    html: paragraphs(lines),
  };
}
