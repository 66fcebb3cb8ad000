/** Every event Vigil emits (spec §6). Webhook subscriptions choose from this list. */
export const EVENT_TYPES = [
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
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
