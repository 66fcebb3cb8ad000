import type { ApiKeyView } from '../../../domain/api-key-view';
import { SCOPES } from '../../../domain/scopes';
import { esc, timeTag } from '../../html';
import { type FormProblem, actionButton, choiceGroup, csrfField, inputField, problemBox } from '../forms';
import { facts, link, pager, stateBadge, table } from '../parts';

type ConsoleApiKey = ApiKeyView;

const muted = (text: string) => `<span class="muted">${esc(text)}</span>`;
const when = (iso: string | null, zone: string, none: string) => (iso ? timeTag(iso, zone) : muted(none));
const TONE = { active: 'healthy', expired: 'late', revoked: 'neutral' } as const;

export const keyHref = (id: string) => `/console/api-keys/${encodeURIComponent(id)}`;

function stateCell(k: ConsoleApiKey, zone: string): string {
  const since = k.state === 'revoked' && k.revoked_at ? `<br>${muted('since')} ${timeTag(k.revoked_at, zone)}` : '';
  return `${stateBadge(k.state, TONE[k.state])}${since}`;
}

const scopeList = (scopes: readonly string[]) =>
  scopes.length ? scopes.map((s) => `<code>${esc(s)}</code>`).join(', ') : muted('none');

/** The API keys page (owners): every key with its scopes, expiry and last use. */
export function apiKeyListBody(keys: ConsoleApiKey[], nextCursor: string | null, zone: string): string {
  const rows = keys.map((k) => [
    esc(k.name),
    `<code>${esc(k.prefix)}…</code>`,
    scopeList(k.scopes),
    timeTag(k.created_at, zone),
    when(k.expires_at, zone, 'never'),
    when(k.last_used_at, zone, 'never used'),
    stateCell(k, zone),
    k.state === 'revoked' ? muted('—') : link(`${keyHref(k.id)}/revoke`, `Revoke ${k.name}…`),
  ]);
  return `<p class="actions"><a class="button" href="/console/api-keys/new">Create an API key</a></p>
<p class="muted">A key’s secret is shown once, when it is made; Vigil keeps only its hash. “Last used” is updated at most once a minute. The CLI (<code>vigil key create|list|revoke</code>) works on the same keys.</p>
${table(['Name', 'Prefix', 'Scopes', 'Created', 'Expires', 'Last used', 'State', 'Action'], rows, 'No API keys yet.')}
${pager('/console/api-keys', nextCursor)}`;
}

/** The form that makes a key: a name, its scopes, an optional expiry. */
export function apiKeyFormBody(d: {
  csrf: string;
  name: string;
  scopes: readonly string[];
  expiresAt: string;
  zone: string;
  problem: FormProblem | null;
}): string {
  return `${problemBox(d.problem, ['name', 'scopes', 'expires_at'])}
<form class="stack" method="post" action="/console/api-keys/new">${csrfField(d.csrf)}
${inputField({ name: 'name', label: 'Name', value: d.name, problem: d.problem, required: true, hint: 'Who or what uses it: “CI deploys”, “Grafana”.' })}
${choiceGroup({ name: 'scopes', legend: 'Scopes (what the key may do)', choices: SCOPES.map((s) => ({ id: s, name: s })), selected: d.scopes, problem: d.problem, empty: '' })}
${inputField({ name: 'expires_at', label: `Expires (optional, ${d.zone})`, type: 'datetime-local', value: d.expiresAt, problem: d.problem, hint: 'Leave empty for a key that works until it is revoked.' })}
<div><button type="submit">Create the key</button> <a href="/console/api-keys">Cancel</a></div>
</form>`;
}

/** The one page that shows a new key's secret; after it is left (or reloaded) the secret is gone. */
export function apiKeyCreatedBody(k: ConsoleApiKey, secret: string | null, zone: string): string {
  const shown = secret
    ? `<div class="secret-once" role="status"><h2>Copy the key now</h2><p>This is the only time it is shown: Vigil stores only its hash. Reloading this page does not show it again.</p>
<p><label for="new-key">API key</label><input type="text" id="new-key" class="secret" readonly value="${esc(secret)}"></p>
<p class="muted">Use it as <code>Authorization: Bearer &lt;key&gt;</code>.</p></div>`
    : `<div class="problem" role="alert"><h2>The secret is no longer shown</h2><p>A key’s secret is shown once, right after it is made. If it was not copied, revoke this key and create another.</p></div>`;
  return `${shown}
${facts([
  ['Name', esc(k.name)],
  ['Prefix', `<code>${esc(k.prefix)}…</code>`],
  ['Scopes', scopeList(k.scopes)],
  ['Expires', when(k.expires_at, zone, 'never')],
  ['State', stateCell(k, zone)],
])}
<p>${link('/console/api-keys', 'Back to the API keys')}</p>`;
}

/** Revoking asks first: what stops working, and that it cannot be undone. */
export function apiKeyRevokeBody(k: ConsoleApiKey, csrf: string, zone: string): string {
  return `<p>Revoke <strong>${esc(k.name)}</strong> (<code>${esc(k.prefix)}…</code>)? Every request with it answers 401 from now on. This cannot be undone.</p>
${facts([
  ['Scopes', scopeList(k.scopes)],
  ['Last used', when(k.last_used_at, zone, 'never used')],
  ['State', stateCell(k, zone)],
])}
<div class="actions">${actionButton({ action: `${keyHref(k.id)}/revoke`, label: 'Revoke the key', csrf, kind: 'danger' })} <a href="/console/api-keys">Cancel</a></div>`;
}
