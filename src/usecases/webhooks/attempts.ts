import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type AttemptRow,
  cancelPendingDelivery,
  loadDeliveryForAttempt,
  storeAttempt,
} from '../../db/repositories/webhook-delivery-repository';
import type { SecretBox } from '../../infra/secret-box';

/** Everything one POST needs; the body is the same bytes on every attempt. */
export interface PreparedAttempt {
  url: string;
  /** `webhook-id`: the event id, the same for every attempt and redelivery of this event. */
  messageId: string;
  body: string;
  secrets: string[];
}

export type Preparation = { send: PreparedAttempt } | { finished: string };

/**
 * Loads what an attempt sends. A delivery already finished answers `finished`; one whose
 * webhook was disabled or deleted meanwhile is canceled here and answers `finished: canceled`.
 */
export async function prepareAttempt(
  em: EntityManager,
  box: SecretBox,
  deliveryId: string,
  now: Date,
): Promise<Preparation> {
  const d = await loadDeliveryForAttempt(em, deliveryId);
  if (!d) return { finished: 'gone' };
  if (d.state !== 'pending') return { finished: d.state };
  if (d.subscriptionDeletedAt || d.subscriptionDisabledAt) {
    const state = await cancelPendingDelivery(
      em,
      deliveryId,
      d.subscriptionDeletedAt ? 'webhook deleted' : 'webhook disabled',
      now,
    );
    return { finished: state ?? 'gone' };
  }
  const body = JSON.stringify({
    id: d.eventId,
    type: d.eventType,
    created_at: d.eventCreatedAt.toISOString(),
    data: d.payload,
  });
  const secrets = [box.open(d.sealedSecret)];
  if (d.sealedPreviousSecret && d.previousSecretExpiresAt && d.previousSecretExpiresAt.getTime() > now.getTime()) {
    // A previous secret sealed under a lost master key is skipped: rotating is how one recovers.
    const previous = openOrNull(box, d.sealedPreviousSecret);
    if (previous) secrets.push(previous);
  }
  return { send: { url: d.url, messageId: d.eventId, body, secrets } };
}

/** Stores the attempt (the same number again overwrites: activity retries stay idempotent) and the delivery's new state. */
export async function recordAttempt(em: EntityManager, deliveryId: string, a: AttemptRow): Promise<string> {
  const state = await storeAttempt(em, deliveryId, a);
  if (state === null) throw new Error(`Webhook delivery ${deliveryId} not found`);
  return state;
}

function openOrNull(box: SecretBox, sealed: string): string | null {
  try {
    return box.open(sealed);
  } catch {
    return null;
  }
}
