import { isPushSourceType, sourceTypeRow } from '../../../domain/source-types';
import { esc } from '../../html';
import { managedNotice } from '../config-as-code';
import { type FormProblem, csrfField, inputField, problemBox, selectField } from '../forms';
import { OTHER_SETTINGS, type SourceField, formName, sourceFields } from './metric-form-fields';
import { OPERATION_CHOICES, THRESHOLD_FIELDS, type ThresholdValues, thresholdsInWords } from './metric-form-thresholds';
import {
  type LocationChoice,
  type MeasurementFormValues,
  MEASUREMENT_FIELDS,
  measurementFields,
  measurementProblem,
} from './metric-locations';
import { type ProbeTestOutcome, metricHref, probeOutcomeBlock } from './metrics';
import { prose, typeLabel, typeOptionGroups } from './metric-types';

/** What the metric form holds: as stored, or as sent back (with its problem). */
export interface MetricFormValues {
  service_id: string;
  name: string;
  source_type: string;
  interval_seconds: string;
  agent_id: string;
  unit: string;
  /** source_config fields by form name (`source_config.url`, OTHER_SETTINGS). */
  source: Record<string, string>;
  thresholds: ThresholdValues;
  measurement: MeasurementFormValues;
}

export interface MetricFormView {
  /** Absent: a new metric. */
  metricId?: string;
  storedConfigKey?: string | null;
  csrf: string;
  services: readonly { id: string; name: string }[];
  agents: readonly { id: string; name: string }[];
  locationChoices: LocationChoice[];
  labels: ReadonlyMap<string, string>;
  values: MetricFormValues;
  problem: FormProblem | null;
  /** The viewer may run probe tests (write:metrics or write:config). */
  canTest: boolean;
  test?: ProbeTestOutcome | null;
  temporalUiUrl: string | null;
  /** The viewer's zone: a pending test's deadline is shown in it. */
  zone: string;
}

const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The errors of one source_config field: its own path, or a path inside it (a header name, a list item). */
function errorsOf(problem: FormProblem | null, name: string): string[] {
  return (problem?.errors ?? [])
    .filter((e) => e.path === name || e.path.startsWith(`${name}.`) || e.path.startsWith(`${name}[`))
    .map((e) =>
      e.path === name ? e.message : `${e.path.slice(name.length + 1).replace(/^\[|\]$/g, '')}: ${e.message}`,
    );
}

const LABELS: Record<string, string> = {
  _other: 'Other settings',
  url: 'URL',
  json_path: 'JSON path',
  timeout_ms: 'Timeout (ms)',
  ca_cert_ref: 'CA certificate variable',
  tls: 'TLS',
  tls_verify: 'Verify TLS',
};
const labelOf = (key: string) =>
  LABELS[key] ??
  key
    .replace(/_ref$/, ' variable')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

function kindHint(f: SourceField): string {
  if (f.kind === 'pairs') return 'One per line as name: value.';
  if (f.kind === 'json') return 'A JSON object.';
  if (f.kind === 'statuses') return 'One status, or several separated by commas (e.g. 200, 204).';
  return '';
}

/** One source_config field with its label, the schema's help and its errors in words. */
function sourceInput(f: SourceField, value: string, problem: FormProblem | null): string {
  const name = formName(f);
  const id = fieldId(name);
  const errors = errorsOf(problem, name);
  const help = [
    f.help ? prose(f.help) : '',
    esc(kindHint(f)),
    f.defaultValue !== null ? `Default ${esc(f.defaultValue)}.` : '',
    f.required ? '' : 'Optional: leave empty for the default.',
  ]
    .filter(Boolean)
    .join(' ');
  const by = [`${id}-hint`, errors.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = `id="${id}" name="${esc(name)}"${f.required ? ' required' : ''}${errors.length ? ' aria-invalid="true"' : ''} aria-describedby="${by}"`;
  let control: string;
  if (f.kind === 'choice' || f.kind === 'boolean') {
    const options = [
      { value: '', label: f.required ? 'Choose…' : 'Default' },
      ...(f.kind === 'boolean' ? ['true', 'false'] : f.choices).map((c) => ({ value: c, label: c })),
    ];
    control = `<select ${attrs}>${options.map((o) => `<option value="${esc(o.value)}"${o.value === value ? ' selected' : ''}>${esc(o.label)}</option>`).join('')}</select>`;
  } else if (f.kind === 'longtext' || f.kind === 'pairs' || f.kind === 'json')
    control = `<textarea ${attrs}>${esc(value)}</textarea>`;
  else control = `<input type="${f.kind === 'integer' ? 'number' : 'text'}" ${attrs} value="${esc(value)}">`;
  const err = errors.length ? `<p class="field-error" id="${id}-error">${esc(errors.join('; '))}</p>` : '';
  return `<div><label for="${id}">${esc(labelOf(f.key))}${f.required ? '' : ' <span class="muted">(optional)</span>'}</label>${control}<p class="muted" id="${id}-hint">${help}</p>${err}</div>`;
}

/** The type's required fields: what to check, shown first. */
function sourceFieldset(v: MetricFormValues, problem: FormProblem | null): string {
  const fields = sourceFields(v.source_type).filter((f) => f.required);
  const t = typeLabel(v.source_type);
  const none = fields.length
    ? ''
    : `<p class="muted">Nothing is required here; settings are under Advanced settings.</p>`;
  return `<fieldset class="source-config"><legend>What to check: ${esc(t.label)}</legend>
${t.measures ? `<p class="muted">${esc(t.measures)}</p>` : ''}
${fields.map((f) => sourceInput(f, v.source[formName(f)] ?? '', problem)).join('\n')}${none}
</fieldset>`;
}

/** The type's optional fields and the box for any other setting, for the collapsed advanced settings. */
function moreSourceFields(v: MetricFormValues, problem: FormProblem | null): string {
  const all = sourceFields(v.source_type);
  const fields = all.filter((f) => !f.required);
  const other = v.source[OTHER_SETTINGS] ?? '';
  const otherField = {
    key: '_other',
    kind: 'json' as const,
    required: false,
    help: all.length
      ? 'Settings this form has no field for, as a JSON object (kept as they are).'
      : `${typeLabel(v.source_type).label} metrics take any settings object: write it as JSON.`,
    choices: [],
    defaultValue: null,
  };
  return `<fieldset class="source-config-more"><legend>More ${esc(typeLabel(v.source_type).label)} settings</legend>
${fields.map((f) => sourceInput(f, v.source[formName(f)] ?? '', problem)).join('\n')}
${sourceInput(otherField, other, problem)}
</fieldset>`;
}

/** The unit the thresholds are in, for their words: the metric's own, else what the type measures in. */
function unitOf(v: MetricFormValues): string | null {
  if (v.unit.trim()) return v.unit.trim();
  // A number read from a JSON answer is in the unit the source names, or bare (src/probes/http.ts).
  if (v.source['source_config.json_path']?.trim()) return v.source['source_config.unit']?.trim() || null;
  return typeLabel(v.source_type).unit;
}

function thresholdsFieldset(v: MetricFormValues, problem: FormProblem | null): string {
  const rule = sourceTypeRow(v.source_type)?.thresholds;
  if (rule === 'refused')
    return `<p class="muted">${esc(typeLabel(v.source_type).label)} metrics take no thresholds: their status is ${v.source_type === 'manual' ? 'set by hand' : 'the worst firing alert'}.</p>`;
  const optional = rule === 'optional';
  const t = v.thresholds;
  const unit = unitOf(v);
  const words = thresholdsInWords(t, unit);
  const ops = [{ value: '', label: optional ? 'None' : 'Choose…' }, ...OPERATION_CHOICES];
  const inUnit = unit ? ` (${unit})` : '';
  const fieldset = `<fieldset class="thresholds" aria-describedby="thresholds-words"><legend>Thresholds</legend>
<p class="muted">Unhealthy is checked first, then healthy; a value that meets neither is degraded. Comparisons are strict.${optional ? ' Leave all four empty for an up/down check.' : ''}</p>
<div class="threshold-row">${selectField({ name: 'thresholds.unhealthy_operation', label: 'Unhealthy when the value is', options: ops, value: t.unhealthy_operation, problem, required: !optional })}
${inputField({ name: 'thresholds.unhealthy_value', label: `Unhealthy value${inUnit}`, type: 'text', value: t.unhealthy_value, problem, required: !optional })}</div>
<div class="threshold-row">${selectField({ name: 'thresholds.healthy_operation', label: 'Healthy when the value is', options: ops, value: t.healthy_operation, problem, required: !optional })}
${inputField({ name: 'thresholds.healthy_value', label: `Healthy value${inUnit}`, type: 'text', value: t.healthy_value, problem, required: !optional })}</div>
<p id="thresholds-words" class="threshold-words">${words ? esc(words) : optional ? 'No thresholds: an up/down check.' : 'Fill in both rules to read them here in words (they are re-read whenever the form is sent or tested).'}</p>
</fieldset>`;
  if (!optional) return fieldset;
  const given = (Object.values(t) as string[]).some((x) => x.trim() !== '') || hasErrors(problem, THRESHOLD_FIELDS);
  return `<p class="up-down-note" id="up-down-note">${
    given
      ? 'With thresholds, the response time is judged by them; a status outside the accepted ones, or no answer, is still down.'
      : '<strong>Is it up?</strong> Without thresholds this check is up when the URL answers an accepted status (any 2xx after redirects, or the statuses under Advanced settings), and down when it answers another status or does not answer.'
  }</p>
<details class="thresholds-optional"${given ? ' open' : ''}><summary>Response-time thresholds (optional)</summary>
${fieldset}
</details>`;
}

function hasErrors(problem: FormProblem | null, paths: readonly string[]): boolean {
  return (problem?.errors ?? []).some((e) =>
    paths.some((p) => e.path === p || e.path.startsWith(`${p}.`) || e.path.startsWith(`${p}[`)),
  );
}

function placementHint(type: string): string {
  const row = sourceTypeRow(type);
  if (!row) return '';
  if (row.agentOnly) return 'Required: this type runs on an agent.';
  return 'None: the cloud checks it from Vigil’s locations (public targets only). A loopback or intranet address needs an agent: register one on the Agents page.';
}

function metricFieldset(view: MetricFormView, problem: FormProblem | null): string {
  const v = view.values;
  const services = [
    { value: '', label: 'Choose a service…' },
    ...view.services.map((s) => ({ value: s.id, label: s.name })),
  ];
  const agents = [
    { value: '', label: 'None: run from the cloud' },
    ...view.agents.map((a) => ({ value: a.id, label: a.name })),
  ];
  const agent = isPushSourceType(v.source_type)
    ? ''
    : selectField({
        name: 'agent_id',
        label: 'Agent',
        options: agents,
        value: v.agent_id,
        problem,
        hint: placementHint(v.source_type),
      });
  const interval = isPushSourceType(v.source_type)
    ? ''
    : inputField({
        name: 'interval_seconds',
        label: 'Check every (seconds)',
        type: 'number',
        value: v.interval_seconds,
        problem,
        hint: '5 to 86400; default 60.',
      });
  return `<fieldset><legend>Metric</legend>
${selectField({ name: 'service_id', label: 'Service', options: services, value: v.service_id, problem, required: true })}
${inputField({ name: 'name', label: 'Name', value: v.name, problem, required: true, hint: 'Shown on the console and status pages; 1 to 200 characters.' })}
${interval}
${agent}
${inputField({ name: 'unit', label: 'Unit (optional)', value: v.unit, problem, hint: 'How the value is shown (ms, %, days); at most 16 characters.' })}
</fieldset>`;
}

const TOP_FIELDS = ['service_id', 'name', 'interval_seconds', 'agent_id', 'unit', 'source_type'];

/** Every path a field of the form shows next to itself (the rest go in the summary at the top). */
function shownPaths(v: MetricFormValues): string[] {
  return [
    ...TOP_FIELDS,
    ...THRESHOLD_FIELDS,
    ...MEASUREMENT_FIELDS,
    OTHER_SETTINGS,
    ...sourceFields(v.source_type).map(formName),
  ];
}

/**
 * The type picker of a new metric: readable names grouped by what they watch (SOURCE_TYPE_LABELS),
 * a GET form so it works without script (`?type=http`); the service chosen below travels along.
 */
function typeChooser(v: MetricFormValues): string {
  const groups = typeOptionGroups()
    .map(
      (g) =>
        `<optgroup label="${esc(g.group)}">${g.types.map((o) => `<option value="${esc(o.value)}"${o.value === v.source_type ? ' selected' : ''}>${esc(o.label)}</option>`).join('')}</optgroup>`,
    )
    .join('');
  return `<form class="stack type-chooser" method="get" action="/console/metrics/new" aria-label="Choose the type">
<div><label for="choose-type">Type</label><select id="choose-type" name="type" aria-describedby="choose-type-hint">${groups}</select>
<p class="muted" id="choose-type-hint">What to watch. The form below shows that type’s settings.</p></div>
${v.service_id ? `<input type="hidden" name="service_id" value="${esc(v.service_id)}">` : ''}
<div class="actions"><button type="submit" class="secondary">Show its settings</button></div>
</form>`;
}

export function metricFormBody(view: MetricFormView): string {
  const v = view.values;
  const problem = view.problem;
  const editing = !!view.metricId;
  const action = editing ? `${metricHref(view.metricId!)}/edit` : '/console/metrics/new';
  const testable = !!sourceTypeRow(v.source_type)?.probeTestable && view.canTest;
  const measurement = isPushSourceType(v.source_type)
    ? ''
    : `<fieldset><legend>Locations and confirmation</legend>${measurementFields({ mode: v.agent_id ? 'agent' : 'cloud', labels: view.labels }, { csrf: view.csrf, choices: view.locationChoices, values: v.measurement, problem })}</fieldset>`;
  // Collapsed unless it holds something set or refused, so the form opens short.
  const optionalNames = sourceFields(v.source_type)
    .filter((f) => !f.required)
    .map(formName);
  const openAdvanced =
    [...optionalNames, OTHER_SETTINGS].some((n) => (v.source[n] ?? '').trim() !== '') ||
    hasErrors(problem, [...optionalNames, OTHER_SETTINGS, 'locations', ...MEASUREMENT_FIELDS]);
  const advanced = `<details class="advanced"${openAdvanced ? ' open' : ''}><summary>Advanced settings</summary>
${moreSourceFields(v, problem)}
${measurement}
</details>`;
  const test = view.test
    ? `<section aria-labelledby="form-test"><h2 id="form-test">Test this probe</h2>${probeOutcomeBlock(view.test, view.temporalUiUrl, view.zone)}</section>`
    : '';
  const buttons = `<div class="actions"><button type="submit" name="_action" value="save">${editing ? 'Save metric' : 'Create metric'}</button>${
    testable ? ` <button type="submit" name="_action" value="test" class="secondary">Test this probe</button>` : ''
  } <a href="${esc(editing ? metricHref(view.metricId!) : '/console/metrics')}">Cancel</a></div>`;
  const testHint = testable
    ? '<p class="muted">Test this probe runs the check once with the settings as they are on this form, before saving; nothing is stored.</p>'
    : '';
  return `<p><a href="/console/metrics">All metrics</a></p>
${managedNotice(view.storedConfigKey)}
${editing ? '' : typeChooser(v)}
${problemBox(problem ? measurementProblem(problem) : null, shownPaths(v))}
${test}
<form class="stack metric-form" method="post" action="${esc(action)}">${csrfField(view.csrf)}
<input type="hidden" name="source_type" value="${esc(v.source_type)}">
${metricFieldset(view, problem)}
${sourceFieldset(v, problem)}
${thresholdsFieldset(v, problem)}
${advanced}
${testHint}
${buttons}
</form>`;
}

/** The confirmation step of deleting a metric. */
export function metricDeleteBody(view: {
  metric: { id: string; name: string; config_key: string | null };
  problem: FormProblem | null;
  csrf: string;
}): string {
  const m = view.metric;
  const error = (view.problem?.errors ?? []).find((e) => e.path === 'confirm');
  return `<p><a href="${esc(metricHref(m.id))}">Back to the metric</a></p>
${managedNotice(m.config_key)}
${problemBox(view.problem, ['confirm'])}
<p>Delete <strong>${esc(m.name)}</strong>? It stops being checked and leaves the lists; an SLO or status page that uses it must be changed first.</p>
<form class="stack" method="post" action="${esc(`${metricHref(m.id)}/delete`)}">${csrfField(view.csrf)}
<div><label><input type="checkbox" name="confirm" value="yes"${error ? ' aria-invalid="true" aria-describedby="f-confirm-error"' : ''}> Yes, delete ${esc(m.name)}</label>${error ? `<p class="field-error" id="f-confirm-error">${esc(error.message)}</p>` : ''}</div>
<div class="actions"><button type="submit" class="danger">Delete metric</button> <a href="${esc(metricHref(m.id))}">Cancel</a></div>
</form>`;
}
