import type { EscalationLevel } from '../../domain/alerting/escalation';
import { esc } from '../html';
import { type FormValues, groupErrorLine, onCallNav, slotCount, valueOf, valuesOf, deleteLink } from './alerting-parts';
import { type FormProblem, choiceGroup, csrfField, inputField, problemBox } from './forms';
import { type Choice, link, pager, table } from './parts';

/** An escalation policy as the API shows it. */
export interface PolicyView {
  id: string;
  name: string;
  levels: EscalationLevel[];
  repeat: number;
}

export const policyHref = (id: string) => `/console/on-call/policies/${encodeURIComponent(id)}`;

export interface TargetChoices {
  channels: Choice[];
  schedules: Choice[];
  /** Console users by email (id and name both the email). */
  users: Choice[];
}

/** A level's targets in words: channel and schedule names, user emails. */
export function targetsText(targets: PolicyView['levels'][number]['targets'], known: TargetChoices): string {
  const name = (list: Choice[], id: string | undefined, what: string) =>
    list.find((c) => c.id === id)?.name ?? `a removed ${what}`;
  return targets
    .map((t) =>
      t.type === 'channel'
        ? `channel ${name(known.channels, t.id, 'channel')}`
        : t.type === 'schedule'
          ? `on call in ${name(known.schedules, t.id, 'schedule')}`
          : t.email,
    )
    .join(', ');
}

export function policyListBody(o: {
  rows: PolicyView[];
  nextCursor: string | null;
  known: TargetChoices;
  csrf: string;
  canWrite: boolean;
}): string {
  const rows = o.rows.map((p) => [
    o.canWrite ? link(`${policyHref(p.id)}/edit`, p.name) : esc(p.name),
    `<ol>${p.levels.map((l) => `<li>${esc(targetsText(l.targets, o.known))}; then ${esc(String(l.delay_minutes))} min</li>`).join('')}</ol>`,
    p.repeat ? `${esc(String(p.repeat))} more time${p.repeat === 1 ? '' : 's'}` : '<span class="muted">no</span>',
    o.canWrite ? deleteLink(`${policyHref(p.id)}/delete`, p.name) : '<span class="muted">—</span>',
  ]);
  return `${onCallNav('/console/on-call/policies')}
<p class="muted">An alert notifies level 1, waits its delay, then notifies the next level, until someone acknowledges or resolves it.</p>
${o.canWrite ? '<p class="actions"><a class="button" href="/console/on-call/policies/new">New escalation policy</a></p>' : ''}
${table(['Policy', 'Levels', 'Repeats', 'Actions'], rows, 'No escalation policies yet.')}
${pager('/console/on-call/policies', o.nextCursor)}`;
}

/** A level slot is blank (and left out) when it names no target. */
export function isBlankLevel(values: FormValues, i: number): boolean {
  return ['channels', 'schedules', 'users'].every((g) => valuesOf(values, `levels.${i}.${g}`).length === 0);
}

function levelFields(values: FormValues, i: number, known: TargetChoices, p: FormProblem | null | undefined): string {
  const n = (f: string) => `levels.${i}.${f}`;
  const group = (g: 'channels' | 'schedules' | 'users', legend: string, empty: string) =>
    choiceGroup({ name: n(g), legend, choices: known[g], selected: valuesOf(values, n(g)), empty });
  return `<fieldset id="level-${i}"><legend>Level ${i + 1}${i > 0 ? ' (leave every target unticked to leave it out)' : ''}</legend>
${group('channels', 'Notification channels', 'No notification channels yet.')}
${group('schedules', 'Whoever is on call in', 'No on-call schedules yet.')}
${group('users', 'Console users (by email)', 'No console users.')}
${groupErrorLine(p, n('targets'), `level-${i}-targets-error`)}
${inputField({ name: n('delay_minutes'), label: 'Minutes before the next level (1 to 1440)', type: 'number', value: valueOf(values, n('delay_minutes')), problem: p })}
</fieldset>`;
}

export function policyFormBody(o: {
  csrf: string;
  values: FormValues;
  known: TargetChoices;
  problem?: FormProblem | null;
  policy?: PolicyView;
}): string {
  const p = o.problem;
  const n = slotCount(o.values, 'levels');
  const count = Math.max(1, n === 0 || !isBlankLevel(o.values, n - 1) ? n + 1 : n);
  const levels = Array.from({ length: count }, (_, i) => levelFields(o.values, i, o.known, p));
  const shown = [
    'name',
    'repeat',
    ...Array.from({ length: count }, (_, i) => [`levels.${i}.delay_minutes`, `levels.${i}.targets`]).flat(),
  ];
  const action = o.policy ? `${policyHref(o.policy.id)}/edit` : '/console/on-call/policies/new';
  return `${problemBox(p, shown)}
<form class="stack" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${inputField({ name: 'name', label: 'Name', value: valueOf(o.values, 'name'), problem: p, required: true, hint: 'e.g. "Payments: page, then the lead"' })}
${levels.join('\n')}
${inputField({ name: 'repeat', label: 'Run the whole policy again this many times (0 to 10)', type: 'number', value: valueOf(o.values, 'repeat'), problem: p, hint: 'After the last level, its delay is the wait before starting over.' })}
<div><button type="submit">${o.policy ? 'Save policy' : 'Create policy'}</button> <a href="/console/on-call/policies">Cancel</a></div>
</form>`;
}
