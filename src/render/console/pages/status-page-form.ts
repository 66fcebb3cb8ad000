import { esc, safeHttpUrl } from '../../html';
import { contrastRatio } from '../../contrast';
import { resolveTheme } from '../../styles';
import { managedNotice } from '../config-as-code';
import { sentenceFor } from '../form-errors';
import { type FormProblem, csrfField, inputField, problemBox, textareaField, zoneSelectField } from '../forms';
import type { Choice } from '../parts';

/** One row of a page's layout as the form holds it: a heading and `kind:id` picks, in order. */
export interface GroupRow {
  name: string;
  components: string[];
}

export interface StatusPageFormValues {
  title: string;
  subdomain: string;
  description: string;
  time_zone: string;
  logo_url: string;
  accent_color: string;
  header_color: string;
  viewer_public_key: string;
  links: { label: string; url: string }[];
  groups: GroupRow[];
}

export const EMPTY_STATUS_PAGE_FORM: StatusPageFormValues = {
  title: '',
  subdomain: '',
  description: '',
  time_zone: 'UTC',
  logo_url: '',
  accent_color: '',
  header_color: '',
  viewer_public_key: '',
  links: [],
  groups: [{ name: '', components: [''] }],
};

/** What a component picker offers: the organization's services, metrics and SLOs. */
export interface ComponentChoices {
  service: Choice[];
  metric: Choice[];
  slo: Choice[];
}

export interface StatusPageFormView {
  csrf: string;
  action: string;
  values: StatusPageFormValues;
  choices: ComponentChoices;
  problem?: FormProblem | null;
  /** Editing an existing page: its live URL and config key. */
  existing?: { id: string; url: string; config_key: string | null } | null;
}

/** Errors whose path is `path` or lies under it (`groups.0.components.1` takes `.id` and `.kind`). */
function errorsUnder(problem: FormProblem | null | undefined, path: string, label: string): string[] {
  return (problem?.errors ?? [])
    .filter((e) => e.path === path || e.path.startsWith(`${path}.`))
    .map((e) => sentenceFor(e, label));
}

function fieldError(id: string, messages: string[]): string {
  return messages.length ? `<p class="field-error" id="${id}-error">${esc([...new Set(messages)].join('. '))}</p>` : '';
}

const idOf = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A text input named by its API path, its errors (and those of its sub-paths) beside it. */
function pathInput(name: string, label: string, value: string, problem: FormProblem | null | undefined): string {
  const id = idOf(name);
  const errs = errorsUnder(problem, name, label);
  return `<div><label for="${id}">${esc(label)}</label><input type="text" id="${id}" name="${esc(name)}" value="${esc(value)}"${errs.length ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${fieldError(id, errs)}</div>`;
}

function componentSelect(
  name: string,
  label: string,
  value: string,
  choices: ComponentChoices,
  problem: FormProblem | null | undefined,
): string {
  const id = idOf(name);
  const errs = errorsUnder(problem, name, label);
  const known = new Set(
    Object.entries(choices).flatMap(([kind, list]) => (list as Choice[]).map((c) => `${kind}:${c.id}`)),
  );
  const opt = (v: string, text: string) =>
    `<option value="${esc(v)}"${v === value ? ' selected' : ''}>${esc(text)}</option>`;
  const groups = (
    [
      ['service', 'Services'],
      ['metric', 'Metrics'],
      ['slo', 'SLOs'],
    ] as const
  )
    .filter(([kind]) => choices[kind].length)
    .map(
      ([kind, heading]) =>
        `<optgroup label="${heading}">${choices[kind].map((c) => opt(`${kind}:${c.id}`, c.name)).join('')}</optgroup>`,
    )
    .join('');
  // A pick the organization no longer has stays selectable, so the refusal can name it.
  const stale = value && !known.has(value) ? opt(value, `Unknown (${value})`) : '';
  return `<div><label for="${id}">${esc(label)}</label><select id="${id}" name="${esc(name)}"${errs.length ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${opt('', '(none)')}${stale}${groups}</select>${fieldError(id, errs)}</div>`;
}

/** A submit button that changes the form's rows (re-rendered by the server) instead of saving. */
function opButton(op: string, label: string): string {
  return `<button type="submit" class="secondary" name="_op" value="${esc(op)}" formnovalidate>${esc(label)}</button>`;
}

function groupFieldset(g: GroupRow, gi: number, v: StatusPageFormView): string {
  const p = v.problem;
  const rows = g.components.map(
    (c, ci) =>
      `<li>${componentSelect(`groups.${gi}.components.${ci}.id`, `Component ${ci + 1}`, c, v.choices, p)}${ci > 0 ? `<div class="actions">${opButton(`up_component:${gi}:${ci}`, `Move component ${ci + 1} of group ${gi + 1} up`)}</div>` : ''}</li>`,
  );
  const own = (p?.errors ?? [])
    .filter((e) => e.path === `groups.${gi}` || e.path === `groups.${gi}.components`)
    .map((e) => sentenceFor(e, `Group ${gi + 1}`));
  return `<fieldset class="layout-group"><legend>Group ${gi + 1}</legend>
${inputField({ name: `groups.${gi}.name`, label: 'Heading (leave empty to show the components without one)', value: g.name, problem: p })}
<ol class="component-rows">${rows.join('')}</ol>
${fieldError(idOf(`groups.${gi}`), own)}
<div class="actions">${opButton(`add_component:${gi}`, `Add a component to group ${gi + 1}`)}${gi > 0 ? opButton(`up_group:${gi}`, `Move group ${gi + 1} up`) : ''}</div>
</fieldset>`;
}

/** What the page will show for these colours: the same adjustment the public page applies (WCAG AA). */
function colourNote(values: StatusPageFormValues): string {
  const hex = (s: string) => (/^#[0-9a-fA-F]{6}$/.test(s) ? s : null);
  const theme = resolveTheme({
    logo_url: null,
    accent_color: hex(values.accent_color),
    header_color: hex(values.header_color),
  });
  const ratio = (a: string, b: string) => contrastRatio(a, b).toFixed(1);
  const accent = hex(values.accent_color);
  const adjusted =
    accent && accent.toLowerCase() !== theme.link
      ? ` (your accent ${esc(accent.toLowerCase())} is darkened to reach 4.5:1)`
      : '';
  return `<div class="contrast-note" role="note"><p><strong>Contrast on the live page</strong> (WCAG AA needs 4.5:1 for text):</p><ul>
<li>Links and buttons: <code>${esc(theme.link)}</code> on white, ${ratio(theme.link, theme.page)}:1${adjusted}.</li>
<li>Header text: <code>${esc(theme.headerText)}</code> on <code>${esc(theme.headerBg)}</code>, ${ratio(theme.headerText, theme.headerBg)}:1.</li>
</ul></div>`;
}

export const STATUS_PAGE_FIELDS = [
  'title',
  'subdomain',
  'description',
  'time_zone',
  'branding.logo_url',
  'branding.accent_color',
  'branding.header_color',
  'viewer_public_key',
] as const;

/** Create or edit a status page: fields, branding, links and the grouped layout (no script: rows are added by submit buttons). */
export function statusPageFormBody(v: StatusPageFormView): string {
  const { values: x, problem: p } = v;
  const live = v.existing ? safeHttpUrl(v.existing.url) : null;
  const links = x.links.map(
    (l, i) =>
      `<div class="link-row">${pathInput(`links.${i}.label`, `Link ${i + 1} label`, l.label, p)}${pathInput(`links.${i}.url`, `Link ${i + 1} URL (https)`, l.url, p)}</div>`,
  );
  const subPaths = (prefix: string) => (p?.errors ?? []).filter((e) => e.path.startsWith(prefix)).map((e) => e.path);
  const shown = [...STATUS_PAGE_FIELDS, ...subPaths('links.'), ...subPaths('groups.')];
  return `${v.existing ? managedNotice(v.existing.config_key) : ''}
${v.existing ? `<p><a href="/console/status-pages">All status pages</a></p>` : ''}
${live ? `<p class="preview"><a href="${esc(live)}" rel="noopener">Open the live page</a> <span class="muted">(${esc(live)}; saved changes show there at once, there is no draft)</span></p>` : ''}
${problemBox(p, shown)}
<form class="stack publishing-form" method="post" action="${esc(v.action)}">
${csrfField(v.csrf)}
<button type="submit" name="_op" value="save" class="default-submit" tabindex="-1">Save</button>
${inputField({ name: 'title', label: 'Title', value: x.title, problem: p, required: true })}
${inputField({ name: 'subdomain', label: 'Subdomain', value: x.subdomain, problem: p, required: true, hint: '3 to 63 lower-case letters, digits and single hyphens; the page is served at <subdomain>.<status host>.' })}
${textareaField({ name: 'description', label: 'Description (optional)', value: x.description, problem: p })}
${zoneSelectField({ name: 'time_zone', label: 'Time zone', value: x.time_zone, problem: p, hint: "The page shows its times in this zone, named; with script, in each visitor's own zone." })}
<fieldset><legend>Branding</legend>
${inputField({ name: 'branding.logo_url', label: 'Logo URL (https, optional)', value: x.logo_url, problem: p })}
${inputField({ name: 'branding.accent_color', label: 'Accent colour (#rrggbb, optional)', value: x.accent_color, problem: p })}
${inputField({ name: 'branding.header_color', label: 'Header colour (#rrggbb, optional)', value: x.header_color, problem: p })}
${colourNote(x)}
</fieldset>
<fieldset><legend>Links (up to 10)</legend>
${links.join('\n')}
<div class="actions">${opButton('add_link', 'Add a link')}</div>
<p class="muted">A link with an empty label and URL is left out.</p>
</fieldset>
<fieldset><legend>What the page shows, in order</legend>
<p class="muted">Services show the worst status of their metrics; metrics show their own; SLOs show their attainment. A component set to (none) is left out, and so is a group with neither heading nor components.</p>
${x.groups.map((g, gi) => groupFieldset(g, gi, v)).join('\n')}
<div class="actions">${opButton('add_group', 'Add a group')}</div>
</fieldset>
<details><summary>Viewer public key (advanced)</summary>
${textareaField({ name: 'viewer_public_key', label: 'Your own PEM (SPKI) public key for viewer tokens (optional)', value: x.viewer_public_key, problem: p })}
</details>
<div class="actions"><button type="submit" name="_op" value="save">${v.existing ? 'Save changes' : 'Create status page'}</button></div>
</form>
${v.existing ? `<p><a class="danger-link" href="/console/status-pages/${esc(encodeURIComponent(v.existing.id))}/delete">Delete this status page…</a></p>` : ''}`;
}

/** "Delete this page?": what goes, and the button that does it. */
export function statusPageDeleteBody(o: {
  csrf: string;
  id: string;
  title: string;
  url: string;
  config_key: string | null;
  problem?: FormProblem | null;
}): string {
  const href = `/console/status-pages/${encodeURIComponent(o.id)}`;
  return `${managedNotice(o.config_key)}
${problemBox(o.problem)}
<p>Delete the status page <strong>${esc(o.title)}</strong>? Its address <code>${esc(o.url)}</code> answers 404 at once and can be reused. A page with active subscribers cannot be deleted: remove them first.</p>
<form class="actions" method="post" action="${esc(href)}/delete">${csrfField(o.csrf)}<button type="submit" class="danger">Delete status page</button> <a href="${esc(href)}">Keep it</a></form>`;
}

/** A status page as a reader (no write:config) sees it: its fields and layout, no form. */
export function statusPageReadBody(o: {
  id: string;
  url: string;
  config_key: string | null;
  values: StatusPageFormValues;
  choices: ComponentChoices;
}): string {
  const x = o.values;
  const live = safeHttpUrl(o.url);
  const names = new Map<string, string>(
    Object.entries(o.choices).flatMap(([kind, list]) =>
      (list as Choice[]).map((c): [string, string] => [`${kind}:${c.id}`, c.name]),
    ),
  );
  const groups = x.groups
    .map(
      (g) =>
        `<li>${g.name ? esc(g.name) : '<span class="muted">(no heading)</span>'}<ul>${g.components.map((c) => `<li>${esc(names.get(c) ?? c)}</li>`).join('')}</ul></li>`,
    )
    .join('');
  const dash = '<span class="muted">—</span>';
  const rows: [string, string][] = [
    ['Live page', live ? `<a href="${esc(live)}" rel="noopener">${esc(live)}</a>` : esc(o.url)],
    ['Subdomain', `<code>${esc(x.subdomain)}</code>`],
    ['Description', x.description ? esc(x.description) : dash],
    ['Time zone', esc(x.time_zone)],
    ['Logo', x.logo_url ? `<code>${esc(x.logo_url)}</code>` : dash],
    ['Accent colour', x.accent_color ? `<code>${esc(x.accent_color)}</code>` : dash],
    ['Header colour', x.header_color ? `<code>${esc(x.header_color)}</code>` : dash],
    ['Links', x.links.length ? x.links.map((l) => `${esc(l.label)} <code>${esc(l.url)}</code>`).join('<br>') : dash],
  ];
  return `${managedNotice(o.config_key)}
<p><a href="/console/status-pages">All status pages</a></p>
<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>
<h2>What the page shows</h2>
${groups ? `<ol class="layout-read">${groups}</ol>` : '<p class="muted">Nothing yet.</p>'}`;
}
