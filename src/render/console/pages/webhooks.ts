import { esc } from '../../html';
import { exportLink, managedMarker, managedNotice } from '../config-as-code';
import { type FormProblem, actionButton, problemBox, selectField } from '../forms';
import { facts, link, pager, stateBadge, table, temporalWorkflowUrl, zonedTime } from '../parts';
import { webhookWorkflowId } from '../../../domain/workflow-ids';

/** "Open in Temporal UI" for a workflow; '' without a UI. */
export function temporalWorkflowLink(temporalUiUrl: string | null, workflowId: string): string {
  const href = temporalWorkflowUrl(temporalUiUrl, workflowId);
  return href
    ? `<a href="${esc(href)}" rel="noopener">Open in Temporal UI<span class="muted"> (workflow ${esc(workflowId)})</span></a>`
    : '';
}

export interface ConsoleWebhook {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  config_key: string | null;
  disabled_at: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
}

export interface ConsoleAttempt {
  number: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  succeeded: boolean;
}

export interface ConsoleDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  state: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  redelivery_of: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: ConsoleAttempt[];
}

export const webhookHref = (id: string) => `/console/webhooks/${encodeURIComponent(id)}`;
export const deliveryHref = (webhookId: string, deliveryId: string) =>
  `${webhookHref(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}`;

function enabledBadge(enabled: boolean): string {
  return enabled ? stateBadge('enabled', 'healthy') : stateBadge('disabled');
}

export function deliveryStateBadge(state: string): string {
  const tone =
    state === 'succeeded' ? 'healthy' : state === 'failed' ? 'unhealthy' : state === 'pending' ? 'degraded' : 'neutral';
  return stateBadge(state, tone);
}

function urlText(url: string): string {
  return `<code>${esc(url)}</code>`;
}

function eventList(types: string[]): string {
  return types.map((t) => `<code>${esc(t)}</code>`).join(', ');
}

function lastResponse(d: { last_status_code: number | null; last_error: string | null }): string {
  if (d.last_status_code !== null) return `HTTP ${esc(String(d.last_status_code))}`;
  if (d.last_error) return esc(d.last_error);
  return '<span class="muted">—</span>';
}

export function webhookListBody(
  hooks: ConsoleWebhook[],
  nextCursor: string | null,
  canWrite: boolean,
  zone: string,
): string {
  const rows = hooks.map((w) => [
    `${link(webhookHref(w.id), w.url)}${managedMarker(w.config_key)}${w.description ? `<br><span class="muted">${esc(w.description)}</span>` : ''}`,
    eventList(w.event_types),
    enabledBadge(w.enabled),
    zonedTime(w.created_at, zone),
  ]);
  const create = canWrite
    ? '<p class="actions"><a class="button" href="/console/webhooks/new">New webhook</a></p>'
    : '';
  return `${create}${exportLink('webhook')}
${table(['URL', 'Events', 'State', 'Created'], rows, canWrite ? 'No webhook subscriptions yet.' : 'No webhook subscriptions yet. Create them through the API or a configuration document.')}
${pager('/console/webhooks', nextCursor)}`;
}

export interface WebhookDetailView {
  webhook: ConsoleWebhook;
  deliveries: ConsoleDelivery[];
  nextCursor: string | null;
  stateFilter: string;
  states: readonly string[];
  /** Edit, send test, rotate, disable, delete (webhook-form.ts), for roles that may. */
  actions?: string;
  problem?: FormProblem | null;
  /** The viewer's zone: every time on the page is shown in it. */
  zone: string;
}

export function webhookDetailBody(view: WebhookDetailView): string {
  const w = view.webhook;
  const rows: [string, string][] = [
    ['URL', urlText(w.url)],
    [
      'State',
      `${enabledBadge(w.enabled)}${w.disabled_at ? ` <span class="muted">since</span> ${zonedTime(w.disabled_at, view.zone)}` : ''}`,
    ],
    ['Events', eventList(w.event_types)],
  ];
  if (w.description) rows.push(['Description', esc(w.description)]);
  if (w.config_key) rows.push(['Config key', `<code>${esc(w.config_key)}</code>`]);
  if (w.previous_secret_expires_at)
    rows.push(['Previous secret', `still signs until ${zonedTime(w.previous_secret_expires_at, view.zone)}`]);
  rows.push(['Created', zonedTime(w.created_at, view.zone)]);
  const deliveries = view.deliveries.map((d) => [
    link(deliveryHref(w.id, d.id), d.event_type),
    deliveryStateBadge(d.state),
    esc(String(d.attempt_count)),
    lastResponse(d),
    zonedTime(d.created_at, view.zone),
  ]);
  const options = [{ value: '', label: 'Any state' }, ...view.states.map((s) => ({ value: s, label: s }))];
  const path = webhookHref(w.id);
  return `<p><a href="/console/webhooks">All webhooks</a></p>
${managedNotice(w.config_key)}
${problemBox(view.problem)}
${facts(rows)}
${view.actions ?? ''}
<section aria-labelledby="deliveries"><h2 id="deliveries">Deliveries</h2>
<form class="stack" method="get" action="${esc(path)}" aria-label="Filter deliveries">
${selectField({ name: 'state', label: 'State', options, value: view.stateFilter })}
<div class="actions"><button type="submit">Filter</button></div>
</form>
${table(['Event', 'State', 'Attempts', 'Last response', 'Created'], deliveries, view.stateFilter ? 'No delivery in this state.' : 'No deliveries yet.', 'Newest first')}
${pager(path, view.nextCursor, view.stateFilter ? { state: view.stateFilter } : {})}
</section>`;
}

export interface DeliveryDetailView {
  webhook: ConsoleWebhook;
  delivery: ConsoleDelivery;
  csrf: string;
  canRedeliver: boolean;
  temporalUiUrl: string | null;
  problem?: FormProblem | null;
  /** The viewer's zone: every time on the page is shown in it. */
  zone: string;
}

export function deliveryDetailBody(view: DeliveryDetailView): string {
  const { webhook: w, delivery: d } = view;
  const rows: [string, string][] = [
    ['Webhook', link(webhookHref(w.id), w.url)],
    ['Event', `<code>${esc(d.event_type)}</code> <span class="muted">id</span> <code>${esc(d.event_id)}</code>`],
    ['State', deliveryStateBadge(d.state)],
    ['Attempts', esc(String(d.attempt_count))],
    ['Last response', lastResponse(d)],
  ];
  if (d.last_error && d.last_status_code !== null) rows.push(['Last error', esc(d.last_error)]);
  if (d.next_attempt_at) rows.push(['Next attempt', zonedTime(d.next_attempt_at, view.zone)]);
  if (d.redelivery_of) rows.push(['Redelivery of', link(deliveryHref(w.id, d.redelivery_of), d.redelivery_of)]);
  rows.push(['Created', zonedTime(d.created_at, view.zone)]);
  if (d.completed_at) rows.push(['Finished', zonedTime(d.completed_at, view.zone)]);
  const attempts = d.attempts.map((a) => [
    esc(String(a.number)),
    zonedTime(a.attempted_at, view.zone),
    a.status_code === null ? '<span class="muted">no response</span>' : `HTTP ${esc(String(a.status_code))}`,
    `${esc(String(a.latency_ms))} ms`,
    a.succeeded ? stateBadge('succeeded', 'healthy') : stateBadge('failed', 'unhealthy'),
    a.error ? esc(a.error) : '<span class="muted">—</span>',
  ]);
  const actions: string[] = [];
  if (view.canRedeliver) {
    if (d.state === 'pending')
      actions.push(
        '<p class="muted">This delivery is still being attempted; it can be sent again once it has succeeded or failed.</p>',
      );
    else if (!w.enabled)
      actions.push('<p class="muted">The webhook is disabled; enable it before sending this delivery again.</p>');
    else
      actions.push(
        actionButton({ action: `${deliveryHref(w.id, d.id)}/redeliver`, label: 'Redeliver', csrf: view.csrf }),
      );
  }
  const workflow = temporalWorkflowLink(view.temporalUiUrl, webhookWorkflowId(d.id));
  if (workflow) actions.push(workflow);
  return `<p><a href="${esc(webhookHref(w.id))}">All deliveries of this webhook</a></p>
${problemBox(view.problem)}
${facts(rows)}
${actions.length ? `<div class="actions">${actions.join('\n')}</div>` : ''}
<section aria-labelledby="attempts"><h2 id="attempts">Attempts</h2>
${table(['#', 'Attempted at', 'Response', 'Latency', 'Outcome', 'Error'], attempts, 'No attempts yet.')}
</section>`;
}
