import { esc } from '../html';
import { detailAddsToErrors, fieldSentence, labelForPath, sentenceFor, summaryHeading } from './form-errors';
import { timeZonesByRegion } from '../../domain/time-zones';

/** A problem the API would answer (problem+json), as a form shows it. */
export interface FormProblem {
  title: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

export function csrfField(token: string): string {
  return `<input type="hidden" name="_csrf" value="${esc(token)}">`;
}

const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** Whether an error at `path` belongs to the field `name` (its path, its last segment, or one of its items). */
function belongsTo(path: string, name: string): boolean {
  return (
    path === name ||
    path.endsWith(`.${name}`) ||
    path === `body.${name}` ||
    new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+$`).test(path)
  );
}

/** The errors a problem lists for one field, each as a sentence about `label`. */
function errorsFor(problem: FormProblem | null | undefined, name: string, label: string): string[] {
  return [
    ...new Set((problem?.errors ?? []).filter((e) => belongsTo(e.path, name)).map((e) => fieldSentence(e, label))),
  ];
}

/** A summary line: the field the error belongs to (of `fields`, else its path) for the link, and its sentence. */
function summaryLine(e: { path: string; message: string }, fields: readonly SummaryField[]): string {
  const named = fields
    .map((f) => (typeof f === 'string' ? { name: f, label: labelForPath(f) } : f))
    .find((f) => belongsTo(e.path, f.name));
  const sentence = esc(sentenceFor(e, named?.label ?? labelForPath(e.path)));
  const target = named?.name ?? e.path.replace(/^body\./, '');
  return `<li>${target ? `<a href="#${fieldId(target)}">${sentence}</a>` : sentence}</li>`;
}

/** A field a problem's summary links to: its name, or its name and label (else the label comes from the name). */
export type SummaryField = string | { name: string; label: string };

/**
 * The problem's summary above a form: every error at once, in words, each linking to its field
 * (the field shows the same sentence next to it); a problem without field errors shows its
 * detail. The summary takes the focus when the page loads (`autofocus`: the CSP allows no script),
 * so a screen reader announces it and Tab continues into the form. The API token stays, small,
 * for whoever reports the problem.
 */
export function problemBox(problem: FormProblem | null | undefined, fields: readonly SummaryField[] = []): string {
  if (!problem) return '';
  const errors = problem.errors ?? [];
  const detail = !errors.length || detailAddsToErrors(problem.detail, errors) ? `<p>${esc(problem.detail)}</p>` : '';
  const list = errors.length ? `<ul>${errors.map((e) => summaryLine(e, fields)).join('')}</ul>` : '';
  return `<div class="problem" role="alert" tabindex="-1" id="problem" autofocus><h2>${esc(summaryHeading(problem.title, errors.length))}</h2>${detail}${list}<p class="muted">Error code: <code>${esc(problem.title)}</code></p></div>`;
}

interface FieldOptions {
  name: string;
  label: string;
  value?: string | null;
  problem?: FormProblem | null;
  required?: boolean;
  hint?: string;
}

function described(o: FieldOptions): { attrs: string; after: string } {
  const id = fieldId(o.name);
  const errors = errorsFor(o.problem, o.name, o.label);
  const hint = o.hint ? `<p class="muted" id="${id}-hint">${esc(o.hint)}</p>` : '';
  const err = errors.length ? `<p class="field-error" id="${id}-error">${esc(errors.join('. '))}</p>` : '';
  const by = [o.hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    attrs: `id="${id}" name="${esc(o.name)}"${o.required ? ' required' : ''}${errors.length ? ' aria-invalid="true"' : ''}${by ? ` aria-describedby="${by}"` : ''}`,
    after: `${hint}${err}`,
  };
}

export function inputField(o: FieldOptions & { type?: 'text' | 'email' | 'datetime-local' | 'number' }): string {
  const d = described(o);
  return `<div><label for="${fieldId(o.name)}">${esc(o.label)}</label><input type="${o.type ?? 'text'}" ${d.attrs} value="${esc(o.value ?? '')}">${d.after}</div>`;
}

export function textareaField(o: FieldOptions): string {
  const d = described(o);
  return `<div><label for="${fieldId(o.name)}">${esc(o.label)}</label><textarea ${d.attrs}>${esc(o.value ?? '')}</textarea>${d.after}</div>`;
}

export function selectField(
  o: FieldOptions & {
    options: readonly { value: string; label: string }[];
    multiple?: boolean;
    selected?: readonly string[];
  },
): string {
  const d = described(o);
  const chosen = new Set(o.selected ?? (o.value ? [o.value] : []));
  const options = o.options
    .map((x) => `<option value="${esc(x.value)}"${chosen.has(x.value) ? ' selected' : ''}>${esc(x.label)}</option>`)
    .join('');
  return `<div><label for="${fieldId(o.name)}">${esc(o.label)}</label><select ${d.attrs}${o.multiple ? ' multiple' : ''}>${options}</select>${d.after}</div>`;
}

/**
 * A time zone picked from the list (IANA zones by region, UTC first) rather than typed. `blank`
 * adds a first option with an empty value (the settings page's "your browser's"); a stored value
 * the list lacks (an old alias) is kept as an option, so saving the form unchanged keeps it.
 */
export function zoneSelectField(o: FieldOptions & { blank?: string }): string {
  const d = described(o);
  const value = o.value ?? '';
  const option = (z: string, label = z.replace(/_/g, ' ')) =>
    `<option value="${esc(z)}"${z === value && z !== '' ? ' selected' : ''}>${esc(label)}</option>`;
  const groups = timeZonesByRegion();
  const known = value === '' || groups.some(([, zones]) => zones.includes(value));
  const first = `${o.blank !== undefined ? option('', o.blank) : ''}${known ? '' : option(value)}`;
  const body = groups
    .map(([region, zones]) =>
      region === 'UTC'
        ? zones.map((z) => option(z)).join('')
        : `<optgroup label="${esc(region)}">${zones.map((z) => option(z)).join('')}</optgroup>`,
    )
    .join('');
  return `<div><label for="${fieldId(o.name)}">${esc(o.label)}</label><select ${d.attrs}>${first}${body}</select>${d.after}</div>`;
}

export function checkboxField(o: { name: string; label: string; checked: boolean }): string {
  return `<div><label><input type="checkbox" name="${esc(o.name)}" value="true"${o.checked ? ' checked' : ''}> ${esc(o.label)}</label></div>`;
}

/** A button that posts (with the CSRF token and hidden fields) to `action`. */
export function actionButton(o: {
  action: string;
  label: string;
  csrf: string;
  hidden?: Record<string, string>;
  kind?: 'primary' | 'secondary' | 'danger';
}): string {
  const hidden = Object.entries(o.hidden ?? {})
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const cls = o.kind && o.kind !== 'primary' ? ` class="${o.kind}"` : '';
  return `<form class="inline" method="post" action="${esc(o.action)}">${csrfField(o.csrf)}${hidden}<button type="submit"${cls}>${esc(o.label)}</button></form>`;
}

/** The errors a problem lists for a repeated field (its own path or one of its items). */
function groupErrors(problem: FormProblem | null | undefined, name: string, label: string): string[] {
  return (problem?.errors ?? [])
    .filter((e) => e.path === name || e.path.startsWith(`${name}.`))
    .map((e) => fieldSentence(e, label));
}

/**
 * Checkboxes for picking several items (services, customers), in a fieldset with a legend; the
 * problem's errors for the field or any of its items show under it.
 */
export function choiceGroup(o: {
  name: string;
  legend: string;
  choices: readonly { id: string; name: string }[];
  selected: readonly string[];
  problem?: FormProblem | null;
  empty: string;
}): string {
  const id = fieldId(o.name);
  const errors = [...new Set(groupErrors(o.problem, o.name, o.legend))];
  const err = errors.length ? `<p class="field-error" id="${id}-error">${esc(errors.join('. '))}</p>` : '';
  const chosen = new Set(o.selected);
  const boxes = o.choices.length
    ? o.choices
        .map(
          (c) =>
            `<div><label><input type="checkbox" name="${esc(o.name)}" value="${esc(c.id)}"${chosen.has(c.id) ? ' checked' : ''}${errors.length ? ' aria-invalid="true"' : ''}> ${esc(c.name)}</label></div>`,
        )
        .join('')
    : `<p class="muted">${esc(o.empty)}</p>`;
  return `<fieldset id="${id}"${errors.length ? ` aria-describedby="${id}-error"` : ''}><legend>${esc(o.legend)}</legend>${boxes}${err}</fieldset>`;
}

/** A GET form that filters a list by one of `options` ('' = all); its ids never clash with a form's fields of the same name. */
export function stateFilter(
  action: string,
  name: string,
  label: string,
  options: readonly string[],
  value: string,
): string {
  const id = `filter-${name}`;
  const opts = [{ value: '', label: 'All' }, ...options.map((o) => ({ value: o, label: o.replace('_', ' ') }))]
    .map((o) => `<option value="${esc(o.value)}"${o.value === value ? ' selected' : ''}>${esc(o.label)}</option>`)
    .join('');
  return `<form method="get" action="${esc(action)}" class="actions" role="search" aria-label="Filter"><div><label for="${id}">${esc(label)}</label><select id="${id}" name="${esc(name)}">${opts}</select></div><div><button type="submit" class="secondary">Filter</button></div></form>`;
}
