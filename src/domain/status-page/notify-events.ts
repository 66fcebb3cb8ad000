/** Events that owe a page's subscribers an email. */
export const SUBSCRIBER_NOTICE_TYPES = [
  'incident.published',
  'incident.message_added',
  'incident.resolved',
  'maintenance.scheduled',
  'maintenance.started',
  'maintenance.completed',
  'maintenance.canceled',
  'maintenance.message_added',
] as const;
export type SubscriberNoticeType = (typeof SUBSCRIBER_NOTICE_TYPES)[number];

/** Internal: a subscriber asked for a confirmation link (never offered to webhooks). */
export const CONFIRMATION_EVENT = 'subscriber.confirmation_requested';

/** Every event type the notification workflow handles. */
export const EMAIL_EVENT_TYPES: ReadonlySet<string> = new Set([...SUBSCRIBER_NOTICE_TYPES, CONFIRMATION_EVENT]);

/** Delivery attempts per email before it is marked failed, and the backoff between them. */
export const EMAIL_MAX_ATTEMPTS = 5;
export const EMAIL_RETRY_BASE_MS = 30_000;
export function emailRetryDelayMs(attempt: number, baseMs = EMAIL_RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 30 * baseMs);
}
