import { esc } from '../../html';
import { exportLink, managedMarker, managedNotice } from '../config-as-code';
import {
  type FormProblem,
  actionButton,
  csrfField,
  inputField,
  problemBox,
  selectField,
  zoneSelectField,
} from '../forms';
import { type Choice, facts, link, pager, stateBadge, table } from '../parts';

type Window = { kind: 'rolling'; days: number } | { kind: 'calendar_month'; timezone: string };

/** An SLO as the API answers it (the fields the console shows). */
export interface ConsoleSlo {
  id: string;
  name: string;
  config_key: string | null;
  metric_id: string | null;
  service_id: string | null;
  objective: string;
  window: Window;
  no_data: string;
  maintenance: string;
  degraded: string;
  attainment: {
    attainment: string | null;
    met: boolean;
    error_budget_remaining_pct: string | null;
    period_label: string | null;
  } | null;
}

/** The form's fields as typed (strings), so a refused form shows what was sent. */
export interface SloFormValues {
  name: string;
  target: string;
  objective: string;
  window_kind: string;
  window_days: string;
  window_timezone: string;
  no_data: string;
  maintenance: string;
  degraded: string;
}

export const sloHref = (id: string) => `/console/slos/${encodeURIComponent(id)}`;
const muted = (text: string) => `<span class="muted">${esc(text)}</span>`;

export function windowText(w: Window): string {
  return w.kind === 'rolling' ? `rolling ${w.days} day${w.days === 1 ? '' : 's'}` : `calendar month (${w.timezone})`;
}

function targetText(s: ConsoleSlo, names: Map<string, string>): string {
  const id = s.metric_id ?? s.service_id ?? '';
  const label = s.metric_id ? 'metric' : 'service';
  return `${muted(label)} ${names.has(id) ? esc(names.get(id)!) : `<code>${esc(id)}</code>`}`;
}

function attainmentText(s: ConsoleSlo): string {
  const a = s.attainment;
  if (!a || a.attainment === null) return muted('nothing counted yet');
  const budget =
    a.error_budget_remaining_pct === null ? '' : `<br>${muted('budget left')} ${esc(a.error_budget_remaining_pct)}%`;
  return `${esc(a.attainment)}% ${a.met ? stateBadge('met', 'healthy') : stateBadge('not met', 'unhealthy')}${budget}`;
}

/** Every SLO with its attainment now; create; export the section as YAML. */
export function sloListBody(
  slos: ConsoleSlo[],
  nextCursor: string | null,
  names: Map<string, string>,
  canWrite: boolean,
): string {
  const rows = slos.map((s) => [
    `${link(sloHref(s.id), s.name)}${managedMarker(s.config_key)}`,
    targetText(s, names),
    `${esc(s.objective)}%`,
    esc(windowText(s.window)),
    attainmentText(s),
  ]);
  return `${canWrite ? '<p class="actions"><a class="button" href="/console/slos/new">Create an SLO</a></p>' : ''}
${exportLink('slo')}
${table(['Name', 'Over', 'Objective', 'Window', 'Attainment now'], rows, 'No SLOs yet.')}
${pager('/console/slos', nextCursor)}`;
}

const NO_DATA = [
  { value: 'excluded', label: 'excluded (not counted)' },
  { value: 'bad', label: 'bad' },
  { value: 'good', label: 'good' },
];
const MAINTENANCE = [
  { value: 'excluded', label: 'excluded (not counted)' },
  { value: 'good', label: 'good' },
  { value: 'counted', label: 'counted as measured' },
];
const DEGRADED = [
  { value: 'good', label: 'good' },
  { value: 'bad', label: 'bad' },
];

/** The create form (`target` picks a metric or a service) or the edit form (the target is fixed). */
export function sloFormBody(d: {
  csrf: string;
  action: string;
  values: SloFormValues;
  problem: FormProblem | null;
  services: Choice[];
  metrics: Choice[];
  slo: ConsoleSlo | null;
  names: Map<string, string>;
}): string {
  const v = d.values;
  const target = d.slo
    ? facts([['Over', targetText(d.slo, d.names)]])
    : selectField({
        name: 'target',
        label: 'Over',
        value: v.target,
        problem: d.problem,
        required: true,
        hint: 'One metric, or one service (the worst of its metrics at each moment).',
        options: [
          { value: '', label: 'Pick a service or a metric' },
          ...d.services.map((s) => ({ value: `service:${s.id}`, label: `Service: ${s.name}` })),
          ...d.metrics.map((m) => ({ value: `metric:${m.id}`, label: `Metric: ${m.name}` })),
        ],
      });
  return `${managedNotice(d.slo?.config_key)}
${problemBox(d.problem, ['name', 'target', 'metric_id', 'service_id', 'objective', 'window.kind', 'window.days', 'window.timezone', 'no_data', 'maintenance', 'degraded'])}
<form class="stack" method="post" action="${esc(d.action)}">${csrfField(d.csrf)}
${inputField({ name: 'name', label: 'Name', value: v.name, problem: d.problem, required: true })}
${target}
${inputField({ name: 'objective', label: 'Objective (percent of good time)', value: v.objective, problem: d.problem, required: true, hint: 'A decimal percent, e.g. 99.9' })}
<fieldset><legend>Window</legend>
${selectField({
  name: 'window.kind',
  label: 'Kind',
  value: v.window_kind,
  problem: d.problem,
  options: [
    { value: 'rolling', label: 'Rolling days ending now' },
    { value: 'calendar_month', label: 'Calendar month' },
  ],
})}
${inputField({ name: 'window.days', label: 'Days (rolling window)', type: 'number', value: v.window_days, problem: d.problem, hint: '1 to 366' })}
${zoneSelectField({ name: 'window.timezone', label: 'Time zone (calendar month)', value: v.window_timezone, problem: d.problem, blank: 'Choose a zone (calendar month only)', hint: 'The zone whose calendar months the window follows.' })}
</fieldset>
${selectField({ name: 'no_data', label: 'Time without data counts as', value: v.no_data, options: NO_DATA, problem: d.problem })}
${selectField({ name: 'maintenance', label: 'Time inside maintenance windows counts as', value: v.maintenance, options: MAINTENANCE, problem: d.problem })}
${selectField({ name: 'degraded', label: 'Degraded time counts as', value: v.degraded, options: DEGRADED, problem: d.problem })}
<div><button type="submit">${d.slo ? 'Save' : 'Create the SLO'}</button> <a href="/console/slos">Cancel</a></div>
</form>`;
}

/** What the SLO is and how it stands now (the detail page, above the edit form). */
export function sloSummaryBody(s: ConsoleSlo, names: Map<string, string>): string {
  return facts([
    ['Over', targetText(s, names)],
    ['Objective', `${esc(s.objective)}%`],
    ['Window', esc(windowText(s.window))],
    ['Attainment now', attainmentText(s)],
    ['Config key', s.config_key ? `<code>${esc(s.config_key)}</code>` : muted('none (made outside config as code)')],
  ]);
}

/** The edit page's footer: delete (asks first on its own page). */
export function sloDeleteLink(s: ConsoleSlo): string {
  return `<h2>Delete</h2><p>${link(`${sloHref(s.id)}/delete`, `Delete ${s.name}…`)}</p>`;
}

export function sloDeleteBody(s: ConsoleSlo, csrf: string, problem: FormProblem | null): string {
  return `${managedNotice(s.config_key)}${problemBox(problem)}
<p>Delete the SLO <strong>${esc(s.name)}</strong> (${esc(s.objective)}% over ${esc(windowText(s.window))})? A status page that shows it must stop showing it first.</p>
<div class="actions">${actionButton({ action: `${sloHref(s.id)}/delete`, label: 'Delete the SLO', csrf, kind: 'danger' })} <a href="${esc(sloHref(s.id))}">Cancel</a></div>`;
}
