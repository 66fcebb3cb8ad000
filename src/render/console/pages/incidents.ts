import { MESSAGE_TYPES, SEVERITIES } from '../../../domain/incident-state';
import { esc, plainText, timeTag } from '../../html';
import { type FormProblem, actionButton, checkboxField, csrfField, inputField, problemBox, selectField, textareaField } from '../forms';
import { facts, link, pager, stateBadge, table } from '../parts';

/** Something a form offers to pick (a service, a customer). */
export interface Choice {
  id: string;
  name: string;
}

/** One step of a timeline: a message or a change of state. */
export interface TimelineItem {
  at: string;
  /** The message type or the step ("Published", "Scheduled"). */
  label: string;
  body: string | null;
}

const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** An instant as readable UTC text in a `<time>` element. */
export function utcTime(iso: string | null): string {
  return iso ? timeTag(iso, 'UTC') : '<span class="muted">—</span>';
}

/** The errors a problem lists for a repeated field (its own path or one of its items). */
function groupErrors(problem: FormProblem | null | undefined, name: string): string[] {
  return (problem?.errors ?? []).filter((e) => e.path === name || e.path.startsWith(`${name}.`)).map((e) => e.message);
}

/**
 * Checkboxes for picking several items (services, customers), in a fieldset with a legend; the
 * problem's errors for the field or any of its items show under it.
 */
export function choiceGroup(o: { name: string; legend: string; choices: readonly Choice[]; selected: readonly string[]; problem?: FormProblem | null; empty: string }): string {
  const id = fieldId(o.name);
  const errors = [...new Set(groupErrors(o.problem, o.name))];
  const err = errors.length ? `<p class="field-error" id="${id}-error">${esc(errors.join('; '))}</p>` : '';
  const chosen = new Set(o.selected);
  const boxes = o.choices.length
    ? o.choices
        .map((c) => `<div><label><input type="checkbox" name="${esc(o.name)}" value="${esc(c.id)}"${chosen.has(c.id) ? ' checked' : ''}${errors.length ? ' aria-invalid="true"' : ''}> ${esc(c.name)}</label></div>`)
        .join('')
    : `<p class="muted">${esc(o.empty)}</p>`;
  return `<fieldset id="${id}"${errors.length ? ` aria-describedby="${id}-error"` : ''}><legend>${esc(o.legend)}</legend>${boxes}${err}</fieldset>`;
}

/** A timeline, oldest first: each step's label as text, its time and its body. */
export function timeline(items: readonly TimelineItem[], empty: string): string {
  if (!items.length) return `<p class="muted">${esc(empty)}</p>`;
  return `<ol class="timeline">${items
    .map((i) => `<li><strong>${esc(i.label)}</strong> · ${utcTime(i.at)}${i.body ? plainText(i.body) : ''}</li>`)
    .join('')}</ol>`;
}

/** Names of the chosen items, in the order given (an id no longer known shows as such). */
export function namesOf(ids: readonly string[], known: readonly Choice[]): string {
  if (!ids.length) return '<span class="muted">none</span>';
  const byId = new Map(known.map((c) => [c.id, c.name]));
  return ids.map((id) => (byId.has(id) ? esc(byId.get(id)!) : `<span class="muted">removed (<code>${esc(id)}</code>)</span>`)).join(', ');
}

/** A GET form that filters a list by one of `options` ('' = all); its ids never clash with a form's fields of the same name. */
export function stateFilter(action: string, name: string, label: string, options: readonly string[], value: string): string {
  const id = `filter-${name}`;
  const opts = [{ value: '', label: 'All' }, ...options.map((o) => ({ value: o, label: o.replace('_', ' ') }))]
    .map((o) => `<option value="${esc(o.value)}"${o.value === value ? ' selected' : ''}>${esc(o.label)}</option>`)
    .join('');
  return `<form method="get" action="${esc(action)}" class="actions" role="search" aria-label="Filter"><div><label for="${id}">${esc(label)}</label><select id="${id}" name="${esc(name)}">${opts}</select></div><div><button type="submit" class="secondary">Filter</button></div></form>`;
}

function incidentStateTone(state: string): 'healthy' | 'degraded' | 'unhealthy' | 'neutral' {
  return state === 'published' ? 'unhealthy' : state === 'resolved' ? 'healthy' : 'neutral';
}

function severityTone(severity: string): 'degraded' | 'unhealthy' | 'neutral' {
  return severity === 'critical' ? 'unhealthy' : severity === 'major' ? 'degraded' : 'neutral';
}

export const INCIDENT_FILTER_STATES = ['draft', 'published', 'resolved', 'canceled'] as const;

export interface IncidentRow {
  id: string;
  title: string;
  severity: string;
  state: string;
  affected_services: string[];
  created_at: string;
  updated_at: string;
}

export function incidentListBody(o: { rows: IncidentRow[]; services: Choice[]; state: string; nextCursor: string | null; canWrite: boolean }): string {
  const rows = o.rows.map((i) => [
    link(`/console/incidents/${i.id}`, i.title),
    stateBadge(i.state, incidentStateTone(i.state)),
    stateBadge(i.severity, severityTone(i.severity)),
    namesOf(i.affected_services, o.services),
    utcTime(i.created_at),
  ]);
  const actions = o.canWrite ? `<p class="actions"><a class="button" href="/console/incidents/new">New incident</a></p>` : '';
  return `${actions}
${stateFilter('/console/incidents', 'state', 'State', INCIDENT_FILTER_STATES, o.state)}
${table(['Incident', 'State', 'Severity', 'Affected services', 'Created'], rows, o.state ? `No ${o.state} incidents.` : 'No incidents yet.', 'Newest first')}
${pager('/console/incidents', o.nextCursor, o.state ? { state: o.state } : {})}`;
}

export interface IncidentFormValues {
  title: string;
  severity: string;
  affected_services: string[];
  visible_to_customer_ids: string[];
  message_type: string;
  message_body: string;
  publish: boolean;
}

export const EMPTY_INCIDENT_FORM: IncidentFormValues = { title: '', severity: 'minor', affected_services: [], visible_to_customer_ids: [], message_type: 'Investigating', message_body: '', publish: false };

const FORM_FIELDS = ['title', 'severity', 'affected_services', 'visible_to_customer_ids', 'initial_message.type', 'initial_message.body', 'publish'];

export function incidentFormBody(o: { csrf: string; values: IncidentFormValues; services: Choice[]; customers: Choice[] | null; problem?: FormProblem | null }): string {
  const p = o.problem;
  const customers =
    o.customers && o.customers.length
      ? choiceGroup({ name: 'visible_to_customer_ids', legend: 'Only for these customers (optional; such an incident is never public)', choices: o.customers, selected: o.values.visible_to_customer_ids, problem: p, empty: '' })
      : '';
  return `${problemBox(p, FORM_FIELDS)}
<form class="stack" method="post" action="/console/incidents/new">
${csrfField(o.csrf)}
${inputField({ name: 'title', label: 'Title', value: o.values.title, problem: p, required: true, hint: 'What customers see, e.g. "Checkout errors for some card payments".' })}
${selectField({ name: 'severity', label: 'Severity (impact)', value: o.values.severity, problem: p, options: SEVERITIES.map((s) => ({ value: s, label: s })) })}
${choiceGroup({ name: 'affected_services', legend: 'Affected services', choices: o.services, selected: o.values.affected_services, problem: p, empty: 'The organization has no services yet.' })}
${customers}
<fieldset><legend>First message (optional)</legend>
${selectField({ name: 'initial_message.type', label: 'Type', value: o.values.message_type, problem: p, options: MESSAGE_TYPES.map((t) => ({ value: t, label: t })) })}
${textareaField({ name: 'initial_message.body', label: 'Message', value: o.values.message_body, problem: p })}
</fieldset>
${checkboxField({ name: 'publish', label: 'Publish now (otherwise it stays a draft, visible only here)', checked: o.values.publish })}
<div><button type="submit">Create incident</button> <a href="/console/incidents">Cancel</a></div>
</form>`;
}

export interface IncidentDetail {
  id: string;
  title: string;
  severity: string;
  state: string;
  affected_services: Choice[];
  affected_ids: string[];
  customers: string[];
  created_at: string;
  published_at: string | null;
  resolved_at: string | null;
  canceled_at: string | null;
  updated_at: string;
  timeline: TimelineItem[];
}

/** Which form of the detail page a problem belongs to, with what was typed into it. */
export interface IncidentActionProblem {
  form: 'publish' | 'message' | 'resolve' | 'delete';
  problem: FormProblem;
  values?: Record<string, string>;
}

export function incidentDetailBody(d: IncidentDetail, o: { csrf: string; canWrite: boolean; failed?: IncidentActionProblem | null }): string {
  const f = o.failed ?? null;
  const problemOf = (form: IncidentActionProblem['form']) => (f && f.form === form ? f.problem : null);
  const valueOf = (form: IncidentActionProblem['form'], name: string, fallback = '') => (f && f.form === form ? (f.values?.[name] ?? fallback) : fallback);
  const summary = facts([
    ['State', stateBadge(d.state, incidentStateTone(d.state))],
    ['Severity', stateBadge(d.severity, severityTone(d.severity))],
    ['Affected services', namesOf(d.affected_ids, d.affected_services)],
    ...(d.customers.length ? ([['Visible to', `${d.customers.length} customer${d.customers.length === 1 ? '' : 's'} only`]] as [string, string][]) : []),
    ['Created', utcTime(d.created_at)],
    ['Published', utcTime(d.published_at)],
    ['Resolved', utcTime(d.resolved_at)],
    ['Last change', utcTime(d.updated_at)],
    ['Id', `<code>${esc(d.id)}</code>`],
  ]);
  const base = `/console/incidents/${d.id}`;
  let actions = '';
  if (o.canWrite && d.state !== 'deleted' && d.state !== 'canceled') {
    const buttons = [
      d.state === 'draft' ? actionButton({ action: `${base}/publish`, label: 'Publish', csrf: o.csrf }) : '',
      d.state === 'draft' ? actionButton({ action: `${base}/delete`, label: 'Delete draft', csrf: o.csrf, kind: 'danger' }) : '',
    ].filter(Boolean);
    const buttonProblem = problemOf('publish') ?? problemOf('delete');
    const message = `<section aria-labelledby="post-message"><h2 id="post-message">Post a message</h2>
${problemBox(problemOf('message'), ['type', 'body'])}
<form class="stack" method="post" action="${base}/message">
${csrfField(o.csrf)}
${selectField({ name: 'type', label: 'Type', value: valueOf('message', 'type', d.state === 'draft' ? 'Investigating' : 'Update'), problem: problemOf('message'), options: MESSAGE_TYPES.map((t) => ({ value: t, label: t })) })}
${textareaField({ name: 'body', label: 'Message', value: valueOf('message', 'body'), problem: problemOf('message'), required: true, hint: d.state === 'published' ? 'A Resolved message also resolves the incident.' : undefined })}
<div><button type="submit">Post message</button></div>
</form></section>`;
    const resolve =
      d.state === 'published'
        ? `<section aria-labelledby="resolve"><h2 id="resolve">Resolve</h2>
${problemBox(problemOf('resolve'), ['message'])}
<form class="stack" method="post" action="${base}/resolve">
${csrfField(o.csrf)}
${textareaField({ name: 'message', label: 'Closing message (optional, posted as Resolved)', value: valueOf('resolve', 'message'), problem: problemOf('resolve') })}
<div><button type="submit">Resolve incident</button></div>
</form></section>`
        : '';
    actions = `${buttonProblem ? problemBox(buttonProblem) : ''}${buttons.length ? `<div class="actions">${buttons.join('')}</div>` : ''}
${message}
${resolve}`;
  }
  return `<p><a href="/console/incidents">← All incidents</a></p>
${summary}
${actions}
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
<p class="muted">Oldest first, times in UTC.</p>
${timeline(d.timeline, 'Nothing has happened yet.')}
</section>`;
}
