import { CONSOLE_ROLES, ROLE_LABELS } from '../../../domain/console-roles';
import { esc, timeTag } from '../../html';
import { type FormProblem, csrfField, inputField, problemBox, selectField } from '../forms';
import { pager, stateBadge, table } from '../parts';

export interface ConsoleUserRow {
  id: string;
  email: string;
  role: string;
  createdAt: Date;
  lastSignInAt: Date | null;
  disabledAt: Date | null;
}

/** A refusal of one row's action (role change, disable), shown next to that row's controls. */
export interface RowProblem {
  userId: string;
  /** The API's problem token (validation_failed). */
  token: string;
  message: string;
}

const ROLE_OPTIONS = CONSOLE_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
const muted = (text: string) => `<span class="muted">${esc(text)}</span>`;
const when = (d: Date | null, zone: string, none: string) => (d ? timeTag(d.toISOString(), zone) : muted(none));

function roleForm(u: ConsoleUserRow, csrf: string, error: string | null): string {
  const id = `role-${u.id}`;
  const options = CONSOLE_ROLES.map(
    (r) => `<option value="${r}"${r === u.role ? ' selected' : ''}>${esc(r)}</option>`,
  ).join('');
  const err = error ? `<p class="field-error" id="${id}-error">${esc(error)}</p>` : '';
  return `<form class="row-action" method="post" action="/console/users/${esc(u.id)}/role">${csrfField(csrf)}<label class="sr-only" for="${id}">Role of ${esc(u.email)}</label><select id="${id}" name="role"${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${options}</select> <button type="submit" class="secondary">Change role</button>${err}</form>`;
}

function enableForm(u: ConsoleUserRow, csrf: string): string {
  const verb = u.disabledAt ? 'enable' : 'disable';
  const label = u.disabledAt ? 'Enable' : 'Disable';
  return `<form class="row-action" method="post" action="/console/users/${esc(u.id)}/${verb}">${csrfField(csrf)}<button type="submit" class="${u.disabledAt ? 'secondary' : 'danger'}" aria-label="${label} ${esc(u.email)}">${label}</button></form>`;
}

/** The Users page (owners): who can sign in, with which role; invite, change role, disable. */
export function userListBody(d: {
  users: ConsoleUserRow[];
  nextCursor: string | null;
  me: string;
  csrf: string;
  timeZone: string;
  invite: { email: string; role: string };
  problem: FormProblem | null;
  rowProblem: RowProblem | null;
}): string {
  const rows = d.users.map((u) => {
    const error = d.rowProblem?.userId === u.id ? d.rowProblem.message : null;
    return [
      `${esc(u.email)}${u.id === d.me ? ` ${muted('(you)')}` : ''}`,
      roleForm(u, d.csrf, error),
      when(u.lastSignInAt, d.timeZone, 'never'),
      u.disabledAt
        ? `${stateBadge('disabled', 'unhealthy')}<br>${muted('since')} ${timeTag(u.disabledAt.toISOString(), d.timeZone)}`
        : stateBadge('enabled', 'healthy'),
      enableForm(u, d.csrf),
    ];
  });
  const invite = `<section aria-labelledby="invite-h"><h2 id="invite-h">Invite someone</h2>
${problemBox(d.problem, ['email', 'role'])}
<form class="stack" method="post" action="/console/users">${csrfField(d.csrf)}
${inputField({ name: 'email', label: 'Email address', type: 'email', value: d.invite.email, problem: d.problem, required: true })}
${selectField({ name: 'role', label: 'Role', value: d.invite.role, options: ROLE_OPTIONS, problem: d.problem, hint: 'What each role may do: see the console guide. A role change takes effect on the user’s next page.' })}
<div><button type="submit">Send invitation</button></div>
<p class="muted">They get an email with a sign-in link that works once, for a week.</p>
</form></section>`;
  const rowBox = d.rowProblem ? problemBox({ title: d.rowProblem.token, detail: d.rowProblem.message }) : '';
  return `${rowBox}<p class="muted">Disabling someone ends their sessions at once; their sign-in links stop working. The organization keeps at least one enabled owner.</p>
${table(['Email', 'Role', 'Last sign-in', 'State', 'Access'], rows, 'No console users yet.')}
${pager('/console/users', d.nextCursor)}
${invite}`;
}
