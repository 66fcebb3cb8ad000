import { type Confirmation, type Quorum, type Vote, effectiveVote, voteKind } from '../../../domain/confirmation';
import { esc } from '../../html';
import { type FormProblem, csrfField, inputField, problemBox, selectField } from '../forms';
import { facts, stateBadge, table, toneOfStatus, zonedTime } from '../parts';

/**
 * Confirmation across locations on a metric's console page: the locations that measure it with each one's latest
 * answer, its confirmation (settings and what is pending), its status flips with the votes that
 * confirmed them, and the form that changes locations and confirmation (the API's PATCH).
 */

/** One location's latest answer (GET /v1/metrics/{id}'s `location_readings`). */
export interface LocationReadingRow {
  location: string;
  label: string | null;
  value: number | null;
  status: string;
  reason: string | null;
  reason_class: 'target' | 'measurement' | null;
  at: string | null;
  offline: boolean;
}

/** A flip (GET /v1/metrics/{id}/flips). */
export interface FlipRow {
  id: string;
  from_status: string;
  to_status: string;
  reason: string | null;
  at: string;
  confirmed_at: string | null;
  confirmations: number | null;
  rounds: { at: string; votes: Vote[] }[];
}

/** A location the form offers (GET /v1/locations). */
export interface LocationChoice {
  id: string;
  label: string;
  kind: 'cloud' | 'agent';
  status: string;
}

/** What the form holds: as stored, or as sent back with a problem. */
export interface MeasurementFormValues {
  locations: string[];
  quorum: string;
  failures: string;
  recoveries: string;
  recheck: boolean;
}

export interface MetricLocationsView {
  metricId: string;
  mode: 'agent' | 'cloud' | 'push';
  unit: string | null;
  /** As configured; null: the default. */
  locations: string[] | null;
  confirmation: Confirmation | null;
  readings: LocationReadingRow[];
  pending: { to_status: string; rounds: number; needed: number; since: string; summary: string } | null;
  flips: FlipRow[];
  /** More flips than shown: the API lists them all. */
  moreFlips: boolean;
  /** Location ids to names (cloud labels, agent names), for votes and choices. */
  labels: ReadonlyMap<string, string>;
  /** The form, when the viewer may change the metric (write:metrics); a pushed metric shows only its problem. */
  form: { csrf: string; choices: LocationChoice[]; values: MeasurementFormValues; problem: FormProblem | null } | null;
  /** The viewer's zone: every time on the page is shown in it. */
  zone: string;
}

export function measurementValues(locations: string[] | null, c: Confirmation | null): MeasurementFormValues {
  const confirmation = c ?? { quorum: 'majority', failures: 2, recoveries: 2, recheck: false };
  return {
    locations: locations ?? [],
    quorum: String(confirmation.quorum),
    failures: String(confirmation.failures),
    recoveries: String(confirmation.recoveries),
    recheck: confirmation.recheck,
  };
}

const dash = '<span class="muted">—</span>';

function nameOf(view: Pick<MetricLocationsView, 'labels'>, id: string): string {
  const label = view.labels.get(id);
  return label ? `${esc(label)} <code class="muted">${esc(id)}</code>` : `<code>${esc(id)}</code>`;
}

const shortName = (view: Pick<MetricLocationsView, 'labels'>, id: string) => esc(view.labels.get(id) ?? id);

export function quorumText(q: Quorum): string {
  if (q === 'majority') return 'a majority of the voting locations';
  if (q === 'any') return 'any one location';
  if (q === 'all') return 'every voting location';
  return `at least ${q} location${q === 1 ? '' : 's'}`;
}

function configuredText(view: MetricLocationsView): string {
  if (view.mode === 'push') return '<span class="muted">Pushed to Vigil: no location measures it.</span>';
  if (!view.locations)
    return view.mode === 'agent' ? 'The default: its agent' : 'The default: every online cloud location';
  return view.locations.map((id) => nameOf(view, id)).join(', ');
}

function valueText(value: number | null, unit: string | null): string {
  return value === null ? 'no value' : unit ? `${value} ${unit}` : String(value);
}

function readingsTable(view: MetricLocationsView): string {
  const rows = view.readings.map((r) => {
    const status = r.offline
      ? `${stateBadge('location offline', 'neutral')} <span class="muted">· absent: it does not vote</span>`
      : `${stateBadge(r.status.replace(/_/g, ' '), toneOfStatus(r.status))}${r.status === 'no_data' ? ` <span class="muted">· ${r.reason_class === 'target' ? 'counts as a failing vote' : 'no vote'}</span>` : ''}`;
    return [
      nameOf(view, r.location),
      status,
      r.offline ? dash : esc(valueText(r.value, view.unit)),
      r.reason && !r.offline ? `<code>${esc(r.reason)}</code>` : dash,
      r.at ? zonedTime(r.at, view.zone) : '<span class="muted">never</span>',
    ];
  });
  return table(
    ['Location', 'Latest answer', 'Value', 'Reason', 'Answered at'],
    rows,
    'No location has answered yet.',
    'Each location’s latest answer',
  );
}

function confirmationFacts(view: MetricLocationsView): string {
  const c = view.confirmation;
  if (!c) return '';
  const p = view.pending;
  const pending = p
    ? `<strong id="confirmation-pending">${esc(p.summary)}</strong> <span class="muted">· towards</span> ${stateBadge(p.to_status.replace(/_/g, ' '), toneOfStatus(p.to_status))} <span class="muted">since</span> ${zonedTime(p.since, view.zone)}`
    : '<span class="muted">Nothing pending: the status shown is confirmed.</span>';
  return facts([
    ['A round fails when', esc(quorumText(c.quorum))],
    ['Flips after', `${c.failures} consecutive failing round${c.failures === 1 ? '' : 's'}`],
    ['Returns after', `${c.recoveries} consecutive good round${c.recoveries === 1 ? '' : 's'}`],
    [
      'Recheck',
      c.recheck ? 'on: a failing location’s check runs once more from another location before its vote counts' : 'off',
    ],
    ['Pending', pending],
  ]);
}

/** How many locations voted for the change in the round that confirmed it, and which. */
export function confirmingVotes(f: FlipRow): { agreeing: Vote[]; voting: number } | null {
  const last = f.rounds.at(-1);
  if (!last) return null;
  const votes = last.votes.map(effectiveVote);
  const kinds = votes.map((v) => ({ v, kind: voteKind(v) })).filter((k) => k.kind !== 'absent');
  const wanted = f.to_status === 'healthy' ? 'pass' : 'fail';
  return { agreeing: kinds.filter((k) => k.kind === wanted).map((k) => k.v), voting: kinds.length };
}

function flipsTable(view: MetricLocationsView): string {
  const rows = view.flips.map((f) => {
    const votes = confirmingVotes(f);
    const votesCell = votes?.voting
      ? `${votes.agreeing.length} of ${votes.voting} location${votes.voting === 1 ? '' : 's'}${votes.agreeing.length ? ` <span class="muted">(${votes.agreeing.map((v) => shortName(view, v.location)).join(', ')})</span>` : ''}`
      : dash;
    const rounds = f.confirmations === null ? dash : `${f.confirmations} round${f.confirmations === 1 ? '' : 's'}`;
    return [
      `${stateBadge(f.from_status.replace(/_/g, ' '), toneOfStatus(f.from_status))} → ${stateBadge(f.to_status.replace(/_/g, ' '), toneOfStatus(f.to_status))}${f.reason ? ` <code>${esc(f.reason)}</code>` : ''}`,
      zonedTime(f.at, view.zone),
      f.confirmed_at ? zonedTime(f.confirmed_at, view.zone) : dash,
      rounds,
      votesCell,
    ];
  });
  const more = view.moreFlips
    ? `<p class="muted">Older flips: <code>GET /v1/metrics/${esc(view.metricId)}/flips</code> lists them all with every round’s votes.</p>`
    : '';
  return `${table(['Change', 'Began', 'Confirmed', 'Confirmed over', 'Locations that confirmed it'], rows, 'No status change yet.', 'Newest first; a change counts from the first of the rounds that confirmed it')}${more}`;
}

const LOCATION_PATH = /^locations(\[\d+\]|\.\d+)?$/;

/** The form's location errors, each naming the location it is about (`locations[1]` is the second one sent). */
function locationErrors(problem: FormProblem | null, sent: readonly string[]): string[] {
  return (problem?.errors ?? [])
    .filter((e) => LOCATION_PATH.test(e.path))
    .map((e) => {
      const i = /(\d+)\]?$/.exec(e.path);
      const id = i ? sent[Number(i[1])] : undefined;
      return id ? `${id}: ${e.message}` : e.message;
    });
}

type MeasurementForm = NonNullable<MetricLocationsView['form']>;

function locationsFieldset(view: Pick<MetricLocationsView, 'mode' | 'labels'>, form: MeasurementForm): string {
  if (view.mode === 'agent') return '<p>Measured by its agent (an agent metric reaches what only its agent can).</p>';
  const chosen = new Set(form.values.locations);
  const offered = [...form.choices];
  // A location the metric names that is no longer listed stays offered (checked), so saving keeps it unless unticked.
  for (const id of form.values.locations)
    if (!offered.some((c) => c.id === id))
      offered.push({
        id,
        label: view.labels.get(id) ?? id,
        kind: id.startsWith('agent:') ? 'agent' : 'cloud',
        status: 'unknown',
      });
  const errors = locationErrors(form.problem, form.values.locations);
  const err = errors.length ? `<p class="field-error" id="f-locations-error">${esc(errors.join('; '))}</p>` : '';
  const boxes = offered.length
    ? offered
        .map(
          (c) =>
            `<div><label><input type="checkbox" name="locations" value="${esc(c.id)}"${chosen.has(c.id) ? ' checked' : ''}${errors.length ? ' aria-invalid="true"' : ''}> ${esc(c.label)} <code class="muted">${esc(c.id)}</code> <span class="muted">· ${c.kind === 'agent' ? 'agent, ' : ''}${esc(c.status)}</span></label></div>`,
        )
        .join('')
    : '<p class="muted">No location has registered yet.</p>';
  return `<fieldset id="f-locations"${errors.length ? ' aria-describedby="f-locations-error"' : ''}><legend>Locations</legend>
<p class="muted" id="f-locations-hint">None ticked: every online cloud location (the default). Agents vote next to cloud locations when the target is public.</p>${boxes}${err}</fieldset>`;
}

/** The locations and confirmation fields (no form around them): the metric's page and its create and edit forms use them. */
export function measurementFields(view: Pick<MetricLocationsView, 'mode' | 'labels'>, form: MeasurementForm): string {
  const v = form.values;
  const p = form.problem;
  const most = Math.max(3, form.choices.length, Number(v.quorum) || 0);
  const quorums = [
    { value: 'majority', label: 'majority: more than half of the voting locations' },
    { value: 'any', label: 'any: one failing location' },
    { value: 'all', label: 'all: every voting location' },
    ...Array.from({ length: Math.min(most, 20) }, (_, i) => ({
      value: String(i + 1),
      label: `at least ${i + 1} location${i ? 's' : ''}`,
    })),
  ];
  return `${locationsFieldset(view, form)}
${selectField({ name: 'confirmation.quorum', label: 'A round fails when', options: quorums, value: v.quorum, problem: p, required: true })}
${inputField({ name: 'confirmation.failures', label: 'Failing rounds before it flips', type: 'number', value: v.failures, problem: p, required: true, hint: '1 to 10 consecutive rounds; the outage counts from the first of them' })}
${inputField({ name: 'confirmation.recoveries', label: 'Good rounds before it returns', type: 'number', value: v.recoveries, problem: p, required: true, hint: '1 to 10 consecutive rounds' })}
<div><label><input type="checkbox" name="confirmation.recheck" value="true"${v.recheck ? ' checked' : ''}> Recheck: run a failing location’s check once more from another location before its vote counts</label></div>`;
}

/** The problem above the measurement fields, without the location errors the fieldset shows itself. */
export function measurementProblem(p: FormProblem | null): FormProblem | null {
  return p ? { ...p, errors: (p.errors ?? []).filter((e) => !LOCATION_PATH.test(e.path)) } : null;
}

export const MEASUREMENT_FIELDS = [
  'confirmation.quorum',
  'confirmation.failures',
  'confirmation.recoveries',
  'confirmation.recheck',
];

function measurementForm(view: MetricLocationsView, form: MeasurementForm): string {
  return `<section aria-labelledby="measurement"><h2 id="measurement">Change locations and confirmation</h2>
${problemBox(measurementProblem(form.problem), MEASUREMENT_FIELDS)}
<form class="stack" method="post" action="/console/metrics/${esc(encodeURIComponent(view.metricId))}/measurement">${csrfField(form.csrf)}
${measurementFields(view, form)}
<div class="actions"><button type="submit">Save locations and confirmation</button></div>
</form></section>`;
}

export function metricLocationsSections(view: MetricLocationsView): string {
  const locations =
    view.mode === 'push'
      ? `<section aria-labelledby="locations"><h2 id="locations">Locations and confirmation</h2>${problemBox(view.form?.problem)}<p class="muted">Pushed to Vigil: no location measures it, and its status counts as sent.</p></section>`
      : `<section aria-labelledby="locations"><h2 id="locations">Locations</h2>
${facts([['Measured by', configuredText(view)]])}
${readingsTable(view)}</section>
<section aria-labelledby="confirmation"><h2 id="confirmation">Confirmation</h2>
${confirmationFacts(view)}</section>`;
  const flips = `<section aria-labelledby="flips"><h2 id="flips">Status flips</h2>
${flipsTable(view)}</section>`;
  const form = view.form && view.mode !== 'push' ? measurementForm(view, view.form) : '';
  return `${locations}
${flips}
${form}`;
}
