import { esc } from '../html';
import { type FormValues, alertsNav, enabledBadge, valueOf, deleteLink } from './alerting-parts';
import {
  type FormProblem,
  type SummaryField,
  actionButton,
  checkboxField,
  csrfField,
  inputField,
  problemBox,
  selectField,
  textareaField,
} from './forms';
import { facts, link, pager, stateBadge, table, zonedTime } from './parts';

/** A notification channel as the API shows it: never its secret, only a hint. */
export interface ChannelView {
  id: string;
  name: string;
  type: string;
  settings: { addresses?: string[]; region?: 'us' | 'eu'; api_url?: string; signing_secret_hint?: string };
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

/** The vendors' own endpoints, which a channel without an `api_url` sends to (the worker's defaults). */
const PAGERDUTY_DEFAULT = 'https://events.pagerduty.com';
const OPSGENIE_DEFAULTS = { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' } as const;

/** The form's fields for the problem summary, each named as its label says (the endpoint's label is the type's). */
function summaryFields(type: string): SummaryField[] {
  const apiUrl = type === 'opsgenie' ? 'Alert API base URL' : 'Events API base URL';
  return [
    'name',
    'type',
    'addresses',
    'url',
    { name: 'signing_secret', label: 'Signing secret' },
    { name: 'routing_key', label: 'Integration (routing) key' },
    { name: 'api_key', label: 'API key' },
    'region',
    { name: 'api_url', label: apiUrl },
    'enabled',
  ];
}

/** Where Slack posts the presses of a channel's buttons (the Slack app's Interactivity Request URL). */
export function slackInteractionsUrl(publicBaseUrl: string, channelId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/v1/integrations/slack/interactions/${encodeURIComponent(channelId)}`;
}

function destination(c: ChannelView): string {
  if (c.type === 'email') return esc((c.settings.addresses ?? []).join(', '));
  const hint = c.secret_hint ? `<code>${esc(c.secret_hint)}</code>` : '<span class="muted">hidden</span>';
  return c.type === 'opsgenie'
    ? `${hint} <span class="muted">(${esc((c.settings.region ?? 'us').toUpperCase())})</span>`
    : hint;
}

export function channelListBody(o: {
  rows: ChannelView[];
  nextCursor: string | null;
  canWrite: boolean;
  zone: string;
}): string {
  const rows = o.rows.map((c) => [
    link(channelHref(c.id), c.name),
    esc(CHANNEL_TYPE_LABELS[c.type] ?? c.type),
    destination(c),
    enabledBadge(c.enabled),
    zonedTime(c.created_at, o.zone),
  ]);
  return `${alertsNav('/console/alerts/channels')}
${o.canWrite ? '<p class="actions"><a class="button" href="/console/alerts/channels/new">New channel</a></p>' : ''}
${table(['Channel', 'Type', 'Destination', 'State', 'Created'], rows, 'No notification channels yet.')}
${pager('/console/alerts/channels', o.nextCursor)}`;
}

/** The type a create form is for: the one asked for when the console offers it, else Slack. */
export function channelFormType(asked: string, types: readonly string[]): string {
  return types.includes(asked) ? asked : 'slack';
}

/** Picks the type first (a GET form, no script): the channel form below then holds only that type's fields. */
function typeChooser(type: string, types: readonly string[]): string {
  const options = types
    .map(
      (t) => `<option value="${esc(t)}"${t === type ? ' selected' : ''}>${esc(CHANNEL_TYPE_LABELS[t] ?? t)}</option>`,
    )
    .join('');
  return `<form class="stack type-chooser" method="get" action="/console/alerts/channels/new" aria-label="Choose the type">
<div><label for="choose-type">Type</label><select id="choose-type" name="type" aria-describedby="choose-type-hint">${options}</select>
<p class="muted" id="choose-type-hint">Where alerts go. The form below holds that type’s fields only; what is typed in it is not kept when the type changes.</p></div>
<div class="actions"><button type="submit" class="secondary">Show its fields</button></div>
</form>`;
}

/** The Slack app's signing secret: optional; on edit, says whether one is set and offers to replace or remove it (never shows it). */
function signingSecretFields(o: { p: FormProblem | null | undefined; channel?: ChannelView; remove: boolean }): string {
  const hint = o.channel?.settings.signing_secret_hint;
  const what =
    'The Slack app’s signing secret (api.slack.com/apps → your app → Basic Information → App Credentials). With it, Acknowledge and Resolve in this channel’s messages are buttons that act in the name of the Slack user who pressed them; without it (the default) they are links that act as the channel. Stored sealed and never shown again.';
  if (!o.channel)
    return inputField({
      name: 'signing_secret',
      label: 'Signing secret (optional)',
      value: '',
      problem: o.p,
      hint: `${what} Once the channel is created, its page shows the Request URL to set in the app (Interactivity & Shortcuts).`,
    });
  const state = hint
    ? `<p id="signing-secret-state"><strong>Signing secret:</strong> set (<code>${esc(hint)}</code>): the buttons are interactive.</p>`
    : '<p id="signing-secret-state"><strong>Signing secret:</strong> not set: the buttons are links.</p>';
  const field = inputField({
    name: 'signing_secret',
    label: hint ? 'Replace the signing secret' : 'Signing secret (optional)',
    value: '',
    problem: o.p,
    hint: `${what}${hint ? ' Leave empty to keep the current one.' : ''}`,
  });
  const remove = hint
    ? checkboxField({
        name: 'remove_signing_secret',
        label: 'Remove the signing secret (the buttons become links again)',
        checked: o.remove,
      })
    : '';
  return `${state}${field}${remove}`;
}

/** PagerDuty's and Opsgenie's own endpoint: empty is the vendor's (the default). */
function apiUrlField(type: 'pagerduty' | 'opsgenie', value: string, p: FormProblem | null | undefined): string {
  const hint =
    type === 'pagerduty'
      ? `Optional. Where this channel sends its events instead of PagerDuty: a proxy, a regional or a compatible endpoint (http or https). Vigil posts each event to this URL followed by /v2/enqueue. Empty (the default): PagerDuty’s own, ${PAGERDUTY_DEFAULT}.`
      : `Optional. Where this channel calls the Alert API instead of Opsgenie: a proxy or a compatible endpoint (http or https); Vigil calls this URL followed by /v2/alerts, whatever the region. Empty (the default): Opsgenie’s own for the region, ${OPSGENIE_DEFAULTS.us} (US) or ${OPSGENIE_DEFAULTS.eu} (EU).`;
  return inputField({
    name: 'api_url',
    label: type === 'pagerduty' ? 'Events API base URL' : 'Alert API base URL',
    value,
    problem: p,
    hint,
  });
}

/**
 * The create form (a type chosen first, then that type's fields only) or the edit form of one
 * channel (its type's fields; a secret field left empty keeps the stored secret).
 */
export function channelFormBody(o: {
  csrf: string;
  values: FormValues;
  types: readonly string[];
  problem?: FormProblem | null;
  channel?: ChannelView;
}): string {
  const p = o.problem;
  const val = (n: string) => valueOf(o.values, n);
  const c = o.channel;
  const type = c ? c.type : channelFormType(val('type'), o.types);
  const keep = c ? ' Leave empty to keep the current one.' : '';
  const fields: string[] = [];
  switch (type) {
    case 'email':
      fields.push(
        textareaField({
          name: 'addresses',
          label: 'Addresses',
          value: val('addresses'),
          problem: p,
          hint: 'One address per line, 1 to 20.',
        }),
      );
      break;
    case 'slack':
      fields.push(
        inputField({
          name: 'url',
          label: 'URL',
          value: val('url'),
          problem: p,
          hint: `The Slack incoming-webhook URL (http or https). Stored sealed and never shown again.${keep}`,
        }),
      );
      fields.push(signingSecretFields({ p, channel: c, remove: val('remove_signing_secret') === 'true' }));
      break;
    case 'teams':
    case 'discord':
    case 'webhook':
      fields.push(
        inputField({
          name: 'url',
          label: 'URL',
          value: val('url'),
          problem: p,
          hint: `The ${type === 'webhook' ? 'receiver’s' : 'incoming-webhook'} URL (http or https). Stored sealed and never shown again.${keep}`,
        }),
      );
      break;
    case 'pagerduty':
      fields.push(
        inputField({
          name: 'routing_key',
          label: 'Integration (routing) key',
          value: val('routing_key'),
          problem: p,
          hint: `32 characters, from the service's Events API v2 integration. Stored sealed.${keep}`,
        }),
      );
      fields.push(apiUrlField('pagerduty', val('api_url'), p));
      break;
    case 'opsgenie':
      fields.push(
        inputField({
          name: 'api_key',
          label: 'API key',
          value: val('api_key'),
          problem: p,
          hint: `An API integration key. Stored sealed.${keep}`,
        }),
      );
      fields.push(
        selectField({
          name: 'region',
          label: 'Region',
          value: val('region') || 'us',
          problem: p,
          options: [
            { value: 'us', label: 'US (api.opsgenie.com)' },
            { value: 'eu', label: 'EU (api.eu.opsgenie.com)' },
          ],
        }),
      );
      fields.push(apiUrlField('opsgenie', val('api_url'), p));
      break;
  }
  const action = c ? `${channelHref(c.id)}/edit` : '/console/alerts/channels/new';
  const cancel = c ? channelHref(c.id) : '/console/alerts/channels';
  const typeLine = c
    ? `<p><strong>Type:</strong> ${esc(CHANNEL_TYPE_LABELS[type] ?? type)} <span class="muted">(a channel keeps its type)</span></p>`
    : typeChooser(type, o.types);
  return `${problemBox(p, summaryFields(type))}
${typeLine}
<form class="stack" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${c ? '' : `<input type="hidden" name="type" value="${esc(type)}">`}
${inputField({ name: 'name', label: 'Name', value: val('name'), problem: p, required: true, hint: 'e.g. "#ops-alerts" or "Payments on-call"' })}
<fieldset><legend>${esc(CHANNEL_TYPE_LABELS[type] ?? type)}</legend>${fields.join('\n')}</fieldset>
${checkboxField({ name: 'enabled', label: 'Enabled (a disabled channel is skipped when an alert escalates)', checked: val('enabled') === 'true' })}
<div><button type="submit">${c ? 'Save channel' : 'Create channel'}</button> <a href="${esc(cancel)}">Cancel</a></div>
</form>`;
}

/** What the channel's page says of its own endpoint (PagerDuty, Opsgenie) and of its Slack app (signing secret, interactions URL). */
function typeFacts(c: ChannelView, publicBaseUrl: string): [string, string][] {
  if (c.type === 'pagerduty' || c.type === 'opsgenie') {
    const vendor = c.type === 'pagerduty' ? PAGERDUTY_DEFAULT : OPSGENIE_DEFAULTS[c.settings.region ?? 'us'];
    return [
      [
        'Sends to',
        c.settings.api_url
          ? `<code>${esc(c.settings.api_url)}</code> <span class="muted">(its own endpoint)</span>`
          : `<code>${esc(vendor)}</code> <span class="muted">(the vendor’s, the default)</span>`,
      ],
    ];
  }
  if (c.type !== 'slack') return [];
  const hint = c.settings.signing_secret_hint;
  if (!hint) return [['Signing secret', '<span class="muted">not set: Acknowledge and Resolve are links</span>']];
  return [
    ['Signing secret', `set (<code>${esc(hint)}</code>): Acknowledge and Resolve are interactive buttons`],
    [
      'Interactivity Request URL',
      `<code>${esc(slackInteractionsUrl(publicBaseUrl, c.id))}</code> <span class="muted">(set it in the Slack app: Interactivity &amp; Shortcuts)</span>`,
    ],
  ];
}

function sendStateBadge(state: string): string {
  return stateBadge(state, state === 'succeeded' ? 'healthy' : state === 'failed' ? 'unhealthy' : 'degraded');
}

export function channelDetailBody(o: {
  channel: ChannelView;
  sends: SendView[];
  nextCursor: string | null;
  csrf: string;
  canWrite: boolean;
  zone: string;
  publicBaseUrl: string;
  problem?: FormProblem | null;
}): string {
  const c = o.channel;
  const rows: [string, string][] = [
    ['Type', esc(CHANNEL_TYPE_LABELS[c.type] ?? c.type)],
    ['Destination', destination(c)],
    ...typeFacts(c, o.publicBaseUrl),
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
    s.last_status_code !== null
      ? `HTTP ${esc(String(s.last_status_code))}`
      : s.last_error
        ? esc(s.last_error)
        : '<span class="muted">—</span>',
    s.attempts.length
      ? `${esc(String(s.attempts[s.attempts.length - 1]!.latency_ms))} ms`
      : '<span class="muted">—</span>',
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
