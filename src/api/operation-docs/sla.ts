import { prose } from './prose';

/** What the operations of src/api/routes/sla.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createContract: prose(
    "A customer's SLA: covered services, target, timezone, currency, monthly fee and credit terms. A ",
    "Temporal Schedule drafts each month's statement after the month ends in the contract's timezone ",
    'plus `grace_hours`. Accepts an `Idempotency-Key` header.',
  ),
  updateContract: prose(
    'Changes only the fields sent. Statements already drafted keep the terms they were computed ',
    'with; a correction recomputes with the current ones. Once a statement exists, `customer_id`, ',
    '`timezone` and `currency` are fixed (409 `in_use`).',
  ),
  deleteContract: prose(
    'Soft delete, idempotent. Refused with 409 `in_use` once a statement was issued under it ',
    '(`referenced_by.sla_statements`): end it with `effective_to` instead.',
  ),
  requestSlaStatement: prose(
    "Starts the period's statement workflow (`sla-statement:<contract>:<YYYY-MM>`) unless it runs or ",
    'ran already, without waiting for the monthly schedule: for backfills and first statements. ',
    'Answers 201 with the statement once drafted (within 10 s), else 202.',
  ),
  listSlaStatements: prose(
    "Newest first, every revision. `period` matches each statement's own period label (the month in ",
    'its own timezone).',
  ),
  listSlaStatementRevisions: prose('Newest first, in one page.'),
  listSlaStatementAudit: prose(
    'Every transition of every revision, oldest first, in one page: who, when, from, to and the ',
    'sha256 at that moment.',
  ),
  getSlaStatementDocument: prose(
    "Exactly the RFC 8785 canonical bytes the signature covers; their SHA-256 is the statement's ",
    '`sha256`. Save it byte for byte to verify it.',
  ),
  getSlaStatementSignature: prose(
    'The compact detached JWS (`<header>..<signature>`, RFC 7797 unencoded payload, EdDSA).',
  ),
  getSlaStatementHtml: prose(
    'Self-contained HTML: summary, per-service minutes, exclusions, incident ledger, the ',
    'calculation, approvals, revisions and how to verify. Served with its own ',
    '`Content-Security-Policy`: no script, no network, and only its own styles (by SHA-256 hash).',
  ),
  getSlaStatementPdf: prose(
    'The page printed by Chromium, with statement.json and statement.jws attached to the PDF. On a ',
    'server without a working Chromium (CHROMIUM_PATH) this answers 503 `renderer_unavailable`; ',
    'statement.html, statement.json and statement.jws still answer.',
  ),
  getSlaStatementEvidence: prose('RFC 4180 CSV: one row per service, exclusion and incident, then the totals.'),
  removeSlaStatementExclusion: prose(
    'Only in draft (409 `invalid_transition` otherwise: a statement in review is sent back first). ',
    'The exclusion is deleted, the statement is recomputed and signed again (new sha256), the audit ',
    'trail records the removal with the window and justification, and `sla_statement.recomputed` is ',
    'emitted. Answers the statement. 404 for an exclusion this statement does not have.\n',
    '\n',
    'Runs as a Temporal workflow update like the other actions; an `Idempotency-Key` header becomes ',
    'the update id.',
  ),
};
