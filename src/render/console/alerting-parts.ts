import { esc } from '../html';
import { type FormProblem, csrfField } from './forms';
import { stateBadge } from './parts';

/** A form's values by field name, as posted (or as an existing record fills them). */
export type FormValues = Readonly<Record<string, string | string[] | undefined>>;

/** One field's value ('' when absent). */
export function valueOf(values: FormValues, name: string): string {
  const v = values[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? '') : '';
}

/** Every value of a repeated field (checkboxes). */
export function valuesOf(values: FormValues, name: string): string[] {
  const v = values[name];
  return typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
}

/** How many numbered slots (`<prefix>.<n>.…`) the values fill: the highest index plus one. */
export function slotCount(values: FormValues, prefix: string): number {
  let n = 0;
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.`);
  for (const key of Object.keys(values)) {
    const m = re.exec(key);
    if (m) n = Math.max(n, Number(m[1]) + 1);
  }
  return n;
}

/** The errors of a problem at `path` or below it, as a line under a group of fields. */
export function groupErrorLine(problem: FormProblem | null | undefined, path: string, id: string): string {
  const messages = [
    ...new Set(
      (problem?.errors ?? []).filter((e) => e.path === path || e.path.startsWith(`${path}.`)).map((e) => e.message),
    ),
  ];
  return messages.length ? `<p class="field-error" id="${esc(id)}">${esc(messages.join('; '))}</p>` : '';
}

export function enabledBadge(enabled: boolean): string {
  return enabled ? stateBadge('enabled', 'healthy') : stateBadge('disabled');
}

/** The links between the pages of one console area (Alerts: alerts, rules, silences, channels; On call: schedules, policies). */
export function subNav(label: string, items: readonly { href: string; text: string }[], current: string): string {
  return `<nav aria-label="${esc(label)}"><p class="actions">${items
    .map((i) =>
      i.href === current
        ? `<strong><a href="${esc(i.href)}" aria-current="page">${esc(i.text)}</a></strong>`
        : `<a href="${esc(i.href)}">${esc(i.text)}</a>`,
    )
    .join(' ')}</p></nav>`;
}

export const ALERTS_AREA = [
  { href: '/console/alerts', text: 'Alerts' },
  { href: '/console/alerts/rules', text: 'Alert rules' },
  { href: '/console/alerts/silences', text: 'Silences' },
  { href: '/console/alerts/channels', text: 'Notification channels' },
] as const;

export const ON_CALL_AREA = [
  { href: '/console/on-call', text: 'On-call schedules' },
  { href: '/console/on-call/policies', text: 'Escalation policies' },
] as const;

export const alertsNav = (current: string) => subNav('Alerting', ALERTS_AREA, current);
export const onCallNav = (current: string) => subNav('On call', ON_CALL_AREA, current);

/** "x, y and z" for a list of names. */
export function sentenceList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A link to an item's delete confirmation ("Delete…"): deleting takes a second, deliberate click. */
export function deleteLink(href: string, name: string): string {
  return `<a class="button danger" href="${esc(href)}" aria-label="${esc(`Delete ${name}…`)}">Delete…</a>`;
}

/** The confirmation page of a delete: what goes, what that does, the button and a way back. */
export function confirmDeleteBody(o: {
  csrf: string;
  action: string;
  noun: string;
  name: string;
  consequence: string;
  back: string;
}): string {
  return `<p>Delete the ${esc(o.noun)} <strong>${esc(o.name)}</strong>? ${esc(o.consequence)}</p>
<form class="actions" method="post" action="${esc(o.action)}">${csrfField(o.csrf)}<button type="submit" class="danger">Delete ${esc(o.noun)}</button> <a href="${esc(o.back)}">Keep it</a></form>`;
}
