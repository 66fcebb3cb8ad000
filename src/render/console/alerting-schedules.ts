import type { ScheduleSpec } from '../../domain/on-call/schedule';
import { esc, timeTag } from '../html';
import { type FormValues, onCallNav, slotCount, valueOf, deleteLink } from './alerting-parts';
import {
  type FormProblem,
  csrfField,
  inputField,
  problemBox,
  selectField,
  textareaField,
  zoneSelectField,
} from './forms';
import { facts, link, pager, table, zonedTime } from './parts';
import { zonedDateInput } from './zoned-input';

/** An on-call schedule as the API shows it. */
export interface ScheduleView extends ScheduleSpec {
  id: string;
  name: string;
}

/** Who is on call at an instant (GET /v1/on-call/schedules/{id}/on-call). */
export interface OnCallNowView {
  user: { email: string } | null;
  source: 'override' | 'layer' | null;
  shift_end: string | null;
}

export const scheduleHref = (id: string) => `/console/on-call/schedules/${encodeURIComponent(id)}`;

const KINDS = [
  { value: 'weekly', label: 'Weekly' },
  { value: 'daily', label: 'Daily' },
  { value: 'hourly', label: 'Every N hours' },
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d, i) => ({
  value: String(i + 1),
  label: d,
}));

/** The form's top-level name field: `name` would also match a layer's `layers.0.name` errors. */
export const SCHEDULE_NAME_FIELD = 'schedule_name';

export function rotationText(r: ScheduleView['layers'][number]['rotation']): string {
  const every =
    r.kind === 'hourly'
      ? `every ${r.shift_hours} hours`
      : r.kind === 'weekly'
        ? `weekly on ${WEEKDAYS[(r.handoff_weekday ?? 1) - 1]?.label ?? ''}`
        : 'daily';
  return `${every} at ${r.handoff_time} from ${r.starts_on}`;
}

export function scheduleListBody(o: {
  rows: { schedule: ScheduleView; now: OnCallNowView }[];
  nextCursor: string | null;
  canWrite: boolean;
  zone: string;
}): string {
  const rows = o.rows.map(({ schedule: s, now }) => [
    link(scheduleHref(s.id), s.name),
    esc(s.timezone),
    esc(s.layers.map((l) => l.name).join(', ')),
    now.user
      ? `${esc(now.user.email)}${now.source === 'override' ? ' <span class="muted">(override)</span>' : ''}`
      : '<span class="muted">Nobody</span>',
    zonedTime(now.shift_end, o.zone),
  ]);
  return `${onCallNav('/console/on-call')}
${o.canWrite ? '<p class="actions"><a class="button" href="/console/on-call/schedules/new">New schedule</a></p>' : ''}
${table(['Schedule', 'Time zone', 'Layers', 'On call now', 'Until'], rows, 'No on-call schedules yet.')}
${pager('/console/on-call', o.nextCursor)}`;
}

export interface ShiftRow {
  user: { email: string };
  source: 'override' | 'layer';
  layer: { index: number; name: string } | null;
  start: string;
  end: string;
}

export function scheduleDetailBody(o: {
  schedule: ScheduleView;
  now: OnCallNowView;
  shifts: ShiftRow[];
  truncated: boolean;
  csrf: string;
  canWrite: boolean;
  problem?: FormProblem | null;
}): string {
  const s = o.schedule;
  const tz = s.timezone;
  const summary = facts([
    ['Time zone', esc(tz)],
    [
      'On call now',
      o.now.user
        ? `${esc(o.now.user.email)}${o.now.shift_end ? ` until ${timeTag(o.now.shift_end, tz)}` : ''}`
        : '<span class="muted">Nobody</span>',
    ],
    [
      'Layers',
      s.layers.length
        ? `<ol>${s.layers.map((l) => `<li>${esc(l.name)}: ${esc(rotationText(l.rotation))}; ${esc(l.rotation.participants.join(', '))}</li>`).join('')}</ol>`
        : '—',
    ],
    [
      'Overrides',
      s.overrides.length
        ? `<ul>${s.overrides.map((x) => `<li>${esc(x.user)}: ${timeTag(x.start_at, tz)} to ${timeTag(x.end_at, tz)}</li>`).join('')}</ul>`
        : '<span class="muted">none</span>',
    ],
    ['Id', `<code>${esc(s.id)}</code>`],
  ]);
  const actions = o.canWrite
    ? `<div class="actions"><a class="button" href="${esc(`${scheduleHref(s.id)}/edit`)}">Edit schedule</a>${deleteLink(`${scheduleHref(s.id)}/delete`, s.name)}</div>`
    : '';
  const shifts = o.shifts.map((x) => [
    esc(x.user.email),
    timeTag(x.start, tz),
    timeTag(x.end, tz),
    x.source === 'override' ? 'Override' : esc(x.layer?.name ?? ''),
  ]);
  return `<p><a href="/console/on-call">← All schedules</a></p>
${problemBox(o.problem)}
${summary}
${actions}
<section aria-labelledby="shifts"><h2 id="shifts">Next 14 days</h2>
<p class="muted">Times in ${esc(tz)}. A gap between shifts is time nobody covers.</p>
${table(['On call', 'From', 'To', 'Layer'], shifts, 'Nobody is on call in the next 14 days.')}
${o.truncated ? '<p class="muted">More shifts follow than this page shows.</p>' : ''}
</section>`;
}

const LAYER_FIELDS = [
  'name',
  'rotation.kind',
  'rotation.handoff_time',
  'rotation.handoff_weekday',
  'rotation.shift_hours',
  'rotation.starts_on',
  'rotation.participants',
];

/** A layer slot is blank (and skipped) when it names nobody and has no name. */
export function isBlankLayer(values: FormValues, i: number): boolean {
  return !valueOf(values, `layers.${i}.name`).trim() && !valueOf(values, `layers.${i}.rotation.participants`).trim();
}

export function isBlankOverride(values: FormValues, i: number): boolean {
  return ['user', 'start_at', 'end_at'].every((f) => !valueOf(values, `overrides.${i}.${f}`).trim());
}

/** The slots to show: those the values fill, and one blank more to add to. */
function slots(
  values: FormValues,
  prefix: string,
  blank: (values: FormValues, i: number) => boolean,
  min: number,
): number {
  const n = slotCount(values, prefix);
  return Math.max(min, n === 0 || !blank(values, n - 1) ? n + 1 : n);
}

function layerFields(values: FormValues, i: number, p: FormProblem | null | undefined): string {
  const n = (f: string) => `layers.${i}.${f}`;
  const val = (f: string) => valueOf(values, n(f));
  return `<fieldset id="layer-${i}"><legend>Layer ${i + 1}${i > 0 ? ' (higher layers win; leave name and participants empty to leave it out)' : ''}</legend>
${inputField({ name: n('name'), label: 'Layer name', value: val('name'), problem: p, hint: i === 0 ? 'e.g. "Primary"' : undefined })}
${selectField({ name: n('rotation.kind'), label: 'Rotation', value: val('rotation.kind') || 'weekly', problem: p, options: KINDS })}
${inputField({ name: n('rotation.handoff_time'), label: 'Handoff time (HH:MM, local)', value: val('rotation.handoff_time'), problem: p })}
${selectField({ name: n('rotation.handoff_weekday'), label: 'Handoff day (weekly rotations)', value: val('rotation.handoff_weekday') || '1', problem: p, options: WEEKDAYS })}
${inputField({ name: n('rotation.shift_hours'), label: 'Shift length in hours (every-N-hours rotations, 1 to 168)', type: 'number', value: val('rotation.shift_hours'), problem: p })}
${inputField({ name: n('rotation.starts_on'), label: 'First handoff on (YYYY-MM-DD, local)', value: val('rotation.starts_on'), problem: p })}
${textareaField({ name: n('rotation.participants'), label: 'Participants, in rotation order', value: val('rotation.participants'), problem: p, hint: 'One console user email per line; the first is on call from the first handoff.' })}
</fieldset>`;
}

function overrideFields(values: FormValues, i: number, p: FormProblem | null | undefined, zone: string): string {
  const n = (f: string) => `overrides.${i}.${f}`;
  return `<fieldset id="override-${i}"><legend>Override ${i + 1} (leave empty to leave it out)</legend>
${inputField({ name: n('user'), label: 'Who covers (console user email)', type: 'email', value: valueOf(values, n('user')), problem: p })}
${zonedDateInput({ name: n('start_at'), label: 'From', timeZone: zone, raw: valueOf(values, n('start_at')), problem: p })}
${zonedDateInput({ name: n('end_at'), label: 'To', timeZone: zone, raw: valueOf(values, n('end_at')), problem: p })}
</fieldset>`;
}

/** `zone`: the viewer's, which override times are typed in (the layers' handoffs are in the schedule's own zone). */
export function scheduleFormBody(o: {
  csrf: string;
  values: FormValues;
  users: readonly string[];
  zone: string;
  problem?: FormProblem | null;
  schedule?: ScheduleView;
}): string {
  const p = o.problem;
  const layerSlots = slots(o.values, 'layers', isBlankLayer, 1);
  const overrideSlots = slots(o.values, 'overrides', isBlankOverride, 1);
  const layers = Array.from({ length: layerSlots }, (_, i) => layerFields(o.values, i, p));
  const overrides = Array.from({ length: overrideSlots }, (_, i) => overrideFields(o.values, i, p, o.zone));
  // Errors these fields show are not repeated in the summary above the form.
  const fieldNames = [
    ...Array.from({ length: layerSlots }, (_, i) => [...LAYER_FIELDS.map((f) => `layers.${i}.${f}`)]).flat(),
    ...Array.from({ length: overrideSlots }, (_, i) =>
      ['user', 'start_at', 'end_at'].map((f) => `overrides.${i}.${f}`),
    ).flat(),
  ];
  const action = o.schedule ? `${scheduleHref(o.schedule.id)}/edit` : '/console/on-call/schedules/new';
  const users = o.users.length
    ? `Console users of this organization: ${o.users.join(', ')}.`
    : 'This organization has no console users yet.';
  return `${problemBox(p, [SCHEDULE_NAME_FIELD, 'timezone', ...fieldNames])}
<form class="stack" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${inputField({ name: SCHEDULE_NAME_FIELD, label: 'Name', value: valueOf(o.values, SCHEDULE_NAME_FIELD), problem: p, required: true, hint: 'e.g. "Payments primary"' })}
${zoneSelectField({ name: 'timezone', label: 'Time zone', value: valueOf(o.values, 'timezone'), problem: p, required: true, hint: 'Handoffs keep their local time there across daylight-saving changes.' })}
<p class="muted">${esc(users)}</p>
${layers.join('\n')}
<h2>Overrides</h2>
<p class="muted">An override wins over every layer for its time.</p>
${overrides.join('\n')}
<div><button type="submit">${o.schedule ? 'Save schedule' : 'Create schedule'}</button> <a href="${esc(o.schedule ? scheduleHref(o.schedule.id) : '/console/on-call')}">Cancel</a></div>
</form>`;
}
