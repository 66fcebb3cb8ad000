import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ProblemError } from '../../../domain/error-catalog';
import { type StatementAction, creditStateOf, isStatementState } from '../../../domain/sla/transitions';
import type { StatementState } from '../../../domain/sla/transitions';
import type { FormProblem } from '../../../render/console/forms';
import { temporalWorkflowUrl } from '../../../render/console/parts';
import {
  ACTION_PATHS,
  QUEUE_STATES,
  type SlaActionsView,
  type SlaQueueRow,
  type SlaQueueSection,
  slaAuditBody,
  slaQueueBody,
  slaRevisionsBody,
  slaStatementBody,
  slaStatementTitle,
} from '../../../render/console/pages/sla';
import { type ActionBody, runStatementAction } from '../../../usecases/sla/actions';
import { getContract } from '../../../usecases/sla/contracts';
import { removeStatementExclusion } from '../../../usecases/sla/exclusions';
import { documentOf, evidenceCsv, statementHtml, statementPdf } from '../../../usecases/sla/documents';
import { getStatement, listStatements, statementAudit, statementRevisions } from '../../../usecases/sla/reads';
import type { OrgContext } from '../../../usecases/shared/context';
import { ApproveBody, ExclusionBody, NoteBody, OptionalNoteBody, VoidBody } from '../../schemas/sla';
import { documentCsp } from '../../document-csp';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, zonedInstantOf } from '../forms';
import { formatInZone } from '../../../render/format-time';
import { slaStatementWorkflowId } from '../../../domain/workflow-ids';

const NAV = '/console/sla';
/** Rows per state in the queue's overview (each state links to its own paged list). */
const PER_SECTION = 10;

type Params = { id: string };
type Form = unknown;

/** The console user as the statement's audit trail records them: never an API key id. */
const actorOf = (v: ConsoleViewer) => `console:${v.session.user.id}`;

const statementPath = (id: string) => `/console/sla/${encodeURIComponent(id)}`;

/** A zod failure as the API would answer it (400 validation_failed, one error per field). */
function parsed<T>(schema: z.ZodType<T>, input: unknown, rename: Record<string, string> = {}): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => {
    const path = i.path.join('.');
    return { path: rename[path] ?? path, message: i.message };
  });
  throw new ProblemError(
    'validation_failed',
    `${errors[0]?.path || 'form'}: ${errors[0]?.message ?? 'Invalid value'}`,
    { errors },
  );
}

/** The statement page's "I have reviewed the evidence gaps" checkbox. */
const acknowledgedGaps = (form: Form): { acknowledge_gaps?: true } =>
  field(form, 'acknowledge_gaps') === 'true' ? { acknowledge_gaps: true } : {};

/** The action's body from the form, checked with the API's own schemas. */
/** The action's API body from the form; exclusion times are read in the viewer's `zone`, as their labels say. */
function bodyOf(action: StatementAction, form: Form, zone: string): ActionBody {
  switch (action) {
    case 'approve': {
      const revision = field(form, 'revision');
      return parsed(ApproveBody, {
        revision: /^\d{1,9}$/.test(revision) ? Number(revision) : revision,
        sha256: field(form, 'sha256'),
        ...acknowledgedGaps(form),
      });
    }
    case 'request_changes':
      return parsed(NoteBody, { note: field(form, 'note') });
    case 'correct': {
      const note = field(form, 'correction_note');
      return parsed(OptionalNoteBody, note.trim() ? { note } : {}, { note: 'correction_note' });
    }
    case 'void':
      return parsed(VoidBody, { reason: field(form, 'reason') });
    case 'add_exclusion': {
      const errors: { path: string; message: string }[] = [];
      const instant = (name: string) => {
        const iso = zonedInstantOf(field(form, name).trim(), zone);
        if (!iso) errors.push({ path: name, message: `Enter a date and time (${zone})` });
        return iso;
      };
      const starts = instant('starts_at');
      const ends = instant('ends_at');
      if (errors.length)
        throw new ProblemError('validation_failed', `${errors[0]!.path}: ${errors[0]!.message}`, { errors });
      return parsed(ExclusionBody, { starts_at: starts, ends_at: ends, justification: field(form, 'justification') });
    }
    case 'remove_exclusion':
      return { exclusion_id: field(form, 'exclusion_id') };
    case 'submit':
      return acknowledgedGaps(form);
    case 'deliver':
      return {};
  }
}

const ACTION_WORDS: Readonly<Record<string, string>> = {
  generate: 'drafted it',
  submit: 'submitted it for review',
  approve: 'approved it',
  request_changes: 'sent it back to draft',
  add_exclusion: 'added an exclusion (it was recomputed)',
  remove_exclusion: 'removed an exclusion (it was recomputed)',
  deliver: 'delivered it',
  correct: 'corrected it into a new revision',
  supersede: 'replaced it with a new revision',
  void: 'voided it',
};

/**
 * stale_revision in words for a person: what changed since the page was loaded, by whom and when,
 * instead of the revision numbers and hashes the API answers.
 */
async function staleInWords(ctx: OrgContext, id: string, zone: string): Promise<string> {
  const audit = await statementAudit(ctx, id);
  const last = audit[audit.length - 1];
  const s = await getStatement(ctx, id);
  const what = last
    ? `${last.actorName ?? 'someone'} ${ACTION_WORDS[last.action] ?? last.action.replace(/_/g, ' ')} at ${formatInZone(last.at.toISOString(), zone)}`
    : 'it was changed';
  const now =
    s.state === 'superseded'
      ? 'this revision is superseded by a newer one'
      : `it is now ${s.state.replace(/_/g, ' ')} (revision ${s.revision})`;
  return `This statement changed after you opened the page (for example in another tab): ${what}, and ${now}. Nothing was done. The page below shows the statement as it is now: review it and act again.`;
}

/** The form's idempotency key (a fresh one per rendered form): the workflow update id, so a double submit runs once. */
function keyOf(form: Form): string | undefined {
  const key = field(form, 'idempotency_key');
  if (!key) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key))
    throw new ProblemError('validation_failed', "The form's idempotency key is unreadable; reload the page.", {
      errors: [{ path: 'idempotency_key', message: 'Invalid key' }],
    });
  return key;
}

/**
 * The page the action came from showed this revision and sha256: when the statement has changed
 * since, the action is refused as stale (approve's workflow validator checks the same, atomically).
 */
async function assertSeen(ctx: OrgContext, id: string, form: Form): Promise<void> {
  const s = await getStatement(ctx, id);
  const revision = field(form, 'revision');
  const sha256 = field(form, 'sha256').toLowerCase();
  if ((revision && revision !== String(s.revision)) || (sha256 && sha256 !== s.sha256)) {
    throw new ProblemError(
      'stale_revision',
      `The statement is now revision ${s.revision} with sha256 ${s.sha256}; the page you acted from showed revision ${revision || '?'} with sha256 ${sha256 || '?'}. Review the current statement and try again.`,
    );
  }
}

const FLASH: Readonly<Record<StatementAction, (s: { revision: number }) => string>> = {
  submit: () => 'Submitted for review.',
  approve: (s) => `Approved revision ${s.revision}.`,
  request_changes: () => 'Sent back to draft with your note.',
  add_exclusion: () => 'Exclusion added; the statement was recomputed and signed again.',
  remove_exclusion: () => 'Exclusion removed; the statement was recomputed and signed again.',
  deliver: () => 'Delivered: the statement was emailed to the customer.',
  correct: (s) => `Corrected: revision ${s.revision} is the new draft.`,
  void: () => 'Voided.',
};

/** The values a refused form showed, to fill it again. */
function valuesOf(form: Form): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['note', 'correction_note', 'reason', 'starts_at', 'ends_at', 'justification'])
    out[name] = field(form, name);
  return out;
}

export const slaPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const workflowUrl = (contractId: string, period: string) =>
    temporalWorkflowUrl(deps.temporalUiUrl, slaStatementWorkflowId(contractId, period));

  async function contractNames(ctx: OrgContext, ids: string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const id of new Set(ids)) {
      const r = await attempt(() => getContract(ctx, id));
      names.set(id, r.ok ? r.value.name : id);
    }
    return names;
  }

  /** The queue: in review first, then draft, approved, delivered and the rest; `?state=` for one state, paged. */
  app.get('/sla', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const q = request.query as { state?: unknown };
    const state = typeof q.state === 'string' && q.state !== '' ? q.state : null;
    if (state !== null && !isStatementState(state)) {
      throw new ProblemError('validation_failed', `No such state: ${state.slice(0, 40)}.`, {
        errors: [{ path: 'query.state', message: `One of ${QUEUE_STATES.join(', ')}` }],
      });
    }
    const pages =
      state !== null
        ? [{ state, page: await listStatements(v.ctx, { ...listQuery(request.query, 25), state }) }]
        : await Promise.all(
            QUEUE_STATES.map(async (s) => ({
              state: s,
              page: await listStatements(v.ctx, { limit: PER_SECTION, state: s }),
            })),
          );
    const names = await contractNames(
      v.ctx,
      pages.flatMap((p) => p.page.items.map((s) => s.contract)),
    );
    const sections: SlaQueueSection[] = pages.map(({ state: s, page }) => ({
      state: s,
      nextCursor: page.nextCursor,
      rows: page.items.map((r): SlaQueueRow => ({
        id: r.id,
        customerName: r.customerName,
        contractName: names.get(r.contract) ?? r.contract,
        periodLabel: r.periodLabel,
        revision: r.revision,
        state: r.state,
        creditAmountMinor: r.creditAmountMinor,
        creditPct: r.creditPct,
        currency: r.currency,
        attainmentMin: r.attainmentMin,
        submittedAt: r.submittedAt?.toISOString() ?? null,
      })),
    }));
    return sendPage(reply, v, NAV, {
      title: 'SLA statements',
      flash: flashOf(request.query),
      body: slaQueueBody({ filter: state, sections, now: v.ctx.now }),
    });
  });

  /** One statement with the review actions its state and the viewer's role allow. */
  async function statementPage(
    request: FastifyRequest,
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    failed: SlaActionsView['failed'],
    status = 200,
  ): Promise<FastifyReply> {
    const row = await getStatement(v.ctx, id);
    const document = documentOf(row);
    const newest = row.state === 'superseded' ? ((await statementRevisions(v.ctx, id))[0] ?? null) : null;
    const view = {
      id: row.id,
      contractId: row.contract,
      customerName: row.customerName,
      periodLabel: row.periodLabel,
      periodStart: row.periodStart.toISOString(),
      periodEnd: row.periodEnd.toISOString(),
      timezone: row.timezone,
      revision: row.revision,
      state: row.state,
      creditState: creditStateOf(row.state as StatementState, row.creditAmountMinor),
      attainmentMin: row.attainmentMin,
      creditPct: row.creditPct,
      creditAmountMinor: row.creditAmountMinor,
      currency: row.currency,
      sha256: row.sha256,
      signingKeyId: row.signingKeyId,
      generatedAt: row.generatedAt.toISOString(),
      submittedAt: row.submittedAt?.toISOString() ?? null,
      submittedBy: row.submittedBy ?? null,
      approvedAt: row.approvedAt?.toISOString() ?? null,
      sentAt: row.sentAt?.toISOString() ?? null,
      sentTo: row.sentTo ?? null,
      voidedAt: row.voidedAt?.toISOString() ?? null,
      voidReason: row.voidReason ?? null,
      reviewNote: row.reviewNote ?? null,
      supersedesId: row.previous ?? null,
      document,
      current: newest && newest.id !== row.id ? { id: newest.id, revision: newest.revision } : null,
      workflowUrl: workflowUrl(row.contract, row.periodLabel),
    };
    const submitterName = row.submittedBy
      ? ((await statementAudit(v.ctx, id)).filter((e) => e.action === 'submit' && e.statement === row.id).at(-1)
          ?.actorName ?? null)
      : null;
    const actions: SlaActionsView = {
      csrf: v.csrf,
      canWrite: v.can('write:sla'),
      actor: actorOf(v),
      role: v.role,
      submitterName,
      newKey: () => randomUUID(),
      zone: v.timeZone,
      failed,
    };
    return sendPage(
      reply,
      v,
      NAV,
      {
        title: slaStatementTitle(view),
        flash: flashOf(request.query),
        body: slaStatementBody(view, actions, v.ctx.now),
      },
      status,
    );
  }

  app.get('/sla/:id', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    return statementPage(request, reply, v, (request.params as Params).id, null);
  });

  app.get('/sla/:id/revisions', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const id = (request.params as Params).id;
    const row = await getStatement(v.ctx, id);
    const revisions = await statementRevisions(v.ctx, id);
    const rows = revisions.map((r) => ({
      id: r.id,
      revision: r.revision,
      state: r.state,
      sha256: r.sha256,
      generatedAt: r.generatedAt.toISOString(),
    }));
    return sendPage(reply, v, NAV, {
      title: `Revisions: SLA statement ${row.periodLabel}, ${row.customerName}`,
      body: slaRevisionsBody(row.id, rows, v.timeZone),
    });
  });

  app.get('/sla/:id/audit', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const id = (request.params as Params).id;
    const row = await getStatement(v.ctx, id);
    const audit = await statementAudit(v.ctx, id);
    const rows = audit.map((a) => ({
      at: a.at.toISOString(),
      action: a.action,
      fromState: a.fromState ?? null,
      toState: a.toState,
      revision: a.revision,
      actor: a.actor,
      actorName: a.actorName ?? null,
      note: a.note ?? null,
      sha256: a.sha256,
    }));
    return sendPage(reply, v, NAV, {
      title: `Audit trail: SLA statement ${row.periodLabel}, ${row.customerName}`,
      body: slaAuditBody(row.id, rows, v.timeZone),
    });
  });

  // The statement's documents, as the API serves them (its routes need an API key).
  app.get('/sla/:id/statement.json', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const s = await getStatement(v.ctx, (request.params as Params).id);
    return reply
      .type('application/json')
      .header('cache-control', 'no-store')
      .header('content-disposition', 'attachment; filename="statement.json"')
      .send(Buffer.from(s.document));
  });
  app.get('/sla/:id/statement.jws', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const s = await getStatement(v.ctx, (request.params as Params).id);
    return reply
      .type('application/jose')
      .header('cache-control', 'no-store')
      .header('content-disposition', 'attachment; filename="statement.jws"')
      .send(s.signature);
  });
  app.get('/sla/:id/statement.html', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const s = await getStatement(v.ctx, (request.params as Params).id);
    const html = await statementHtml(v.ctx.em, s, deps.slaLinks);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', documentCsp(html))
      .send(html);
  });
  app.get('/sla/:id/statement.pdf', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const s = await getStatement(v.ctx, (request.params as Params).id);
    if (!deps.slaPrinter)
      throw new ProblemError(
        'renderer_unavailable',
        'This console was started without a PDF renderer (Chromium); the HTML statement and statement.json are available.',
      );
    const pdf = await statementPdf(v.ctx.em, deps.slaPrinter, s, deps.slaLinks);
    return reply
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="sla-statement-${s.periodLabel}-r${s.revision}.pdf"`)
      .send(pdf);
  });
  app.get('/sla/:id/evidence.csv', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const s = await getStatement(v.ctx, (request.params as Params).id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="sla-evidence-${s.periodLabel}-r${s.revision}.csv"`)
      .send(evidenceCsv(s));
  });

  // The review actions: each a workflow update through the API's use case, as the console user.
  for (const [action, path] of Object.entries(ACTION_PATHS) as [StatementAction, string][]) {
    app.post(`/sla/:id/${path}`, async (request, reply) => {
      const v = requireScope(request, 'write:sla');
      const id = (request.params as Params).id;
      const form = request.body;
      const result = await attempt(async () => {
        const body = bodyOf(action, form, v.timeZone);
        const key = keyOf(form);
        // Approve checks revision and sha256 in the workflow; an exclusion is added to or removed from whatever the draft is now.
        if (action !== 'approve' && action !== 'add_exclusion' && action !== 'remove_exclusion')
          await assertSeen(v.ctx, id, form);
        const name = v.session.user.email.slice(0, 200);
        if (action === 'remove_exclusion')
          return removeStatementExclusion(v.ctx, deps.slaWorkflows, id, body.exclusion_id ?? '', actorOf(v), key, name);
        return runStatementAction(v.ctx, deps.slaWorkflows, id, action, body, actorOf(v), key, name);
      });
      if (result.ok) return redirectWithFlash(reply, statementPath(result.value.id), FLASH[action](result.value));
      // Show the statement as it is now, with the refusal next to the form that was sent.
      v.ctx.em.clear();
      const problem: FormProblem =
        result.problem.title === 'stale_revision'
          ? { ...result.problem, detail: await staleInWords(v.ctx, id, v.timeZone) }
          : result.problem;
      return statementPage(request, reply, v, id, { action, problem, values: valuesOf(form) }, result.status);
    });
  }
};
