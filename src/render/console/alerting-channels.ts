import { esc } from '../html';
import { type FormValues, alertsNav, enabledBadge, valueOf, deleteLink } from './alerting-parts';
import { type FormProblem, actionButton, checkboxField, csrfField, inputField, problemBox, selectField, textareaField } from './forms';
import { facts, link, pager, stateBadge, table, zonedTime } from './parts';

/** A notification channel as the API shows it: never its secret, only a hint. */
export interface ChannelView {
  id: string;
  name: string;
  type: string;
  settings: { addresses?: string[]; region?: 'us' | 'eu' };
  secret_hint: string | null;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** One message to a channel (an alert action or a test), as the API's sends list shows it. */
export interface SendView {
  action: string;
  alert_id: string | null;
  state: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  attempts: { latency_ms: number }[];
}

export const channelHref = (id: string) => `/console/alerts/channels/${encodeURIComponent(id)}`;

export const CHANNEL_TYPE_LABELS: Readonly<Record<string, string>> = {
  email: 'Email',
  slack: 'Slack (incoming webhook)',
  teams: 'Microsoft Teams (Workflows webhook)',
  discord: 'Discord (webhook)',
  webhook: 'Webhook (Standard Webhooks signing)',
  pagerduty: 'PagerDuty (Events API v2)',
  opsgenie: 'Opsgenie (Alert API)',
};

const FIELDS = ['name', 'type', 'addresses', 'url', 'routing_key', 'api_key', 'region', 'enabled'];

function destination(c: ChannelView): string {
  if (c.type === 'email') return esc((c.settings.addresses ?? []).join(', '));
  const hint = c.secret_hint ? `<code>${esc(c.secret_hint)}</code>` : '<span class="muted">hidden</span>';
  return c.type === 'opsgenie' ? `${hint} <span class="muted">(${esc((c.settings.region ?? 'us').toUpperCase())})</span>` : hint;
}

export function channelListBody(o: { rows: ChannelView[]; nextCursor: string | null; canWrite: boolean; zone: string }): string {
  const rows = o.rows.map((c) => [link(channelHref(c.id), c.name), esc(CHANNEL_TYPE_LABELS[c.type] ?? c.type), destination(c), enabledBadge(c.enabled), zonedTime(c.created_at, o.zone)]);
  return `${alertsNav('/console/alerts/channels')}
${o.canWrite ? '<p class="actions"><a class="button" href="/console/alerts/channels/new">New channel</a></p>' : ''}
${table(['Channel', 'Type', 'Destination', 'State', 'Created'], rows, 'No notification channels yet.')}
${pager('/console/alerts/channels', o.nextCursor)}`;
}

/** The create form (every type's fields, each fieldset saying which type it is for) or the edit form of one channel. */
export function channelFormBody(o: { csrf: string; values: FormValues; types: readonly string[]; problem?: FormProblem | null; channel?: ChannelView }): string {
  const p = o.problem;
  const val = (n: string) => valueOf(o.values, n);
  const c = o.channel;
  const keep = c ? ' Leave empty to keep the current one.' : '';
  const forType = (types: readonly string[]) => !c || types.includes(c.type);
  const parts: string[] = [];
  parts.push(inputField({ name: 'name', label: 'Name', value: val('name'), problem: p, required: true, hint: 'e.g. "#ops-alerts" or "Payments on-call"' }));
  if (!c) parts.push(selectField({ name: 'type', label: 'Type', value: val('type') || 'slack', problem: p, options: o.types.map((t) => ({ value: t, label: CHANNEL_TYPE_LABELS[t] ?? t })) }));
  if (forType(['email'])) {
    parts.push(`<fieldset><legend>Email${c ? '' : ' only'}</legend>${textareaField({ name: 'addresses', label: 'Addresses', value: val('addresses'), problem: p, hint: 'One address per line, 1 to 20.' })}</fieldset>`);
  }
  if (forType(['slack', 'teams', 'discord', 'webhook'])) {
    parts.push(
      `<fieldset><legend>${c ? 'Webhook URL' : 'Slack, Teams, Discord and webhook only'}</legend>${inputField({ name: 'url', label: 'URL', value: val('url'), problem: p, hint: `The incoming-webhook URL (http or https). Stored sealed and never shown again.${keep}` })}</fieldset>`,
    );
  }
  if (forType(['pagerduty'])) {
    parts.push(
      `<fieldset><legend>PagerDuty${c ? '' : ' only'}</legend>${inputField({ name: 'routing_key', label: 'Integration (routing) key', value: val('routing_key'), problem: p, hint: `32 characters, from the service's Events API v2 integration. Stored sealed.${keep}` })}</fieldset>`,
    );
  }
  if (forType(['opsgenie'])) {
    parts.push(`<fieldset><legend>Opsgenie${c ? '' : ' only'}</legend>
${inputField({ name: 'api_key', label: 'API key', value: val('api_key'), problem: p, hint: `An API integration key. Stored sealed.${keep}` })}
${selectField({ name: 'region', label: 'Region', value: val('region') || 'us', problem: p, options: [{ value: 'us', label: 'US (api.opsgenie.com)' }, { value: 'eu', label: 'EU (api.eu.opsgenie.com)' }] })}
</fieldset>`);
  }
  parts.push(checkboxField({ name: 'enabled', label: 'Enabled (a disabled channel is skipped when an alert escalates)', checked: val('enabled') === 'true' }));
  const action = c ? `${channelHref(c.id)}/edit` : '/console/alerts/channels/new';
  const cancel = c ? channelHref(c.id) : '/console/alerts/channels';
  return `${problemBox(p, FIELDS)}
<form class="stack" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${parts.join('\n')}
<div><button type="submit">${c ? 'Save channel' : 'Create channel'}</button> <a href="${esc(cancel)}">Cancel</a></div>
</form>`;
}

function sendStateBadge(state: string): string {
  return stateBadge(state, state === 'succeeded' ? 'healthy' : state === 'failed' ? 'unhealthy' : 'degraded');
}

export function channelDetailBody(o: { channel: ChannelView; sends: SendView[]; nextCursor: string | null; csrf: string; canWrite: boolean; zone: string; problem?: FormProblem | null }): string {
  const c = o.channel;
  const rows: [string, string][] = [
    ['Type', esc(CHANNEL_TYPE_LABELS[c.type] ?? c.type)],
    ['Destination', destination(c)],
    ['State', enabledBadge(c.enabled)],
    ['Created', zonedTime(c.created_at, o.zone)],
    ['Last change', zonedTime(c.updated_at, o.zone)],
    ['Id', `<code>${esc(c.id)}</code>`],
  ];
  const actions = o.canWrite
    ? `<div class="actions">${actionButton({ action: `${channelHref(c.id)}/test`, label: 'Send test', csrf: o.csrf })}<a class="button" href="${esc(`${channelHref(c.id)}/edit`)}">Edit</a>${deleteLink(`${channelHref(c.id)}/delete`, c.name)}</div>`
    : '';
  const sends = o.sends.map((s) => [
    esc(s.action),
    s.alert_id ? link(`/console/alerts/${encodeURIComponent(s.alert_id)}`, 'alert') : '<span class="muted">test</span>',
    sendStateBadge(s.state),
    esc(String(s.attempt_count)),
    s.last_status_code !== null ? `HTTP ${esc(String(s.last_status_code))}` : s.last_error ? esc(s.last_error) : '<span class="muted">—</span>',
    s.attempts.length ? `${esc(String(s.attempts[s.attempts.length - 1]!.latency_ms))} ms` : '<span class="muted">—</span>',
    zonedTime(s.created_at, o.zone),
  ]);
  return `<p><a href="/console/alerts/channels">← All channels</a></p>
${problemBox(o.problem)}
${facts(rows)}
${actions}
<section aria-labelledby="sends"><h2 id="sends">Sends</h2>
${table(['Action', 'For', 'State', 'Attempts', 'Last response', 'Latency', 'Created'], sends, 'Nothing sent yet.', 'Newest first: alert notifications and tests')}
${pager(channelHref(c.id), o.nextCursor)}
</section>`;
}
