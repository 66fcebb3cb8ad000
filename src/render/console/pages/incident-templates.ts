import { MESSAGE_TYPES, SEVERITIES } from '../../../domain/incident-state';
import type { ServiceImpact } from '../../../domain/incident-impact';
import { SHOWN_ON_EVERY_PAGE } from '../../../domain/status-page/audience-warnings';
import { esc } from '../../html';
import {
  type FormProblem,
  actionButton,
  choiceGroup,
  csrfField,
  inputField,
  problemBox,
  selectField,
  textareaField,
} from '../forms';
import { type Choice, facts, link, namesOf, pager, table, zonedTime } from '../parts';
import { impactFieldset, impactList } from './incidents';

export interface IncidentTemplateRow {
  id: string;
  name: string;
  title: string;
  severity: string;
  affected_services: string[];
  service_impacts: ServiceImpact[];
  updated_at: string;
}

export const templateHref = (id: string) => `/console/incident-templates/${encodeURIComponent(id)}`;
export const startHref = (id: string) => `/console/incidents/new?template=${encodeURIComponent(id)}`;

/** The list: each template with "Start incident" (click one; "Create incident" on the filled form is click two). */
export function templateListBody(o: {
  rows: IncidentTemplateRow[];
  services: Choice[];
  nextCursor: string | null;
  canWrite: boolean;
}): string {
  const rows = o.rows.map((t) => [
    link(templateHref(t.id), t.name),
    esc(t.title),
    esc(t.severity),
    namesOf(t.affected_services, o.services),
    ...(o.canWrite
      ? [
          `<a class="button" href="${esc(startHref(t.id))}" aria-label="Start incident from ${esc(t.name)}">Start incident</a>`,
        ]
      : []),
  ]);
  const head = ['Template', 'Incident title', 'Severity', 'Affected services', ...(o.canWrite ? ['Start'] : [])];
  const actions = o.canWrite
    ? `<p class="actions"><a class="button" href="/console/incident-templates/new">New template</a></p>`
    : '';
  return `<p><a href="/console/incidents">← Incidents</a></p>
<p class="muted">Prepared incidents${o.canWrite ? ': "Start incident" opens the new-incident form filled from the template; check it and create' : ''}.</p>
${actions}
${table(head, rows, 'No incident templates yet.', 'Newest first')}
${pager('/console/incident-templates', o.nextCursor)}`;
}

export interface TemplateFormValues {
  name: string;
  title: string;
  body: string;
  severity: string;
  message_type: string;
  affected_services: string[];
  impacts: Record<string, string>;
}

export const EMPTY_TEMPLATE_FORM: TemplateFormValues = {
  name: '',
  title: '',
  body: '',
  severity: 'minor',
  message_type: 'Investigating',
  affected_services: [],
  impacts: {},
};

const FIELDS = ['name', 'title', 'severity', 'message_type', 'body', 'affected_services', 'service_impacts'];

/** Create (no `existing`) or edit form; an existing template also gets "Start incident" and "Delete template". */
export function templateFormBody(o: {
  csrf: string;
  values: TemplateFormValues;
  services: Choice[];
  zone: string;
  existing?: { id: string; updated_at: string; service_impacts: ServiceImpact[] } | null;
  problem?: FormProblem | null;
}): string {
  const p = o.problem ?? null;
  const action = o.existing ? templateHref(o.existing.id) : '/console/incident-templates/new';
  const about = o.existing
    ? `${facts([
        ['Impact per service', impactList(o.existing.service_impacts, o.services)],
        ['Last change', zonedTime(o.existing.updated_at, o.zone)],
      ])}
<p class="actions"><a class="button" href="${esc(startHref(o.existing.id))}">Start incident from this template</a></p>`
    : '';
  const del = o.existing
    ? `<section aria-labelledby="delete-template"><h2 id="delete-template">Delete</h2>${actionButton({ action: `${templateHref(o.existing.id)}/delete`, label: 'Delete template', csrf: o.csrf, kind: 'danger' })}</section>`
    : '';
  return `<p><a href="/console/incident-templates">← All templates</a></p>
${about}
${problemBox(p, FIELDS)}
<form class="stack" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${inputField({ name: 'name', label: 'Template name', value: o.values.name, problem: p, required: true, hint: 'How operators find it, e.g. "Payment provider down".' })}
${inputField({ name: 'title', label: 'Incident title', value: o.values.title, problem: p, required: true })}
${selectField({ name: 'severity', label: 'Severity (impact)', value: o.values.severity, problem: p, options: SEVERITIES.map((s) => ({ value: s, label: s })) })}
${choiceGroup({ name: 'affected_services', legend: `Affected services (none selected: ${SHOWN_ON_EVERY_PAGE})`, choices: o.services, selected: o.values.affected_services, problem: p, empty: 'The organization has no services yet.' })}
${impactFieldset({ services: o.services, impacts: o.values.impacts, problem: p })}
<fieldset><legend>First message (optional)</legend>
${selectField({ name: 'message_type', label: 'Status (type)', value: o.values.message_type, problem: p, options: MESSAGE_TYPES.map((t) => ({ value: t, label: t })) })}
${textareaField({ name: 'body', label: 'Message', value: o.values.body, problem: p })}
</fieldset>
<div><button type="submit">${o.existing ? 'Save template' : 'Create template'}</button> <a href="/console/incident-templates">Cancel</a></div>
</form>
${del}`;
}

/** A reader without write:incidents sees the template, not a form. */
export function templateReadBody(
  t: IncidentTemplateRow & { body: string | null; message_type: string },
  services: Choice[],
  zone: string,
): string {
  return `<p><a href="/console/incident-templates">← All templates</a></p>
${facts([
  ['Incident title', esc(t.title)],
  ['Severity', esc(t.severity)],
  ['Affected services', namesOf(t.affected_services, services)],
  ['Impact per service', impactList(t.service_impacts, services)],
  ['First message', t.body ? `${esc(t.message_type)}: ${esc(t.body)}` : '<span class="muted">none</span>'],
  ['Last change', zonedTime(t.updated_at, zone)],
])}`;
}
