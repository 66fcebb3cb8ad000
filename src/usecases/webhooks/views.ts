import type { WebhookAttempt, WebhookDelivery, WebhookSubscription } from '../../db/entities';
import { attemptViews } from '../shared/attempt-views';
import { toIso, toIsoOrNull } from '../../domain/time';

export interface WebhookView {
  id: string;
  config_key: string | null;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_at: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function webhookView(s: WebhookSubscription, now: Date): WebhookView {
  const previousLive = s.previousSecretExpiresAt && s.previousSecretExpiresAt.getTime() > now.getTime();
  return {
    id: s.id,
    config_key: s.configKey ?? null,
    url: s.url,
    description: s.description ?? null,
    event_types: s.eventTypes,
    enabled: s.disabledAt == null,
    disabled_at: toIsoOrNull(s.disabledAt),
    previous_secret_expires_at: previousLive ? toIso(s.previousSecretExpiresAt!) : null,
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
    deleted_at: toIsoOrNull(s.deletedAt),
  };
}

export const DELIVERY_STATES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface AttemptView {
  number: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  succeeded: boolean;
}

export interface DeliveryView {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryState;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  redelivery_of: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: AttemptView[];
}

export function deliveryView(d: WebhookDelivery, attempts: WebhookAttempt[]): DeliveryView {
  return {
    id: d.id,
    webhook_id: d.subscription,
    event_id: d.event,
    event_type: d.eventType,
    state: d.state as DeliveryState,
    attempt_count: d.attemptCount,
    last_status_code: d.lastStatusCode ?? null,
    last_error: d.lastError ?? null,
    next_attempt_at: toIsoOrNull(d.nextAttemptAt),
    redelivery_of: d.redeliveryOf ?? null,
    created_at: toIso(d.createdAt),
    completed_at: toIsoOrNull(d.completedAt),
    attempts: attemptViews(attempts.filter((a) => a.delivery === d.id)),
  };
}
