import { SHOWN_ON_EVERY_PAGE } from '../../../domain/status-page/audience-warnings';
import { esc } from '../../html';
import {
  actionButton,
  checkboxField,
  choiceGroup,
  csrfField,
  type FormProblem,
  inputField,
  problemBox,
  stateFilter,
  textareaField,
} from '../forms';
import { zonedDateInput } from '../zoned-input';
import {
  type Choice,
  facts,
  link,
  namesOf,
  pager,
  stateBadge,
  table,
  timeline,
  type TimelineItem,
  zoneName,
  zonedTime,
} from '../parts';

export const MAINTENANCE_FILTER_STATES = ['scheduled', 'in_progress', 'completed', 'canceled'] as const;

function maintenanceTone(state: string): 'healthy' | 'degraded' | 'neutral' {
  return state === 'in_progress' ? 'degraded' : state === 'completed' ? 'healthy' : 'neutral';
}

const stateText = (state: string) => state.replace('_', ' ');

export interface MaintenanceRow {
  id: string;
  title: string;
  state: string;
  affected_services: string[];
  scheduled_start_at: string;
  scheduled_end_at: string;
}

export function maintenanceListBody(o: {
  rows: MaintenanceRow[];
  services: Choice[];
  state: string;
  nextCursor: string | null;
  canWrite: boolean;
  zone: string;
}): string {
  const rows = o.rows.map((m) => [
    link(`/console/maintenances/${m.id}`, m.title),
    stateBadge(stateText(m.state), maintenanceTone(m.state)),
    zonedTime(m.scheduled_start_at, o.zone),
    zonedTime(m.scheduled_end_at, o.zone),
    namesOf(m.affected_services, o.services),
  ]);
  const actions = o.canWrite
    ? `<p class="actions"><a class="button" href="/console/maintenances/new">Schedule maintenance</a></p>`
    : '';
  return `${actions}
${stateFilter('/console/maintenances', 'state', 'State', MAINTENANCE_FILTER_STATES, o.state)}
${table(['Maintenance', 'State', `Starts (${esc(o.zone)})`, `Ends (${esc(o.zone)})`, 'Affected services'], rows, o.state ? `No ${stateText(o.state)} maintenance windows.` : 'No maintenance windows yet.', 'Newest first')}
${pager('/console/maintenances', o.nextCursor, o.state ? { state: o.state } : {})}`;
}

export interface MaintenanceFormValues {
  title: string;
  description: string;
  scheduled_start_at: string;
  scheduled_end_at: string;
  affected_services: string[];
}

const FORM_FIELDS = ['title', 'description', 'scheduled_start_at', 'scheduled_end_at', 'affected_services'];

export function maintenanceFormBody(o: {
  csrf: string;
  values: MaintenanceFormValues;
  services: Choice[];
  zone: string;
  problem?: FormProblem | null;
}): string {
  const p = o.problem;
  return `${problemBox(p, FORM_FIELDS)}
<form class="stack" method="post" action="/console/maintenances/new">
${csrfField(o.csrf)}
${inputField({ name: 'title', label: 'Title', value: o.values.title, problem: p, required: true })}
${textareaField({ name: 'description', label: 'Description (optional)', value: o.values.description, problem: p })}
${zonedDateInput({ name: 'scheduled_start_at', label: 'Starts at', timeZone: o.zone, raw: o.values.scheduled_start_at, problem: p, required: true })}
${zonedDateInput({ name: 'scheduled_end_at', label: 'Ends at', timeZone: o.zone, raw: o.values.scheduled_end_at, problem: p, required: true })}
${choiceGroup({ name: 'affected_services', legend: `Affected services (none selected: ${SHOWN_ON_EVERY_PAGE})`, choices: o.services, selected: o.values.affected_services, problem: p, empty: 'The organization has no services yet.' })}
<p class="muted">Vigil announces it an hour before, starts it at the start time and completes it at the end time on its own; you can also start, complete or cancel it by hand.</p>
<div><button type="submit">Schedule maintenance</button> <a href="/console/maintenances">Cancel</a></div>
</form>`;
}

export interface MaintenanceDetail {
  id: string;
  title: string;
  state: string;
  description: string | null;
  affected_services: Choice[];
  affected_ids: string[];
  scheduled_start_at: string;
  scheduled_end_at: string;
  actual_start_at: string | null;
  actual_end_at: string | null;
  canceled_at: string | null;
  updated_at: string;
  timeline: TimelineItem[];
  /** The maintenance's workflow in the Temporal UI, when its URL is configured. */
  workflowUrl: string | null;
}

export interface MaintenanceActionProblem {
  form: 'reschedule' | 'start' | 'complete' | 'cancel' | 'messages';
  problem: FormProblem;
  values?: Record<string, string>;
}

/** What the viewer sees and may do: their zone (times shown and typed in it) and the forms' token. */
export interface MaintenanceViewerOptions {
  csrf: string;
  canWrite: boolean;
  zone: string;
  failed?: MaintenanceActionProblem | null;
}

const isOpen = (state: string) => state === 'scheduled' || state === 'in_progress';

function rescheduleSection(d: MaintenanceDetail, o: MaintenanceViewerOptions, base: string): string {
  const f = o.failed ?? null;
  const problem = f?.form === 'reschedule' ? f.problem : null;
  // After a refusal the fields keep what the user typed; otherwise they show the stored times in the viewer's zone.
  const field = (name: 'scheduled_start_at' | 'scheduled_end_at', label: string) =>
    zonedDateInput({
      name,
      label,
      timeZone: o.zone,
      value: d[name],
      raw: problem ? (f?.values?.[name] ?? '') : null,
      problem,
      required: true,
    });
  const start =
    d.state === 'scheduled'
      ? field('scheduled_start_at', 'Starts at')
      : `<p class="muted">It has started; only its end can move.</p>`;
  return `<section aria-labelledby="reschedule"><h2 id="reschedule">Reschedule</h2>
${problemBox(problem, [
  { name: 'scheduled_start_at', label: 'Starts at' },
  { name: 'scheduled_end_at', label: 'Ends at' },
])}
<form class="stack" method="post" action="${base}/reschedule">
${csrfField(o.csrf)}
${start}
${field('scheduled_end_at', 'Ends at')}
<p class="muted">The move is recorded on the timeline, which the status page shows.</p>
<div><button type="submit">Save new times</button></div>
</form></section>`;
}

function updateSection(o: MaintenanceViewerOptions, base: string): string {
  const f = o.failed ?? null;
  const problem = f?.form === 'messages' ? f.problem : null;
  const notify = problem ? f?.values?.notify_subscribers === 'true' : true;
  return `<section aria-labelledby="post-update"><h2 id="post-update">Post an update</h2>
${problemBox(problem, [{ name: 'body', label: 'Update' }])}
<form class="stack" method="post" action="${base}/messages">
${csrfField(o.csrf)}
${textareaField({ name: 'body', label: 'Update', value: problem ? (f?.values?.body ?? '') : '', problem, required: true, hint: 'Shown on the status page timeline.' })}
${checkboxField({ name: 'notify_subscribers', label: 'Notify subscribers (email the status page subscribers)', checked: notify })}
<div><button type="submit">Post update</button></div>
</form></section>`;
}

export function maintenanceDetailBody(d: MaintenanceDetail, o: MaintenanceViewerOptions): string {
  const f = o.failed ?? null;
  const summary = facts([
    ['State', stateBadge(stateText(d.state), maintenanceTone(d.state))],
    ['Scheduled start', zonedTime(d.scheduled_start_at, o.zone)],
    ['Scheduled end', zonedTime(d.scheduled_end_at, o.zone)],
    ['Started', zonedTime(d.actual_start_at, o.zone)],
    ['Completed', zonedTime(d.actual_end_at, o.zone)],
    ...(d.canceled_at ? ([['Canceled', zonedTime(d.canceled_at, o.zone)]] as [string, string][]) : []),
    ['Affected services', namesOf(d.affected_ids, d.affected_services)],
    ['Description', d.description ? esc(d.description) : '<span class="muted">none</span>'],
    ['Last change', zonedTime(d.updated_at, o.zone)],
    ['Id', `<code>${esc(d.id)}</code>`],
  ]);
  const workflow = d.workflowUrl
    ? `<p><a href="${esc(d.workflowUrl)}" rel="noopener">Open in Temporal UI</a> <span class="muted">(its workflow <code>maintenance:${esc(d.id)}</code>)</span></p>`
    : '';
  const base = `/console/maintenances/${d.id}`;
  // A refused form whose own section is not shown (a button, or the maintenance ended meanwhile) answers above the actions.
  const topProblem = f && !(isOpen(d.state) && (f.form === 'messages' || f.form === 'reschedule')) ? f.problem : null;
  let actions = topProblem ? problemBox(topProblem) : '';
  if (o.canWrite && d.state !== 'canceled' && d.state !== 'deleted') {
    const buttons = [
      d.state === 'scheduled' ? actionButton({ action: `${base}/start`, label: 'Start now', csrf: o.csrf }) : '',
      d.state === 'in_progress'
        ? actionButton({ action: `${base}/complete`, label: 'Complete now', csrf: o.csrf })
        : '',
      // Canceling is asked again on its own page (no script: a page, not a dialog); a window that is over cannot be canceled.
      isOpen(d.state) ? `<a class="button danger" href="${base}/cancel">Cancel maintenance…</a>` : '',
    ].filter(Boolean);
    actions = `${buttons.length ? `<section aria-labelledby="actions"><h2 id="actions">Actions</h2>${problemBox(topProblem)}<div class="actions">${buttons.join(' ')}</div></section>` : problemBox(topProblem)}
${isOpen(d.state) ? updateSection(o, base) : ''}
${isOpen(d.state) ? rescheduleSection(d, o, base) : ''}`;
  }
  return `<p><a href="/console/maintenances">← All maintenance windows</a></p>
${summary}
${workflow}
${actions}
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
<p class="muted">Oldest first, times in ${zoneName(o.zone)}.</p>
${timeline(d.timeline, 'Nothing has happened yet.', o.zone)}
</section>`;
}

/** The page that asks before canceling: what canceling does, then the button that does it. */
export function maintenanceCancelBody(
  d: Pick<MaintenanceDetail, 'id' | 'title' | 'state' | 'scheduled_start_at' | 'scheduled_end_at'>,
  o: { csrf: string; zone: string },
): string {
  const base = `/console/maintenances/${d.id}`;
  const what =
    d.state === 'completed'
      ? 'It has already completed; canceling marks it canceled.'
      : d.state === 'in_progress'
        ? 'It is in progress; canceling ends it now.'
        : `It is scheduled from ${zonedTime(d.scheduled_start_at, o.zone)} to ${zonedTime(d.scheduled_end_at, o.zone)}; canceling means it will not happen.`;
  return `<p>Cancel <strong>${esc(d.title)}</strong>? ${what}</p>
<p>The timeline gets "Maintenance canceled.", the status page shows it, and its subscribers are emailed. This cannot be undone.</p>
<div class="actions">${actionButton({ action: `${base}/cancel`, label: 'Yes, cancel the maintenance', csrf: o.csrf, kind: 'danger' })} <a href="${base}">No, keep it</a></div>`;
}
