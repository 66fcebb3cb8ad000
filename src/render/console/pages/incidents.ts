import { SHOWN_ON_EVERY_PAGE } from '../../../domain/status-page/audience-warnings';
import { MESSAGE_TYPES, SEVERITIES } from '../../../domain/incident-state';
import { esc } from '../../html';
import { type FormProblem, actionButton, checkboxField, choiceGroup, csrfField, inputField, problemBox, selectField, stateFilter, textareaField } from '../forms';
import { type Choice, type TimelineItem, facts, link, namesOf, pager, stateBadge, table, timeline, utcTime } from '../parts';

export type { Choice, TimelineItem };

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
${choiceGroup({ name: 'affected_services', legend: `Affected services (none selected: ${SHOWN_ON_EVERY_PAGE})`, choices: o.services, selected: o.values.affected_services, problem: p, empty: 'The organization has no services yet.' })}
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
