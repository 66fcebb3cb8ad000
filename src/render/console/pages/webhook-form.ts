import { SUBSCRIBABLE_EVENT_TYPES } from '../../../domain/event-types';
import { esc } from '../../html';
import { managedNotice } from '../config-as-code';
import {
  type FormProblem,
  actionButton,
  checkboxField,
  choiceGroup,
  csrfField,
  inputField,
  problemBox,
  textareaField,
} from '../forms';
import { link, zonedTime } from '../parts';
import { type ConsoleWebhook, webhookHref } from './webhooks';

export interface WebhookFormValues {
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  /** Create only: a `whsec_…` secret of the receiver's own; empty to have one generated. */
  secret: string;
}

export const EMPTY_WEBHOOK_FORM: WebhookFormValues = {
  url: '',
  description: '',
  event_types: [],
  enabled: true,
  secret: '',
};

const EVENT_CHOICES = SUBSCRIBABLE_EVENT_TYPES.map((t) => ({ id: t, name: t }));

/** Create (`existing` null) or edit a subscription: URL, description, the events it receives. */
export function webhookFormBody(o: {
  csrf: string;
  values: WebhookFormValues;
  problem?: FormProblem | null;
  existing?: ConsoleWebhook | null;
}): string {
  const { values: x, problem: p, existing } = o;
  const action = existing ? `${webhookHref(existing.id)}/edit` : '/console/webhooks/new';
  const createOnly = existing
    ? ''
    : `${checkboxField({ name: 'enabled', label: 'Enabled (deliver events from now on)', checked: x.enabled })}
<details><summary>Bring your own secret (optional)</summary>
${inputField({ name: 'secret', label: 'Signing secret', value: x.secret, problem: p, hint: 'whsec_ followed by 24 to 64 bytes in base64. Left empty, Vigil generates one and shows it once.' })}
</details>`;
  return `${existing ? `${managedNotice(existing.config_key)}<p>${link(webhookHref(existing.id), 'Back to the webhook')}</p>` : '<p><a href="/console/webhooks">All webhooks</a></p>'}
${problemBox(p, ['url', 'description', 'event_types', 'secret'])}
<form class="stack publishing-form" method="post" action="${esc(action)}">
${csrfField(o.csrf)}
${inputField({ name: 'url', label: 'URL', value: x.url, problem: p, required: true, hint: 'Where events are POSTed (http or https), signed with the Standard Webhooks scheme.' })}
${textareaField({ name: 'description', label: 'Description (optional)', value: x.description, problem: p })}
<div class="event-choices">${choiceGroup({ name: 'event_types', legend: 'Events it receives', choices: EVENT_CHOICES, selected: x.event_types, problem: p, empty: '' })}</div>
${createOnly}
<div class="actions"><button type="submit">${existing ? 'Save changes' : 'Create webhook'}</button></div>
</form>`;
}

/** The signing secret, shown once (after create or rotate): the page says it cannot be shown again. */
export function webhookSecretBody(o: {
  webhook: ConsoleWebhook;
  secret: string;
  rotated: boolean;
  zone: string;
}): string {
  const w = o.webhook;
  const overlap =
    o.rotated && w.previous_secret_expires_at
      ? `<p>The previous secret keeps signing beside it (a second <code>v1,</code> entry in <code>webhook-signature</code>) until ${zonedTime(w.previous_secret_expires_at, o.zone)}, so the receiver can switch without rejecting deliveries.</p>`
      : '';
  return `${managedNotice(w.config_key)}
<div class="secret-once" role="note">
<p><strong>${o.rotated ? 'The new signing secret' : 'The signing secret'}</strong> of <code>${esc(w.url)}</code>. Copy it now: it is shown only on this page and never again${o.rotated ? '' : ' (rotate it to get a new one)'}.</p>
<p><label for="secret-value">Secret</label><input type="text" id="secret-value" readonly value="${esc(o.secret)}" class="secret-value"></p>
</div>
${overlap}
<p>${link(webhookHref(w.id), 'Continue to the webhook')}</p>`;
}

/** The write actions of a webhook's page, for roles with write:config. */
export function webhookActions(o: { webhook: ConsoleWebhook; csrf: string }): string {
  const w = o.webhook;
  const base = webhookHref(w.id);
  const test = w.enabled
    ? actionButton({ action: `${base}/test`, label: 'Send test', csrf: o.csrf, kind: 'secondary' })
    : '<span class="muted">Send test: enable the webhook first.</span>';
  return `<section aria-labelledby="manage" class="webhook-actions"><h2 id="manage">Manage</h2>
<div class="actions">
<a class="button" href="${esc(base)}/edit">Edit</a>
${test}
${actionButton({ action: `${base}/rotate-secret`, label: 'Rotate secret', csrf: o.csrf, kind: 'secondary' })}
${w.enabled ? actionButton({ action: `${base}/disable`, label: 'Disable', csrf: o.csrf, kind: 'secondary' }) : actionButton({ action: `${base}/enable`, label: 'Enable', csrf: o.csrf })}
<a class="button danger" href="${esc(base)}/delete">Delete…</a>
</div>
<p class="muted">Send test queues a <code>webhook.test</code> event for this webhook only, signed and retried like any delivery, whatever events it receives. Rotate secret answers a new secret once; the old one signs too for 24 hours. Disabling stops new deliveries and cancels retries at their next attempt.</p>
</section>`;
}

export function webhookDeleteBody(o: { csrf: string; webhook: ConsoleWebhook; problem?: FormProblem | null }): string {
  const w = o.webhook;
  return `${managedNotice(w.config_key)}
${problemBox(o.problem)}
<p>Delete the webhook to <code>${esc(w.url)}</code>? No more events are sent to it; deliveries still retrying stop at their next attempt.</p>
<form class="actions" method="post" action="${esc(webhookHref(w.id))}/delete">${csrfField(o.csrf)}<button type="submit" class="danger">Delete webhook</button> <a href="${esc(webhookHref(w.id))}">Keep it</a></form>`;
}
