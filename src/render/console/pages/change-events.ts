import { esc, safeHttpUrl } from '../../html';
import {
  choiceGroup,
  csrfField,
  type FormProblem,
  inputField,
  problemBox,
  selectField,
  stateFilter,
  textareaField,
} from '../forms';
import { type Choice, namesOf, pager, stateBadge, table, zonedTime } from '../parts';
import { zonedDateInput } from '../zoned-input';

export interface ChangeEventRow {
  id: string;
  kind: string;
  title: string;
  description: string | null;
  service_ids: string[];
  actor: string | null;
  source: string | null;
  links: { label: string; url: string }[];
  occurred_at: string;
}

export interface ChangeEventFormValues {
  kind: string;
  title: string;
  description: string;
  service_ids: string[];
  actor: string;
  source: string;
  occurred_at: string;
  link_label: string;
  link_url: string;
}

export const EMPTY_CHANGE_FORM: ChangeEventFormValues = {
  kind: 'deploy',
  title: '',
  description: '',
  service_ids: [],
  actor: '',
  source: '',
  occurred_at: '',
  link_label: '',
  link_url: '',
};

const FORM_FIELDS = [
  { name: 'kind', label: 'Kind' },
  { name: 'title', label: 'What changed' },
  { name: 'description', label: 'Description' },
  { name: 'service_ids', label: 'Services it touched' },
  { name: 'actor', label: 'Who made it' },
  { name: 'source', label: 'Source' },
  { name: 'occurred_at', label: 'When' },
  { name: 'links.0.label', label: 'Link text' },
  { name: 'links.0.url', label: 'URL' },
];

const kindText = (kind: string) => kind.replace('_', ' ');

function linksOf(links: ChangeEventRow['links']): string {
  const safe = links
    .map((l) => ({ label: l.label, url: safeHttpUrl(l.url) }))
    .filter((l): l is { label: string; url: string } => l.url !== null);
  return safe.length
    ? safe.map((l) => `<a href="${esc(l.url)}" rel="noopener noreferrer">${esc(l.label)}</a>`).join(', ')
    : '';
}

function recordForm(o: {
  csrf: string;
  you: string;
  kinds: readonly string[];
  values: ChangeEventFormValues;
  services: Choice[];
  zone: string;
  problem?: FormProblem | null;
}): string {
  const p = o.problem;
  return `<section aria-labelledby="record"><h2 id="record">Record a change</h2>
<p class="muted">Pipelines usually report changes through the API (POST /v1/change-events); this form is for the ones made by hand.</p>
${problemBox(p, FORM_FIELDS)}
<form class="stack" method="post" action="/console/change-events">
${csrfField(o.csrf)}
${selectField({ name: 'kind', label: 'Kind', value: o.values.kind, problem: p, options: o.kinds.map((k) => ({ value: k, label: kindText(k) })) })}
${inputField({ name: 'title', label: 'What changed', value: o.values.title, problem: p, required: true, hint: 'One line, e.g. "Deploy checkout-api v1.42.0".' })}
${textareaField({ name: 'description', label: 'Description (optional)', value: o.values.description, problem: p })}
${choiceGroup({ name: 'service_ids', legend: 'Services it touched', choices: o.services, selected: o.values.service_ids, problem: p, empty: 'The organization has no services yet.' })}
${inputField({ name: 'actor', label: 'Who made it (optional)', value: o.values.actor, problem: p, hint: `Left empty: you (${o.you}).` })}
${inputField({ name: 'source', label: 'Source (optional)', value: o.values.source, problem: p, hint: 'Where it came from, e.g. "github-actions"; left empty: console.' })}
${zonedDateInput({ name: 'occurred_at', label: 'When', timeZone: o.zone, raw: o.values.occurred_at, problem: p, hint: 'Optional: empty means now.' })}
<fieldset><legend>Link (optional)</legend>
${inputField({ name: 'links.0.label', label: 'Link text', value: o.values.link_label, problem: p })}
${inputField({ name: 'links.0.url', label: 'URL (http or https)', value: o.values.link_url, problem: p })}
</fieldset>
<div><button type="submit">Record change</button></div>
</form></section>`;
}

export function changeEventListBody(o: {
  rows: ChangeEventRow[];
  services: Choice[];
  kinds: readonly string[];
  kind: string;
  nextCursor: string | null;
  canWrite: boolean;
  csrf: string;
  /** The signed-in user's email: who a change recorded here is by when the form names no one. */
  you: string;
  /** The viewer's zone: times are shown and typed in it. */
  zone: string;
  values: ChangeEventFormValues;
  problem?: FormProblem | null;
}): string {
  const rows = o.rows.map((e) => [
    zonedTime(e.occurred_at, o.zone),
    stateBadge(kindText(e.kind)),
    `${esc(e.title)}${e.description ? `<br><span class="muted">${esc(e.description.length > 300 ? `${e.description.slice(0, 300)}…` : e.description)}</span>` : ''}`,
    namesOf(e.service_ids, o.services),
    [e.actor, e.source]
      .filter((x): x is string => !!x)
      .map(esc)
      .join(' · '),
    linksOf(e.links),
  ]);
  // A failed form comes first so its problem is seen at once; otherwise the list leads.
  const form = o.canWrite ? recordForm(o) : '';
  const list = `<section aria-labelledby="changes"><h2 id="changes">Changes</h2>
${stateFilter('/console/change-events', 'kind', 'Kind', o.kinds, o.kind)}
${table(['When', 'Kind', 'Change', 'Services', 'By', 'Links'], rows, o.kind ? `No ${kindText(o.kind)} changes.` : 'No changes recorded yet.', 'Newest first')}
${pager('/console/change-events', o.nextCursor, o.kind ? { kind: o.kind } : {})}
</section>`;
  return o.problem ? `${form}\n${list}` : `${list}\n${form}`;
}
