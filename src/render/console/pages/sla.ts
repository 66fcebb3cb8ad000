/**
 * The finance pages of the console: the SLA statement queue, one statement with its review
 * actions, its revisions and its audit trail. The route module (src/api/console/pages/sla.ts)
 * reads through the use cases and hands plain view data to these functions.
 */
import { currencyExponent } from '../../../domain/sla/currency';
import type { StatementDocument } from '../../../domain/sla/statement';
import { type StatementAction, type StatementState, allowedFrom } from '../../../domain/sla/transitions';
import { esc, timeTag } from '../../html';
import { formatCount, formatMoney } from '../../sla/money';
import { type FormProblem, actionButton, csrfField, problemBox, selectField, textareaField } from '../forms';
import { zonedDateInput } from '../zoned-input';
import { instantToLocalInput } from '../../../domain/local-time-input';
import { facts, link, pager, stateBadge, table } from '../parts';

/** A statement in review longer than this gets the "waiting" badge (the workflow's reminder threshold). */
export const REVIEW_REMINDER_MS = 3 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

/** The queue's order: what needs a reviewer first. */
export const QUEUE_STATES: readonly StatementState[] = [
  'in_review',
  'draft',
  'approved',
  'delivered',
  'superseded',
  'void',
];

const STATE_LABELS: Readonly<Record<string, string>> = {
  in_review: 'In review',
  draft: 'Draft',
  approved: 'Approved',
  delivered: 'Delivered',
  superseded: 'Superseded',
  void: 'Void',
};
const stateLabel = (s: string) => STATE_LABELS[s] ?? s.replace(/_/g, ' ');

function stateTone(state: string): 'healthy' | 'degraded' | 'unhealthy' | 'neutral' {
  if (state === 'approved' || state === 'delivered') return 'healthy';
  if (state === 'in_review') return 'degraded';
  if (state === 'void') return 'unhealthy';
  return 'neutral';
}

export function statementStateBadge(state: string): string {
  return stateBadge(stateLabel(state).toLowerCase(), stateTone(state));
}

/** "waiting 4 days" for a statement in review past the reminder threshold; '' otherwise. */
export function waitingBadge(state: string, submittedAt: string | null, now: Date): string {
  if (state !== 'in_review' || !submittedAt) return '';
  const waited = now.getTime() - Date.parse(submittedAt);
  if (!(waited > REVIEW_REMINDER_MS)) return '';
  const days = Math.floor(waited / DAY_MS);
  return stateBadge(`waiting ${days} day${days === 1 ? '' : 's'}`, 'late');
}

/** `minor` units of `currency` ("EUR 100.00"); the bare number when the currency is unknown. */
export function moneyOf(minor: number, currency: string, exponent?: number): string {
  try {
    return formatMoney(minor, currency, exponent ?? currencyExponent(currency));
  } catch {
    return `${currency} ${minor} (minor units)`;
  }
}

/** An instant in the viewer's zone, named; `none` when there is none. */
const at = (iso: string | null | undefined, zone: string, none = '—') => (iso ? timeTag(iso, zone) : esc(none));
const code = (s: string) => `<code>${esc(s)}</code>`;
const statementHref = (id: string) => `/console/sla/${encodeURIComponent(id)}`;

// ---------------------------------------------------------------------------------------------
// The queue

export interface SlaQueueRow {
  id: string;
  customerName: string;
  contractName: string;
  periodLabel: string;
  revision: number;
  state: string;
  creditAmountMinor: number;
  creditPct: string;
  currency: string;
  attainmentMin: string;
  submittedAt: string | null;
}

export interface SlaQueueSection {
  state: string;
  rows: SlaQueueRow[];
  nextCursor: string | null;
}

function queueTable(rows: SlaQueueRow[], now: Date, empty: string, caption?: string): string {
  return table(
    ['Customer', 'Contract', 'Period', 'Revision', 'State', 'Credit', 'Attainment'],
    rows.map((r) => [
      link(statementHref(r.id), r.customerName),
      esc(r.contractName),
      esc(r.periodLabel),
      esc(String(r.revision)),
      `${statementStateBadge(r.state)}${waitingBadge(r.state, r.submittedAt, now) ? ` ${waitingBadge(r.state, r.submittedAt, now)}` : ''}`,
      `${esc(moneyOf(r.creditAmountMinor, r.currency))} <span class="muted">(${esc(r.creditPct)} %)</span>`,
      `${esc(r.attainmentMin)} %`,
    ]),
    empty,
    caption,
  );
}

function stateFilter(current: string | null): string {
  const options = [
    { value: '', label: 'Every state (in review first)' },
    ...QUEUE_STATES.map((s) => ({ value: s, label: stateLabel(s) })),
  ];
  return `<form class="stack" method="get" action="/console/sla" role="search" aria-label="Filter statements">
${selectField({ name: 'state', label: 'State', options, value: current ?? '' })}
<div class="actions"><button type="submit" class="secondary">Show</button></div>
</form>`;
}

/**
 * The queue: with a state filter, one paged list; without, one section per state (in review,
 * draft, approved, delivered, then the rest), each newest first with a link to its next page.
 */
export function slaQueueBody(o: { filter: string | null; sections: SlaQueueSection[]; now: Date }): string {
  const intro =
    '<p class="muted">Statements waiting for a reviewer come first. A statement in review for more than 3 days is marked as waiting (the reviewers have been reminded by email).</p>';
  if (o.filter !== null) {
    const s = o.sections[0] ?? { state: o.filter, rows: [], nextCursor: null };
    return `${intro}
${stateFilter(o.filter)}
<h2>${esc(stateLabel(s.state))}</h2>
${queueTable(s.rows, o.now, `No statements are ${stateLabel(s.state).toLowerCase()}.`)}
${pager('/console/sla', s.nextCursor, { state: s.state })}
<p><a href="/console/sla">Every state</a></p>`;
  }
  const sections = o.sections.map((s) => {
    const more = s.nextCursor
      ? `<p><a href="${esc(`/console/sla?${new URLSearchParams({ state: s.state, cursor: s.nextCursor }).toString()}`)}">More ${esc(stateLabel(s.state).toLowerCase())} statements →</a></p>`
      : '';
    return `<section aria-labelledby="q-${esc(s.state)}">
<h2 id="q-${esc(s.state)}">${esc(stateLabel(s.state))}</h2>
${queueTable(s.rows, o.now, `No statements are ${stateLabel(s.state).toLowerCase()}.`)}
${more}
</section>`;
  });
  return `${intro}
${stateFilter(null)}
${sections.join('\n')}`;
}

// ---------------------------------------------------------------------------------------------
// One statement

export interface SlaStatementPageView {
  id: string;
  contractId: string;
  customerName: string;
  periodLabel: string;
  periodStart: string;
  periodEnd: string;
  timezone: string;
  revision: number;
  state: string;
  creditState: string;
  attainmentMin: string;
  creditPct: string;
  creditAmountMinor: number;
  currency: string;
  sha256: string;
  signingKeyId: string;
  generatedAt: string;
  submittedAt: string | null;
  /** Who submitted it: an API key id or `console:<user id>`. */
  submittedBy: string | null;
  approvedAt: string | null;
  sentAt: string | null;
  sentTo: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  reviewNote: string | null;
  supersedesId: string | null;
  /** The signed document (statement.json). */
  document: StatementDocument;
  /** When this revision is superseded: the current one. */
  current: { id: string; revision: number } | null;
  /** The workflow in the Temporal UI, when it is known. */
  workflowUrl: string | null;
}

/** What the viewer may do, and the answer of a refused action to show again. */
export interface SlaActionsView {
  csrf: string;
  canWrite: boolean;
  /** `console:<user id>` of the viewer (whoever submitted may not approve). */
  actor: string;
  /** The viewer's console role, to say why they may not act. */
  role?: string;
  /** Who submitted the statement, as the audit trail names them (an email or an API key's name). */
  submitterName?: string | null;
  /** A fresh idempotency key per form (hidden field), so a double submit runs once. */
  newKey: () => string;
  /** The viewer's zone: times are shown and exclusions typed in it. */
  zone: string;
  /** The action whose form was refused, its problem and the values sent. */
  failed?: { action: StatementAction; problem: FormProblem; values: Record<string, string> } | null;
}

/** Each action: its form's path under the statement, label, fields. */
export const ACTION_PATHS: Readonly<Record<StatementAction, string>> = {
  submit: 'submit',
  approve: 'approve',
  request_changes: 'request-changes',
  add_exclusion: 'exclusions',
  remove_exclusion: 'remove-exclusion',
  deliver: 'deliver',
  correct: 'correct',
  void: 'void',
};

/** The form fields of each action (for the problem box: errors these show are not repeated). */
export const ACTION_FIELDS: Readonly<Record<StatementAction, readonly string[]>> = {
  submit: [],
  approve: ['revision', 'sha256'],
  request_changes: ['note'],
  add_exclusion: ['starts_at', 'ends_at', 'justification'],
  remove_exclusion: ['exclusion_id'],
  deliver: [],
  correct: ['correction_note'],
  void: ['reason'],
};

function actionForms(s: SlaStatementPageView, a: SlaActionsView): string {
  if (!a.canWrite) {
    return `<p class="muted">Your role${a.role ? ` (${esc(a.role)})` : ''} can read statements but not act on them: finance users and owners prepare, approve and deliver them (write:sla).</p>`;
  }
  const valid = (action: StatementAction) =>
    s.current === null && allowedFrom(action).includes(s.state as StatementState);
  // Removing an exclusion is a button on its row of the exclusions table.
  const actions = (Object.keys(ACTION_PATHS) as StatementAction[]).filter((x) => x !== 'remove_exclusion' && valid(x));
  if (!actions.length)
    return `<p class="muted">No action is possible on a statement that is ${esc(stateLabel(s.state).toLowerCase())}.</p>`;
  const failed = a.failed ?? null;
  const problemFor = (action: StatementAction) => (failed?.action === action ? failed.problem : null);
  const valueOf = (action: StatementAction, name: string) =>
    failed?.action === action ? (failed.values[name] ?? '') : '';
  const action = (x: StatementAction) => `${statementHref(s.id)}/${ACTION_PATHS[x]}`;
  const seen = (): Record<string, string> => ({
    revision: String(s.revision),
    sha256: s.sha256,
    idempotency_key: a.newKey(),
  });
  const hidden = (h: Record<string, string>) =>
    Object.entries(h)
      .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
      .join('');
  const form = (
    x: StatementAction,
    heading: string,
    inner: string,
    button: string,
    kind: 'primary' | 'secondary' | 'danger' = 'primary',
  ) =>
    `<section aria-labelledby="act-${x}">
<h3 id="act-${x}">${esc(heading)}</h3>
<form class="stack" method="post" action="${esc(action(x))}">${csrfField(a.csrf)}${hidden(seen())}
${inner}
<div class="actions"><button type="submit"${kind === 'primary' ? '' : ` class="${kind}"`}>${esc(button)}</button></div>
</form>
</section>`;

  const parts: string[] = [];
  const buttons: string[] = [];
  // Below the contract's min_coverage_pct, submit and approve need the gaps acknowledged.
  const gaps = s.document.coverage && !s.document.coverage.sufficient;
  const acknowledge = gaps
    ? `<label><input type="checkbox" name="acknowledge_gaps" value="true"> I have reviewed the evidence gaps (coverage ${esc(s.document.coverage!.coverage_pct)} % is below ${esc(s.document.coverage!.min_coverage_pct)} %); this is recorded in the audit trail</label>`
    : '';
  if (actions.includes('submit') && gaps)
    parts.push(form('submit', 'Submit for review', acknowledge, 'Submit for review'));
  else if (actions.includes('submit'))
    buttons.push(actionButton({ action: action('submit'), label: 'Submit for review', csrf: a.csrf, hidden: seen() }));
  if (actions.includes('deliver'))
    buttons.push(
      actionButton({ action: action('deliver'), label: 'Deliver to the customer', csrf: a.csrf, hidden: seen() }),
    );
  if (buttons.length) parts.push(`<div class="actions">${buttons.join(' ')}</div>`);
  if (actions.includes('approve')) {
    // Four eyes: whoever submitted is not offered the approval, and is told who can give it.
    const own = s.submittedBy !== null && s.submittedBy === a.actor;
    const by = a.submitterName ? ` by ${esc(a.submitterName)}` : '';
    if (own) {
      parts.push(
        `<section aria-labelledby="act-approve"><h3 id="act-approve">Approval</h3><p class="muted">You submitted this statement: someone else must approve it (separation of duties). Any other finance user or an owner of the organization can approve it; you can still send it back to draft or void it.</p></section>`,
      );
    } else {
      parts.push(
        form(
          'approve',
          'Approve',
          `<p>Submitted${by}. You approve exactly what this page shows: revision ${s.revision}, SHA-256 ${code(s.sha256)}. If the statement changes before you approve (an exclusion, a correction), the approval is refused and this page shows it as it is then.</p>${acknowledge}`,
          `Approve revision ${s.revision}`,
        ),
      );
    }
  }
  if (actions.includes('request_changes')) {
    parts.push(
      form(
        'request_changes',
        'Request changes',
        textareaField({
          name: 'note',
          label: 'What should change',
          required: true,
          value: valueOf('request_changes', 'note'),
          problem: problemFor('request_changes'),
          hint: 'Sends the statement back to draft with this note.',
        }),
        'Send back to draft',
        'secondary',
      ),
    );
  }
  if (actions.includes('add_exclusion')) {
    const wall = (iso: string) => instantToLocalInput(iso, a.zone).replace('T', ' ');
    const hint = `Whole minutes inside the period, ${wall(s.periodStart)} to ${wall(s.periodEnd)} ${a.zone}. The statement is recomputed and signed again.`;
    parts.push(
      form(
        'add_exclusion',
        'Add an exclusion',
        [
          `<p class="muted">${esc(hint)}</p>`,
          zonedDateInput({
            name: 'starts_at',
            label: 'From',
            timeZone: a.zone,
            required: true,
            raw: valueOf('add_exclusion', 'starts_at'),
            problem: problemFor('add_exclusion'),
          }),
          zonedDateInput({
            name: 'ends_at',
            label: 'To',
            timeZone: a.zone,
            required: true,
            raw: valueOf('add_exclusion', 'ends_at'),
            problem: problemFor('add_exclusion'),
          }),
          textareaField({
            name: 'justification',
            label: 'Justification',
            required: true,
            value: valueOf('add_exclusion', 'justification'),
            problem: problemFor('add_exclusion'),
            hint: 'Kept in the statement and its audit trail (at least 3 characters).',
          }),
        ].join('\n'),
        'Add the exclusion',
        'secondary',
      ),
    );
  }
  if (actions.includes('correct')) {
    parts.push(
      form(
        'correct',
        'Correct',
        textareaField({
          name: 'correction_note',
          label: 'Why (optional)',
          value: valueOf('correct', 'correction_note'),
          problem: problemFor('correct'),
          hint: 'Computes a new draft revision from the evidence as it is now; this revision becomes superseded.',
        }),
        'Correct into a new revision',
        'secondary',
      ),
    );
  }
  if (actions.includes('void')) {
    parts.push(
      form(
        'void',
        'Void',
        textareaField({
          name: 'reason',
          label: 'Reason',
          required: true,
          value: valueOf('void', 'reason'),
          problem: problemFor('void'),
          hint: 'Final: the statement is withdrawn and its period closed.',
        }),
        'Void the statement',
        'danger',
      ),
    );
  }
  return parts.join('\n');
}

function servicesTable(d: StatementDocument): string {
  const n = (x: number) => esc(formatCount(x));
  const rows = d.services.map((s) => [
    `${esc(s.name)}${s.kind === 'slo' ? ' <span class="muted">(SLO)</span>' : ''}`,
    n(s.metrics),
    n(s.total_minutes),
    n(s.excluded_minutes),
    n(s.eligible_minutes),
    n(s.down_minutes),
  ]);
  rows.push([
    '<strong>Contract</strong> <span class="muted">(down when any service is down)</span>',
    '',
    n(d.totals.total_minutes),
    n(d.totals.excluded_minutes),
    n(d.totals.eligible_minutes),
    n(d.totals.down_minutes),
  ]);
  return table(
    ['Service', 'Metrics', 'Total minutes', 'Excluded', 'Eligible', 'Down'],
    rows,
    'No covered services.',
    'Minutes per covered service',
  );
}

function exclusionsTable(s: SlaStatementPageView, a: SlaActionsView): string {
  const d = s.document;
  // A draft's manual exclusions can be removed (the draft is recomputed); maintenance windows cannot.
  const removable =
    a.canWrite && s.current === null && allowedFrom('remove_exclusion').includes(s.state as StatementState);
  const remove = (id: string) =>
    actionButton({
      action: `${statementHref(s.id)}/${ACTION_PATHS.remove_exclusion}`,
      label: 'Remove',
      csrf: a.csrf,
      hidden: { exclusion_id: id, revision: String(s.revision), sha256: s.sha256, idempotency_key: a.newKey() },
      kind: 'danger',
    });
  const head = ['Exclusion', 'Kind', 'Window', 'Excluded', 'Why', ...(removable ? ['Action'] : [])];
  return table(
    head,
    d.exclusions.map((e) => [
      esc(e.title),
      e.kind === 'maintenance' ? 'Maintenance' : 'Manual',
      `${at(e.start, a.zone)} – ${at(e.end, a.zone)}`,
      e.excluded ? 'Yes' : 'No',
      `<span class="text">${esc(e.why)}</span>`,
      ...(removable ? [e.kind === 'manual' ? remove(e.id) : ''] : []),
    ]),
    'No maintenance windows or manual exclusions in this period.',
  );
}

function incidentsTable(d: StatementDocument, zone: string): string {
  return table(
    ['Incident', 'Severity', 'Start', 'End', 'Down minutes', 'Counted', 'Why'],
    d.incidents.map((x) => [
      esc(x.title),
      esc(x.severity ?? '—'),
      at(x.start, zone),
      at(x.end, zone, 'ongoing'),
      esc(formatCount(x.down_minutes)),
      x.counted ? 'Counted' : 'Not counted',
      esc(x.why),
    ]),
    'No incidents on the covered services in this period.',
  );
}

function documentLinks(s: SlaStatementPageView): string {
  const base = statementHref(s.id);
  const items = [
    [
      `${base}/statement.pdf`,
      'PDF',
      'the statement as the customer receives it, with statement.json and statement.jws attached',
    ],
    [`${base}/statement.html`, 'HTML', 'the same statement as a page'],
    [`${base}/statement.json`, 'statement.json', 'the signed bytes'],
    [`${base}/statement.jws`, 'statement.jws', 'the detached signature'],
    [`${base}/evidence.csv`, 'Evidence (CSV)', 'minutes per service, exclusions and incidents'],
  ];
  return `<ul>${items.map(([href, text, what]) => `<li>${link(href!, text!)} <span class="muted">— ${esc(what!)}</span></li>`).join('')}</ul>`;
}

export function slaStatementTitle(s: Pick<SlaStatementPageView, 'periodLabel' | 'customerName' | 'revision'>): string {
  return `SLA statement ${s.periodLabel}: ${s.customerName} (revision ${s.revision})`;
}

export function slaStatementBody(s: SlaStatementPageView, a: SlaActionsView, now: Date): string {
  const d = s.document;
  const customer = d.customer.external_id
    ? `${esc(d.customer.name)} <span class="muted">(ref. ${esc(d.customer.external_id)})</span>`
    : esc(d.customer.name);
  const waiting = waitingBadge(s.state, s.submittedAt, now);
  const rows: [string, string][] = [
    [
      'Period',
      `${esc(s.periodLabel)} <span class="muted">(${esc(s.timezone)})</span>: ${at(s.periodStart, a.zone)} – ${at(s.periodEnd, a.zone)}`,
    ],
    ['Customer', customer],
    ['Contract', esc(d.contract.name)],
    [
      'Revision',
      `${esc(String(s.revision))}${s.supersedesId ? ` <span class="muted">(replaces ${link(statementHref(s.supersedesId), 'the previous revision')})</span>` : ''}`,
    ],
    [
      'State',
      `${statementStateBadge(s.state)}${waiting ? ` ${waiting}` : ''} <span class="muted">credit ${esc(s.creditState.replace(/_/g, ' '))}</span>`,
    ],
    [
      'Attainment',
      `${esc(s.attainmentMin)} % <span class="muted">(target ${esc(d.contract.sla_target_pct)} %: ${d.target_met ? 'met' : 'missed'})</span>`,
    ],
    [
      'Credit',
      `${esc(moneyOf(s.creditAmountMinor, s.currency, d.contract.currency_exponent))} <span class="muted">(${esc(s.creditPct)} % of ${esc(moneyOf(d.contract.monthly_fee_minor, d.contract.currency, d.contract.currency_exponent))})</span>`,
    ],
    ['SHA-256', code(s.sha256)],
    ['Signing key', code(s.signingKeyId)],
    ['Generated', at(s.generatedAt, a.zone)],
  ];
  if (s.submittedAt) rows.push(['Submitted', at(s.submittedAt, a.zone)]);
  if (s.approvedAt) rows.push(['Approved', at(s.approvedAt, a.zone)]);
  if (s.sentAt) rows.push(['Delivered', `${at(s.sentAt, a.zone)}${s.sentTo ? ` to ${esc(s.sentTo)}` : ''}`]);
  if (s.voidedAt) rows.push(['Voided', `${at(s.voidedAt, a.zone)}${s.voidReason ? `: ${esc(s.voidReason)}` : ''}`]);
  if (s.reviewNote) rows.push(['Review note', `<span class="text">${esc(s.reviewNote)}</span>`]);
  if (s.workflowUrl) rows.push(['Workflow', `<a href="${esc(s.workflowUrl)}">Open in Temporal UI</a>`]);

  const superseded = s.current
    ? `<p class="problem" role="note">This revision is superseded: ${link(statementHref(s.current.id), `revision ${s.current.revision} is the current one`)}. Act on that one.</p>`
    : '';
  const failed = a.failed ?? null;
  const gapWarning = d.coverage?.warning ? `<p class="problem" role="note">${esc(d.coverage.warning)}</p>` : '';
  return `${failed ? problemBox(failed.problem, ACTION_FIELDS[failed.action]) : ''}
${superseded}
${gapWarning}
${facts(rows)}
<p><a href="${esc(`${statementHref(s.id)}/revisions`)}">Revisions</a> · <a href="${esc(`${statementHref(s.id)}/audit`)}">Audit trail</a> · <a href="/console/sla">Back to the queue</a></p>
<section aria-labelledby="actions">
<h2 id="actions">Review</h2>
${actionForms(s, a)}
</section>
<section aria-labelledby="documents">
<h2 id="documents">Documents</h2>
${documentLinks(s)}
</section>
<section aria-labelledby="services">
<h2 id="services">Covered services</h2>
${servicesTable(d)}
</section>
<section aria-labelledby="exclusions">
<h2 id="exclusions">Exclusions</h2>
${exclusionsTable(s, a)}
</section>
<section aria-labelledby="incidents">
<h2 id="incidents">Incident ledger</h2>
${incidentsTable(d, a.zone)}
</section>`;
}

// ---------------------------------------------------------------------------------------------
// Revisions and the audit trail

export interface SlaRevisionRow {
  id: string;
  revision: number;
  state: string;
  sha256: string;
  generatedAt: string;
}

export function slaRevisionsBody(statementId: string, rows: SlaRevisionRow[], zone: string): string {
  return `${table(
    ['Revision', 'State', 'Generated', 'SHA-256'],
    rows.map((r) => [
      link(statementHref(r.id), `Revision ${r.revision}${r.id === statementId ? ' (this one)' : ''}`),
      statementStateBadge(r.state),
      at(r.generatedAt, zone),
      code(r.sha256),
    ]),
    'No revisions.',
    'Every revision of this contract and period, newest first',
  )}
<p><a href="${esc(statementHref(statementId))}">Back to the statement</a></p>`;
}

export interface SlaAuditRow {
  at: string;
  action: string;
  fromState: string | null;
  toState: string;
  revision: number;
  /** An API key id, `console:<user id>` or `system`. */
  actor: string;
  /** The key's name or the console user's email. */
  actorName: string | null;
  note: string | null;
  sha256: string;
}

export function slaAuditBody(statementId: string, rows: SlaAuditRow[], zone: string): string {
  const who = (r: SlaAuditRow) => {
    const kind = r.actor.startsWith('console:') ? 'console user' : r.actor === 'system' ? 'Vigil' : 'API key';
    return `${esc(r.actorName ?? r.actor)}<br><span class="muted">${esc(kind)} ${code(r.actor)}</span>`;
  };
  return `${table(
    ['When', 'Who', 'Action', 'From → to', 'Revision', 'Note'],
    rows.map((r) => [
      at(r.at, zone),
      who(r),
      esc(r.action.replace(/_/g, ' ')),
      `${esc(r.fromState ? stateLabel(r.fromState).toLowerCase() : 'new')} → ${esc(stateLabel(r.toState).toLowerCase())}`,
      esc(String(r.revision)),
      r.note ? `<span class="text">${esc(r.note)}</span>` : '',
    ]),
    'Nothing recorded yet.',
    'Every transition of every revision, oldest first',
  )}
<p class="muted">The trail is append-only: every action is recorded with who took it, and a statement's sha256 at that moment.</p>
<p><a href="${esc(statementHref(statementId))}">Back to the statement</a></p>`;
}
