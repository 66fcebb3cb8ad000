import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProblemError } from '../../domain/error-catalog';
import type { ErrorToken } from '../../domain/error-catalog';
import type { StatementAction } from '../../domain/sla/transitions';
import { requestStatement, runStatementAction } from '../../usecases/sla/actions';
import {
  createContract,
  deleteContract,
  getContract,
  listContracts,
  updateContract,
} from '../../usecases/sla/contracts';
import type { PdfPrinter } from '../../usecases/sla/ports';
import { type DocumentLinks, evidenceCsv, statementHtml, statementPdf } from '../../usecases/sla/documents';
import type { SlaWorkflows } from '../../usecases/sla/ports';
import { getStatement, listStatements, statementAudit, statementRevisions } from '../../usecases/sla/reads';
import { removeStatementExclusion } from '../../usecases/sla/exclusions';
import { publishedKeys } from '../../usecases/sla/signing-keys';
import { documentCsp } from '../document-csp';
import { IdempotencyHeaders, idempotencyKeyHeader, idempotentCreate } from '../idempotency';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS, IdParams, pageSchema } from '../schemas/common';
import {
  ApproveBody,
  SubmitBody,
  ContractCreateBody,
  ContractListQuery,
  ContractPatchBody,
  ContractSchema,
  ExclusionBody,
  JwksSchema,
  NoteBody,
  OptionalNoteBody,
  SlaAuditEntrySchema,
  SlaStatementSchema,
  StatementListQuery,
  StatementPending,
  StatementRequestBody,
  VoidBody,
  presentAudit,
  presentContract,
  presentStatement,
} from '../schemas/sla';

export interface SlaRouteDeps {
  workflows: SlaWorkflows;
  /** Prints statement PDFs; without one (or without Chromium), statement.pdf answers 503 renderer_unavailable. */
  printer: PdfPrinter | null;
  links: DocumentLinks;
}

const contractsTag = 'Contracts';

/** On actions the key is the Temporal update id: unlike creates, a reuse never answers 409. */
const ActionIdempotencyHeaders = idempotencyKeyHeader(
  'Used (hashed) as the workflow update id: the same key for the same action on the same statement runs it once, whatever the body of a repeat.',
);
const tag = 'SLA statements';
const LEDGER_ERRORS: ErrorToken[] = ['feature_locked'];

const ACTIONS: {
  action: StatementAction;
  path: string;
  operationId: string;
  summary: string;
  body: z.ZodType | null;
  description: string;
  errors: ErrorToken[];
}[] = [
  {
    action: 'submit',
    path: 'submit',
    operationId: 'submitSlaStatement',
    summary: 'Submit a draft for review',
    body: SubmitBody.nullish(),
    description:
      'draft → in_review. The submitting API key may not approve it. A statement whose coverage is below the contract\'s `min_coverage_pct` needs `{"acknowledge_gaps": true}` (409 `insufficient_evidence` otherwise); the acknowledgement is recorded in the audit trail.',
    errors: ['invalid_transition', 'insufficient_evidence'],
  },
  {
    action: 'approve',
    path: 'approve',
    operationId: 'approveSlaStatement',
    summary: 'Approve a statement in review',
    body: ApproveBody,
    description:
      'in_review → approved. Send the `revision` and `sha256` you reviewed: if the statement changed since, 409 `stale_revision`. The approving API key must differ from the submitting one (409 `approver_is_submitter`). Coverage below the contract\'s `min_coverage_pct` needs `"acknowledge_gaps": true` (409 `insufficient_evidence` otherwise), recorded in the audit trail.',
    errors: ['invalid_transition', 'stale_revision', 'approver_is_submitter', 'insufficient_evidence'],
  },
  {
    action: 'request_changes',
    path: 'request-changes',
    operationId: 'requestSlaStatementChanges',
    summary: 'Send a statement in review back to draft',
    body: NoteBody,
    description: 'in_review → draft, with a note for whoever prepares it.',
    errors: ['invalid_transition'],
  },
  {
    action: 'add_exclusion',
    path: 'exclusions',
    operationId: 'addSlaStatementExclusion',
    summary: 'Exclude a window from a draft, with a justification',
    body: ExclusionBody,
    description:
      'Only in draft. The statement is recomputed and signed again (new sha256); the exclusion and its justification appear in the statement and the audit trail.',
    errors: ['invalid_transition'],
  },
  {
    action: 'deliver',
    path: 'deliver',
    operationId: 'deliverSlaStatement',
    summary: 'Email an approved statement to the customer',
    body: null,
    description:
      "approved → delivered: the PDF (statement.json and statement.jws attached) goes to the contract's billing_email, else the customer's contact_email; `sent_at` is set.",
    errors: ['invalid_transition', 'no_billing_contact', 'delivery_refused'],
  },
  {
    action: 'correct',
    path: 'correct',
    operationId: 'correctSlaStatement',
    summary: 'Correct an approved or delivered statement',
    body: OptionalNoteBody,
    description:
      'Computes a new draft revision from the evidence as it is now (late samples, new exclusions); the previous revision becomes superseded. Answers the new revision. Accepted until the correction window after delivery has passed (409 `statement_closed` after).',
    errors: ['invalid_transition'],
  },
  {
    action: 'void',
    path: 'void',
    operationId: 'voidSlaStatement',
    summary: 'Void a statement',
    body: VoidBody,
    description: "From draft, in_review or approved, with a reason. Final: the period's workflow ends.",
    errors: ['invalid_transition'],
  },
];

export const slaRoutes: FastifyPluginAsyncZod<SlaRouteDeps> = async (app, deps) => {
  // Contracts
  {
    const { errorResponses, ...doc } = routeDoc('listContracts', {
      summary: 'List contracts',
      tag: contractsTag,
      errors: [...LEDGER_ERRORS, 'validation_failed'],
    });
    app.get(
      '/contracts',
      {
        schema: {
          ...doc,
          querystring: ContractListQuery,
          response: { 200: pageSchema(ContractSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listContracts(request.orgContext(), request.query);
        return { items: page.items.map(presentContract), next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getContract', {
      summary: 'Read a contract',
      tag: contractsTag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/contracts/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ContractSchema, ...errorResponses } } },
      async (request) => presentContract(await getContract(request.orgContext(), request.params.id)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('createContract', {
      summary: 'Create a contract',
      tag: contractsTag,
      errors: [...BODY_ERRORS, ...LEDGER_ERRORS, 'unknown_customers', 'unknown_services', 'idempotency_key_reused'],
      checks: [
        '`effective_to` is on or after `effective_from`',
        '`customer_id` names a live customer (400 `unknown_customers`) and every `service_ids` entry a live service (400 `unknown_services`)',
      ],
    });
    app.post(
      '/contracts',
      {
        schema: {
          ...doc,
          headers: IdempotencyHeaders,
          body: ContractCreateBody,
          response: { 201: ContractSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        idempotentCreate(request, reply, 'createContract', async (em) =>
          presentContract(await createContract({ ...request.orgContext(), em }, request.body, deps.workflows)),
        ),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('updateContract', {
      summary: 'Update a contract',
      tag: contractsTag,
      errors: [...BODY_ERRORS, ...LEDGER_ERRORS, 'not_found', 'unknown_customers', 'unknown_services', 'in_use'],
      checks: ['`effective_to` is on or after `effective_from`'],
    });
    app.patch(
      '/contracts/:id',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: ContractPatchBody,
          response: { 200: ContractSchema, ...errorResponses },
        },
      },
      async (request) =>
        presentContract(await updateContract(request.orgContext(), request.params.id, request.body, deps.workflows)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('deleteContract', {
      summary: 'Delete a contract',
      tag: contractsTag,
      errors: [...LEDGER_ERRORS, 'not_found', 'in_use'],
    });
    app.delete(
      '/contracts/:id',
      { schema: { ...doc, params: IdParams, response: { 200: ContractSchema, ...errorResponses } } },
      async (request) => presentContract(await deleteContract(request.orgContext(), request.params.id, deps.workflows)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('requestSlaStatement', {
      summary: "Draft a contract's statement for a past period now",
      tag: contractsTag,
      errors: [...BODY_ERRORS, ...LEDGER_ERRORS, 'not_found'],
      checks: ["the period has ended in the contract's timezone", 'the contract is in effect during the period'],
    });
    app.post(
      '/contracts/:id/statements',
      {
        schema: {
          ...doc,
          params: IdParams,
          body: StatementRequestBody,
          response: { 201: SlaStatementSchema, 202: StatementPending, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { statement, workflowId } = await requestStatement(
          request.orgContext(),
          deps.workflows,
          request.params.id,
          request.body.period,
        );
        if (statement) return reply.code(201).send(presentStatement(statement));
        return reply
          .code(202)
          .send({ workflow_id: workflowId, period: request.body.period, status: 'drafting' as const });
      },
    );
  }

  // Statements
  {
    const { errorResponses, ...doc } = routeDoc('listSlaStatements', {
      summary: 'List SLA statements',
      tag,
      errors: [...LEDGER_ERRORS, 'validation_failed'],
    });
    app.get(
      '/sla/statements',
      {
        schema: {
          ...doc,
          querystring: StatementListQuery,
          response: { 200: pageSchema(SlaStatementSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listStatements(request.orgContext(), request.query);
        return { items: page.items.map(presentStatement), next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlaStatement', {
      summary: 'Read an SLA statement',
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id',
      { schema: { ...doc, params: IdParams, response: { 200: SlaStatementSchema, ...errorResponses } } },
      async (request) => presentStatement(await getStatement(request.orgContext(), request.params.id)),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listSlaStatementRevisions', {
      summary: "Every revision of the statement's contract and period",
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id/revisions',
      { schema: { ...doc, params: IdParams, response: { 200: pageSchema(SlaStatementSchema), ...errorResponses } } },
      async (request) => ({
        items: (await statementRevisions(request.orgContext(), request.params.id)).map(presentStatement),
        next_cursor: null,
      }),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('listSlaStatementAudit', {
      summary: "The audit trail of the statement's period",
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id/audit',
      { schema: { ...doc, params: IdParams, response: { 200: pageSchema(SlaAuditEntrySchema), ...errorResponses } } },
      async (request) => ({
        items: (await statementAudit(request.orgContext(), request.params.id)).map(presentAudit),
        next_cursor: null,
      }),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlaStatementDocument', {
      summary: 'statement.json: the signed bytes',
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id/statement.json',
      {
        schema: {
          ...doc,
          params: IdParams,
          response: {
            200: z.looseObject({ schema: z.string() }).describe('The statement document'),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const s = await getStatement(request.orgContext(), request.params.id);
        return reply
          .type('application/json')
          .header('content-disposition', `attachment; filename="statement.json"`)
          .send(Buffer.from(s.document) as never);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlaStatementSignature', {
      summary: 'statement.jws: the detached signature',
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id/statement.jws',
      { schema: { ...doc, params: IdParams, response: { 200: z.string(), ...errorResponses } } },
      async (request, reply) => {
        const s = await getStatement(request.orgContext(), request.params.id);
        return reply
          .type('application/jose')
          .header('content-disposition', `attachment; filename="statement.jws"`)
          .send(s.signature);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlaStatementHtml', {
      summary: 'The statement as a page',
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id/statement.html',
      { schema: { ...doc, params: IdParams, response: { 200: z.string(), ...errorResponses } } },
      async (request, reply) => {
        const ctx = request.orgContext();
        const s = await getStatement(ctx, request.params.id);
        const html = await statementHtml(ctx.em, s, deps.links);
        return reply.type('text/html; charset=utf-8').header('content-security-policy', documentCsp(html)).send(html);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlaStatementPdf', {
      summary: 'The statement as a PDF',
      tag,
      errors: [...LEDGER_ERRORS, 'not_found', 'renderer_unavailable'],
    });
    app.get(
      '/sla/statements/:id/statement.pdf',
      { schema: { ...doc, params: IdParams, response: { 200: z.string(), ...errorResponses } } },
      async (request, reply) => {
        const ctx = request.orgContext();
        const s = await getStatement(ctx, request.params.id);
        if (!deps.printer)
          throw new ProblemError(
            'renderer_unavailable',
            'This API was started without a PDF renderer (Chromium); statement.html, statement.json and statement.jws are available.',
            { retry_after: 60 },
            { 'retry-after': '60' },
          );
        const pdf = await statementPdf(ctx.em, deps.printer, s, deps.links);
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="sla-statement-${s.periodLabel}-r${s.revision}.pdf"`)
          .send(pdf as never);
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getSlaStatementEvidence', {
      summary: 'The downtime evidence as CSV',
      tag,
      errors: [...LEDGER_ERRORS, 'not_found'],
    });
    app.get(
      '/sla/statements/:id/evidence.csv',
      { schema: { ...doc, params: IdParams, response: { 200: z.string(), ...errorResponses } } },
      async (request, reply) => {
        const s = await getStatement(request.orgContext(), request.params.id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="sla-evidence-${s.periodLabel}-r${s.revision}.csv"`)
          .send(evidenceCsv(s));
      },
    );
  }
  for (const a of ACTIONS) {
    const { errorResponses, ...doc } = routeDoc(a.operationId, {
      summary: a.summary,
      tag,
      description: `${a.description}\n\nRuns as a Temporal workflow update on \`sla-statement:<contract>:<YYYY-MM>\`; an \`Idempotency-Key\` header becomes the update id, so a retry runs it once and answers the statement as it is then. Acting on a revision that is no longer current (a superseded one) answers 409 \`stale_revision\`; a statement whose period is closed, 409 \`statement_closed\`.`,
      errors: [
        ...new Set<ErrorToken>([
          ...(a.body ? BODY_ERRORS : []),
          ...LEDGER_ERRORS,
          'not_found',
          'statement_closed',
          'statement_busy',
          'stale_revision',
          ...a.errors,
        ]),
      ],
    });
    const schema = {
      ...doc,
      params: IdParams,
      headers: ActionIdempotencyHeaders,
      ...(a.body ? { body: a.body } : {}),
      response: { 200: SlaStatementSchema, ...errorResponses },
    };
    app.post(`/sla/statements/:id/${a.path}`, { schema }, async (request) => {
      const key = request.headers['idempotency-key'];
      const s = await runStatementAction(
        request.orgContext(),
        deps.workflows,
        request.params.id,
        a.action,
        request.body ?? {},
        request.principal!.keyId,
        typeof key === 'string' ? key : undefined,
      );
      return presentStatement(s);
    });
  }
  {
    const { errorResponses, ...doc } = routeDoc('removeSlaStatementExclusion', {
      summary: 'Remove an exclusion from a draft',
      tag,
      errors: [
        ...LEDGER_ERRORS,
        'not_found',
        'invalid_transition',
        'stale_revision',
        'statement_closed',
        'statement_busy',
      ],
    });
    const ExclusionParams = z.object({
      id: z.string().describe('Statement id (UUID)'),
      exclusion_id: z
        .string()
        .describe("The exclusion's id (`exclusions[].id` of the statement document, kind `manual`)"),
    });
    app.delete(
      '/sla/statements/:id/exclusions/:exclusion_id',
      {
        schema: {
          ...doc,
          params: ExclusionParams,
          headers: ActionIdempotencyHeaders,
          response: { 200: SlaStatementSchema, ...errorResponses },
        },
      },
      async (request) => {
        const key = request.headers['idempotency-key'];
        const s = await removeStatementExclusion(
          request.orgContext(),
          deps.workflows,
          request.params.id,
          request.params.exclusion_id,
          request.principal!.keyId,
          typeof key === 'string' ? key : undefined,
        );
        return presentStatement(s);
      },
    );
  }
};

/** The public keys of every statement signature, retired keys too (outside /v1 at /.well-known/jwks.json, and at /v1/sla/jwks.json). */
export const jwksRoutes: FastifyPluginAsyncZod<{ path: string; operationId: string }> = async (app, opts) => {
  const { errorResponses: _e, ...doc } = routeDoc(opts.operationId, {
    summary: 'Public keys of SLA statement signatures (JWKS)',
    tag,
    description:
      'Ed25519 keys (RFC 8037) with kid = RFC 7638 thumbprint; retired keys stay so older statements remain verifiable.',
  });
  app.get(opts.path, { schema: { ...doc, response: { 200: JwksSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return publishedKeys(request.em);
  });
};
