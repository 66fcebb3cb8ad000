import { SHOWN_ON_EVERY_PAGE } from '../../../domain/status-page/audience-warnings';
import { IMPACTS, IMPACT_LABELS, type ServiceImpact } from '../../../domain/incident-impact';
import { MESSAGE_TYPES, SEVERITIES } from '../../../domain/incident-state';
import { esc } from '../../html';
import {
  type FormProblem,
  actionButton,
  checkboxField,
  choiceGroup,
  csrfField,
  inputField,
  problemBox,
  selectField,
  stateFilter,
  textareaField,
} from '../forms';
import {
  type Choice,
  type TimelineItem,
  facts,
  link,
  namesOf,
  pager,
  stateBadge,
  table,
  timeline,
  zoneName,
  zonedTime,
} from '../parts';
import {
  type MessageEditProblem,
  type MessageRow,
  type SubscriberPreviewView,
  internalNoteSection,
  messagesSection,
  previewSection,
} from './incident-messages';

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

export function incidentListBody(o: {
  rows: IncidentRow[];
  services: Choice[];
  state: string;
  nextCursor: string | null;
  canWrite: boolean;
  zone: string;
}): string {
  const rows = o.rows.map((i) => [
    link(`/console/incidents/${i.id}`, i.title),
    stateBadge(i.state, incidentStateTone(i.state)),
    stateBadge(i.severity, severityTone(i.severity)),
    namesOf(i.affected_services, o.services),
    zonedTime(i.created_at, o.zone),
  ]);
  const actions = o.canWrite
    ? `<p class="actions"><a class="button" href="/console/incidents/new">New incident</a> <a class="button secondary" href="/console/incident-templates">Start from a template</a></p>`
    : `<p><a href="/console/incident-templates">Incident templates</a></p>`;
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
  /** Service id → chosen impact ('' or absent: from the severity). */
  impacts: Record<string, string>;
  /** Email subscribers about the first message. */
  notify: boolean;
}

export const EMPTY_INCIDENT_FORM: IncidentFormValues = {
  title: '',
  severity: 'minor',
  affected_services: [],
  visible_to_customer_ids: [],
  message_type: 'Investigating',
  message_body: '',
  publish: false,
  impacts: {},
  notify: true,
};

const FORM_FIELDS = [
  'title',
  'severity',
  'affected_services',
  'service_impacts',
  'visible_to_customer_ids',
  'initial_message.type',
  'initial_message.body',
  'publish',
];

/** The status words first (Statuspage's), then Vigil's other message types. */
export const MESSAGE_TYPE_OPTIONS = MESSAGE_TYPES.map((t) => ({ value: t, label: t }));

export const impactLabel = (impact: string): string => IMPACT_LABELS[impact as keyof typeof IMPACT_LABELS] ?? impact;

function impactTone(impact: string): 'degraded' | 'unhealthy' {
  return impact === 'degraded_performance' ? 'degraded' : 'unhealthy';
}

/** Affected services with their impact in words ("Checkout (Partial outage)"); none: "none". */
export function impactList(impacts: readonly ServiceImpact[], services: readonly Choice[]): string {
  if (!impacts.length) return '<span class="muted">none</span>';
  const byId = new Map(services.map((c) => [c.id, c.name]));
  const items = impacts.map((x) => {
    const name = byId.has(x.service_id)
      ? esc(byId.get(x.service_id)!)
      : `<span class="muted">removed (<code>${esc(x.service_id)}</code>)</span>`;
    return `<li data-service-id="${esc(x.service_id)}" data-impact="${esc(x.impact)}">${name}: ${stateBadge(impactLabel(x.impact), impactTone(x.impact))}</li>`;
  });
  return `<ul class="impacts">${items.join('')}</ul>`;
}

/**
 * One select per service, named `impact.<service id>`: an impact makes the service affected; the
 * first option leaves it to the severity (minor: degraded performance, major: partial outage,
 * critical: major outage).
 */
export function impactFieldset(o: {
  services: readonly Choice[];
  impacts: Record<string, string>;
  problem?: FormProblem | null;
}): string {
  if (!o.services.length) return '';
  const options = [
    { value: '', label: 'From the severity' },
    ...IMPACTS.map((i) => ({ value: i, label: IMPACT_LABELS[i] })),
  ];
  const selects = o.services.map((s) =>
    selectField({ name: `impact.${s.id}`, label: s.name, value: o.impacts[s.id] ?? '', options }),
  );
  const errors = (o.problem?.errors ?? []).filter((e) => e.path.startsWith('service_impacts'));
  const err = errors.length
    ? `<p class="field-error" id="f-service_impacts-error">${esc(errors.map((e) => e.message).join('. '))}</p>`
    : '';
  return `<fieldset class="impact-grid" id="f-service_impacts"><legend>Impact per service (choosing one makes the service affected; otherwise the severity decides: minor → degraded performance, major → partial outage, critical → major outage)</legend>${selects.join('')}${err}</fieldset>`;
}

export function incidentFormBody(o: {
  csrf: string;
  values: IncidentFormValues;
  services: Choice[];
  customers: Choice[] | null;
  problem?: FormProblem | null;
  template?: { id: string; name: string } | null;
}): string {
  const p = o.problem;
  const customers =
    o.customers && o.customers.length
      ? choiceGroup({
          name: 'visible_to_customer_ids',
          legend: 'Only for these customers (optional; such an incident is never public)',
          choices: o.customers,
          selected: o.values.visible_to_customer_ids,
          problem: p,
          empty: '',
        })
      : '';
  const from = o.template
    ? `<p class="notice">Filled from the template <a href="/console/incident-templates/${esc(o.template.id)}">${esc(o.template.name)}</a>: check it, then create.</p>`
    : '';
  return `${from}${problemBox(p, FORM_FIELDS)}
<form class="stack" method="post" action="/console/incidents/new">
${csrfField(o.csrf)}
${inputField({ name: 'title', label: 'Title', value: o.values.title, problem: p, required: true, hint: 'What customers see, e.g. "Checkout errors for some card payments".' })}
${selectField({ name: 'severity', label: 'Severity (impact)', value: o.values.severity, problem: p, options: SEVERITIES.map((s) => ({ value: s, label: s })) })}
${choiceGroup({ name: 'affected_services', legend: `Affected services (none selected: ${SHOWN_ON_EVERY_PAGE})`, choices: o.services, selected: o.values.affected_services, problem: p, empty: 'The organization has no services yet.' })}
${impactFieldset({ services: o.services, impacts: o.values.impacts, problem: p })}
${customers}
<fieldset><legend>First message (optional)</legend>
${selectField({ name: 'initial_message.type', label: 'Status (type)', value: o.values.message_type, problem: p, options: MESSAGE_TYPE_OPTIONS })}
${textareaField({ name: 'initial_message.body', label: 'Message', value: o.values.message_body, problem: p })}
${checkboxField({ name: 'initial_message.notify_subscribers', label: "Notify subscribers (email the status pages' subscribers once it is published)", checked: o.values.notify })}
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
  /** Every affected service with its impact (chosen or from the severity). */
  service_impacts: ServiceImpact[];
  /** Impacts the operator chose (service id → impact), for the edit form. */
  chosen_impacts: Record<string, string>;
  /** All services of the organization, for the edit form. */
  services: Choice[];
  customers: string[];
  created_at: string;
  published_at: string | null;
  resolved_at: string | null;
  canceled_at: string | null;
  updated_at: string;
  timeline: TimelineItem[];
  /** The organization's own note (never public). */
  internal_note: string | null;
  messages: MessageRow[];
  /** A draft's subscriber email as a publish would send it (undefined: not a draft). */
  preview?: SubscriberPreviewView | null;
}

/** Which form of the detail page a problem belongs to, with what was typed into it. */
export interface IncidentActionProblem {
  form: 'publish' | 'message' | 'resolve' | 'delete' | 'edit' | 'note' | 'message-edit';
  problem: FormProblem;
  /** A refused note change or message edit. */
  messageEdit?: MessageEditProblem;
  values?: Record<string, string>;
  /** The edit form as it was posted. */
  edit?: IncidentEditValues;
}

export interface IncidentEditValues {
  title: string;
  severity: string;
  affected_services: string[];
  impacts: Record<string, string>;
}

function editSection(d: IncidentDetail, csrf: string, failed: IncidentActionProblem | null): string {
  const p = failed?.form === 'edit' ? failed.problem : null;
  const v: IncidentEditValues = (failed?.form === 'edit' ? failed.edit : null) ?? {
    title: d.title,
    severity: d.severity,
    affected_services: d.affected_ids,
    impacts: d.chosen_impacts,
  };
  const open = p ? ' open' : '';
  return `<section aria-labelledby="edit-incident"><details${open}><summary><h2 id="edit-incident">Edit title, severity and services</h2></summary>
${d.state === 'draft' ? '' : '<p class="muted">The incident is public: the status pages show the change at once (event incident.updated); no email goes out for it.</p>'}
${problemBox(p, ['title', 'severity', 'affected_services', 'service_impacts'])}
<form class="stack" method="post" action="/console/incidents/${esc(d.id)}/edit">
${csrfField(csrf)}
${inputField({ name: 'title', label: 'Title', value: v.title, problem: p, required: true })}
${selectField({ name: 'severity', label: 'Severity (impact)', value: v.severity, problem: p, options: SEVERITIES.map((s) => ({ value: s, label: s })) })}
${choiceGroup({ name: 'affected_services', legend: `Affected services (none selected: ${SHOWN_ON_EVERY_PAGE})`, choices: d.services, selected: v.affected_services, problem: p, empty: 'The organization has no services yet.' })}
${impactFieldset({ services: d.services, impacts: v.impacts, problem: p })}
<div><button type="submit">Save changes</button></div>
</form></details></section>`;
}

export function incidentDetailBody(
  d: IncidentDetail,
  o: { csrf: string; canWrite: boolean; zone: string; failed?: IncidentActionProblem | null },
): string {
  const f = o.failed ?? null;
  const problemOf = (form: IncidentActionProblem['form']) => (f && f.form === form ? f.problem : null);
  const valueOf = (form: IncidentActionProblem['form'], name: string, fallback = '') =>
    f && f.form === form ? (f.values?.[name] ?? fallback) : fallback;
  const summary = facts([
    ['State', stateBadge(d.state, incidentStateTone(d.state))],
    ['Severity', stateBadge(d.severity, severityTone(d.severity))],
    ['Affected services', namesOf(d.affected_ids, d.affected_services)],
    ...(d.service_impacts.length
      ? ([['Impact per service', impactList(d.service_impacts, d.services)]] as [string, string][])
      : []),
    ...(d.customers.length
      ? ([['Visible to', `${d.customers.length} customer${d.customers.length === 1 ? '' : 's'} only`]] as [
          string,
          string,
        ][])
      : []),
    ['Created', zonedTime(d.created_at, o.zone)],
    ['Published', zonedTime(d.published_at, o.zone)],
    ['Resolved', zonedTime(d.resolved_at, o.zone)],
    ['Last change', zonedTime(d.updated_at, o.zone)],
    ['Id', `<code>${esc(d.id)}</code>`],
  ]);
  const base = `/console/incidents/${d.id}`;
  let actions = '';
  if (o.canWrite && d.state !== 'deleted' && d.state !== 'canceled') {
    const buttons = [
      d.state === 'draft' ? actionButton({ action: `${base}/publish`, label: 'Publish', csrf: o.csrf }) : '',
      d.state === 'draft'
        ? actionButton({ action: `${base}/delete`, label: 'Delete draft', csrf: o.csrf, kind: 'danger' })
        : '',
    ].filter(Boolean);
    const buttonProblem = problemOf('publish') ?? problemOf('delete');
    const notify = f && f.form === 'message' ? f.values?.notify_subscribers === 'true' : true;
    const message = `<section aria-labelledby="post-message"><h2 id="post-message">Post a message</h2>
${problemBox(problemOf('message'), [{ name: 'type', label: 'Status (type)' }, 'body'])}
<form class="stack" method="post" action="${base}/message">
${csrfField(o.csrf)}
${selectField({ name: 'type', label: 'Status (type)', value: valueOf('message', 'type', d.state === 'draft' ? 'Investigating' : 'Update'), problem: problemOf('message'), options: MESSAGE_TYPE_OPTIONS, hint: 'Investigating, Identified, Monitoring, Resolved: where the work stands.' })}
${textareaField({ name: 'body', label: 'Message', value: valueOf('message', 'body'), problem: problemOf('message'), required: true, hint: d.state === 'published' ? 'A Resolved update also resolves the incident.' : undefined })}
${checkboxField({ name: 'notify_subscribers', label: d.state === 'draft' ? 'Notify subscribers (drafts are never emailed)' : "Notify subscribers (email this update to the status pages' subscribers)", checked: notify })}
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
${resolve}
${editSection(d, o.csrf, f)}`;
  }
  const editFailed = f && (f.form === 'note' || f.form === 'message-edit') ? (f.messageEdit ?? null) : null;
  const canEdit = o.canWrite && d.state !== 'deleted';
  return `<p><a href="/console/incidents">← All incidents</a></p>
${summary}
${messagesSection({ id: d.id, state: d.state, messages: d.messages, csrf: o.csrf, canWrite: canEdit, zone: o.zone, failed: editFailed })}
${internalNoteSection({ id: d.id, note: d.internal_note, csrf: o.csrf, canWrite: canEdit, failed: editFailed })}
${d.preview !== undefined ? previewSection(d.preview) : ''}
${actions}
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
<p class="muted">Oldest first, times in ${zoneName(o.zone)}.</p>
${timeline(d.timeline, 'Nothing has happened yet.', o.zone)}
</section>`;
}
