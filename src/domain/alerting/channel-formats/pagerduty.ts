/**
 * PagerDuty Events API v2: one alert per `dedup_key`, moved through trigger → acknowledge → resolve.
 * https://developer.pagerduty.com/docs/send-alert-event
 * https://developer.pagerduty.com/api-reference/368ae3d938c9e-send-an-event-to-pager-duty
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import { facts, fit, headline, isoSeconds, JSON_HEADERS, linkButtons, oneLine } from './message-text';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com';
export const PAGERDUTY_LIMITS = { summary: 1024, dedupKey: 255 } as const;

export type PagerDutySeverity = 'critical' | 'error' | 'warning' | 'info';
export type PagerDutyEventAction = 'trigger' | 'acknowledge' | 'resolve';

/** Escalate re-triggers the same dedup_key (PagerDuty folds it into the open alert); a test is a trigger. */
export function pagerdutyEventAction(msg: AlertMessage): PagerDutyEventAction {
  return msg.action === 'acknowledge' || msg.action === 'resolve' ? msg.action : 'trigger';
}

/**
 * The rule's severity decides, since it is what the operator chose to page for: critical →
 * critical, warning → warning, info → info. One step down for a critical rule whose subject is
 * only `degraded` (→ error): still urgent, but not "down". An unhealthy, offline, no_data or
 * burning subject on a critical rule stays critical. A test is always `info`, so trying a
 * channel never wakes anyone on a service with severity-based urgency.
 */
export function pagerdutySeverity(msg: AlertMessage): PagerDutySeverity {
  if (msg.action === 'test') return 'info';
  if (msg.severity === 'critical') return msg.status === 'degraded' ? 'error' : 'critical';
  return msg.severity;
}

export function pagerdutyEvent(routingKey: string, msg: AlertMessage): Record<string, unknown> {
  const event_action = pagerdutyEventAction(msg);
  const dedup_key = msg.dedupKey.slice(0, PAGERDUTY_LIMITS.dedupKey);
  if (event_action !== 'trigger') return { routing_key: routingKey, event_action, dedup_key };
  const summary = msg.action === 'test' ? headline(msg) : `${oneLine(msg.title)} — ${oneLine(msg.summary)}`;
  const text = {
    open: 'Open alert in Vigil',
    acknowledge: 'Acknowledge in Vigil',
    resolve: 'Resolve in Vigil',
  } as const;
  return {
    routing_key: routingKey,
    event_action,
    dedup_key,
    payload: {
      summary: fit(summary, PAGERDUTY_LIMITS.summary),
      source: fit(oneLine(msg.subject.name) || msg.subject.id, 255),
      severity: pagerdutySeverity(msg),
      timestamp: isoSeconds(msg.occurredAt) ?? undefined,
      component: msg.metric ? fit(oneLine(msg.metric.name), 255) : undefined,
      group: fit(oneLine(msg.organization.name), 255),
      class: msg.status,
      // Flat, readable entries: PagerDuty shows custom_details as a key/value table.
      custom_details: {
        ...Object.fromEntries(facts(msg).map((f) => [f.label.toLowerCase().replace(/ /g, '_'), f.value])),
        occurred_at: msg.occurredAt,
        action: msg.action,
        vigil_alert_id: msg.alertId,
        subject_id: msg.subject.id,
        ...(msg.metric && msg.metric.value !== null ? { metric_value: msg.metric.value } : {}),
      },
    },
    links: linkButtons(msg).map((b) => ({ href: b.url, text: text[b.kind] })),
    client: 'Vigil',
    client_url: msg.links.alert,
  };
}

/**
 * `eventsUrl` is the base (`https://events.pagerduty.com`); the event goes to `<base>/v2/enqueue`.
 * A URL that already ends in `/v2/enqueue` (people paste the one PagerDuty's docs show) is used
 * as it is, so both readings reach the same endpoint.
 */
export function pagerdutyEnqueueUrl(eventsUrl: string): string {
  const base = eventsUrl.replace(/\/+$/, '');
  return /\/v2\/enqueue$/i.test(base) ? base : `${base}/v2/enqueue`;
}

export function pagerdutyRequest(eventsUrl: string, routingKey: string, msg: AlertMessage): ChannelRequest {
  return {
    method: 'POST',
    url: pagerdutyEnqueueUrl(eventsUrl),
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(pagerdutyEvent(routingKey, msg)),
  };
}
