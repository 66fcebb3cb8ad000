import { SHOWN_ON_EVERY_PAGE } from '../../../domain/status-page/audience-warnings';
import { esc } from '../../html';
import { actionButton, choiceGroup, csrfField, type FormProblem, inputField, problemBox, stateFilter, textareaField } from '../forms';
import { type Choice, facts, link, namesOf, pager, stateBadge, table, timeline, type TimelineItem, utcTime } from '../parts';

export const MAINTENANCE_FILTER_STATES = ['scheduled', 'in_progress', 'completed', 'canceled'] as const;

/** A datetime-local value (UTC, minutes) of an ISO instant. */
export function utcLocalOf(iso: string | null): string {
  return iso ? iso.slice(0, 16) : '';
}

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

export function maintenanceListBody(o: { rows: MaintenanceRow[]; services: Choice[]; state: string; nextCursor: string | null; canWrite: boolean }): string {
  const rows = o.rows.map((m) => [
    link(`/console/maintenances/${m.id}`, m.title),
    stateBadge(stateText(m.state), maintenanceTone(m.state)),
    utcTime(m.scheduled_start_at),
    utcTime(m.scheduled_end_at),
    namesOf(m.affected_services, o.services),
  ]);
  const actions = o.canWrite ? `<p class="actions"><a class="button" href="/console/maintenances/new">Schedule maintenance</a></p>` : '';
  return `${actions}
${stateFilter('/console/maintenances', 'state', 'State', MAINTENANCE_FILTER_STATES, o.state)}
${table(['Maintenance', 'State', 'Starts (UTC)', 'Ends (UTC)', 'Affected services'], rows, o.state ? `No ${stateText(o.state)} maintenance windows.` : 'No maintenance windows yet.', 'Newest first')}
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

export function maintenanceFormBody(o: { csrf: string; values: MaintenanceFormValues; services: Choice[]; problem?: FormProblem | null }): string {
  const p = o.problem;
  return `${problemBox(p, FORM_FIELDS)}
<form class="stack" method="post" action="/console/maintenances/new">
${csrfField(o.csrf)}
${inputField({ name: 'title', label: 'Title', value: o.values.title, problem: p, required: true })}
${textareaField({ name: 'description', label: 'Description (optional)', value: o.values.description, problem: p })}
${inputField({ name: 'scheduled_start_at', label: 'Starts at (UTC)', type: 'datetime-local', value: o.values.scheduled_start_at, problem: p, required: true })}
${inputField({ name: 'scheduled_end_at', label: 'Ends at (UTC)', type: 'datetime-local', value: o.values.scheduled_end_at, problem: p, required: true })}
${choiceGroup({ name: 'affected_services', legend: `Affected services (none selected: ${SHOWN_ON_EVERY_PAGE})`, choices: o.services, selected: o.values.affected_services, problem: p, empty: 'The organization has no services yet.' })}
<p class="muted">Vigil announces it an hour before, starts it at the start time and completes it at the end time on its own; you can also start, complete or cancel it by hand.</p>
<div><button type="submit">Schedule maintenance</button> <a href="/console/maintenances">Cancel</a></div>
</form>`;
}

export interface MaintenanceDetail {
  id: string;
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
  form: 'reschedule' | 'start' | 'complete' | 'cancel';
  problem: FormProblem;
  values?: Record<string, string>;
}

export function maintenanceDetailBody(d: MaintenanceDetail, o: { csrf: string; canWrite: boolean; failed?: MaintenanceActionProblem | null }): string {
  const f = o.failed ?? null;
  const rescheduleProblem = f?.form === 'reschedule' ? f.problem : null;
  const summary = facts([
    ['State', stateBadge(stateText(d.state), maintenanceTone(d.state))],
    ['Scheduled start', utcTime(d.scheduled_start_at)],
    ['Scheduled end', utcTime(d.scheduled_end_at)],
    ['Started', utcTime(d.actual_start_at)],
    ['Completed', utcTime(d.actual_end_at)],
    ...(d.canceled_at ? ([['Canceled', utcTime(d.canceled_at)]] as [string, string][]) : []),
    ['Affected services', namesOf(d.affected_ids, d.affected_services)],
    ['Description', d.description ? esc(d.description) : '<span class="muted">none</span>'],
    ['Last change', utcTime(d.updated_at)],
    ['Id', `<code>${esc(d.id)}</code>`],
  ]);
  const workflow = d.workflowUrl ? `<p><a href="${esc(d.workflowUrl)}" rel="noopener">Open in Temporal UI</a> <span class="muted">(its workflow <code>maintenance:${esc(d.id)}</code>)</span></p>` : '';
  const base = `/console/maintenances/${d.id}`;
  let actions = '';
  if (o.canWrite && d.state !== 'canceled' && d.state !== 'deleted') {
    const buttons = [
      d.state === 'scheduled' ? actionButton({ action: `${base}/start`, label: 'Start now', csrf: o.csrf }) : '',
      d.state === 'in_progress' ? actionButton({ action: `${base}/complete`, label: 'Complete now', csrf: o.csrf }) : '',
      actionButton({ action: `${base}/cancel`, label: 'Cancel maintenance', csrf: o.csrf, kind: 'danger' }),
    ].filter(Boolean);
    const buttonProblem = f && f.form !== 'reschedule' ? problemBox(f.problem) : '';
    const val = (name: 'scheduled_start_at' | 'scheduled_end_at') => (rescheduleProblem ? (f?.values?.[name] ?? '') : utcLocalOf(d[name]));
    const reschedule =
      d.state === 'scheduled' || d.state === 'in_progress'
        ? `<section aria-labelledby="reschedule"><h2 id="reschedule">Reschedule</h2>
${problemBox(rescheduleProblem, ['scheduled_start_at', 'scheduled_end_at'])}
<form class="stack" method="post" action="${base}/reschedule">
${csrfField(o.csrf)}
${d.state === 'scheduled' ? inputField({ name: 'scheduled_start_at', label: 'Starts at (UTC)', type: 'datetime-local', value: val('scheduled_start_at'), problem: rescheduleProblem, required: true }) : `<p class="muted">It has started; only its end can move.</p>`}
${inputField({ name: 'scheduled_end_at', label: 'Ends at (UTC)', type: 'datetime-local', value: val('scheduled_end_at'), problem: rescheduleProblem, required: true })}
<div><button type="submit">Save new times</button></div>
</form></section>`
        : '';
    actions = `<section aria-labelledby="actions"><h2 id="actions">Actions</h2>${buttonProblem}<div class="actions">${buttons.join('')}</div></section>
${reschedule}`;
  }
  return `<p><a href="/console/maintenances">← All maintenance windows</a></p>
${summary}
${workflow}
${actions}
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2>
<p class="muted">Oldest first, times in UTC.</p>
${timeline(d.timeline, 'Nothing has happened yet.')}
</section>`;
}
