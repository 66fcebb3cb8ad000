/** Sent only on request, to the one webhook being tested (testWebhook); never subscribable (docs/decisions.md). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The events webhook subscriptions choose from (spec §6). */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'incident.created',
  'incident.published',
  'incident.updated',
  'incident.message_added',
  'incident.resolved',
  'incident.deleted',
  'maintenance.scheduled',
  'maintenance.starting_soon',
  'maintenance.started',
  'maintenance.completed',
  'maintenance.canceled',
  'maintenance.message_added',
  'metric.status_changed',
  'sla_statement.drafted',
  'sla_statement.submitted',
  'sla_statement.changes_requested',
  'sla_statement.recomputed',
  'sla_statement.approved',
  'sla_statement.delivered',
  'sla_statement.corrected',
  'sla_statement.superseded',
  'sla_statement.voided',
  'alert.triggered',
  'alert.escalated',
  'alert.acknowledged',
  'alert.resolved',
] as const;

/** Every event Vigil emits: the subscribable ones and the test event. */
export const EVENT_TYPES = [...SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
