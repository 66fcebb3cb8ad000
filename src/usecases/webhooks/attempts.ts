import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEventSchema, WebhookAttemptSchema, WebhookDeliverySchema, WebhookSubscriptionSchema } from '../../db/entities';
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
export async function prepareAttempt(em: EntityManager, box: SecretBox, deliveryId: string, now: Date): Promise<Preparation> {
  const d = await em.findOne(WebhookDeliverySchema, deliveryId);
  if (!d) return { finished: 'gone' };
  if (d.state !== 'pending') return { finished: d.state };
  const s = await em.findOneOrFail(WebhookSubscriptionSchema, d.subscription);
  if (s.deletedAt || s.disabledAt) {
    d.state = 'canceled';
    d.nextAttemptAt = null;
    d.completedAt = now;
    d.updatedAt = now;
    d.lastError = s.deletedAt ? 'webhook deleted' : 'webhook disabled';
    await em.flush();
    return { finished: 'canceled' };
  }
  const e = await em.findOneOrFail(OutboxEventSchema, d.event);
  const body = JSON.stringify({ id: e.id, type: e.type, created_at: e.createdAt.toISOString(), data: e.payload });
  const secrets = [box.open(s.sealedSecret)];
  if (s.sealedPreviousSecret && s.previousSecretExpiresAt && s.previousSecretExpiresAt.getTime() > now.getTime()) {
    // A previous secret sealed under a lost master key is skipped: rotating is how one recovers.
    const previous = openOrNull(box, s.sealedPreviousSecret);
    if (previous) secrets.push(previous);
  }
  return { send: { url: s.url, messageId: e.id, body, secrets } };
}

export interface AttemptRecord {
  number: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  succeeded: boolean;
  /** When the next attempt is due; null when this one was the last. */
  nextAttemptAt: Date | null;
}

/** Stores the attempt (the same number again overwrites: activity retries stay idempotent) and the delivery's new state. */
export async function recordAttempt(em: EntityManager, deliveryId: string, a: AttemptRecord): Promise<string> {
  return em.transactional(async (tx) => {
    const d = await tx.findOneOrFail(WebhookDeliverySchema, deliveryId);
    await tx.upsert(
      WebhookAttemptSchema,
      {
        id: randomUUID(),
        organization: d.organization,
        delivery: d.id,
        number: a.number,
        attemptedAt: a.attemptedAt,
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        error: a.error,
        succeeded: a.succeeded,
      },
      { onConflictFields: ['delivery', 'number'], onConflictExcludeFields: ['id'] },
    );
    d.attemptCount = Math.max(d.attemptCount, a.number);
    d.lastStatusCode = a.statusCode;
    d.lastError = a.error;
    d.updatedAt = a.attemptedAt;
    if (a.succeeded) {
      d.state = 'succeeded';
      d.nextAttemptAt = null;
      d.completedAt = a.attemptedAt;
    } else if (a.nextAttemptAt) {
      d.nextAttemptAt = a.nextAttemptAt;
    } else {
      d.state = 'failed';
      d.nextAttemptAt = null;
      d.completedAt = a.attemptedAt;
    }
    await tx.flush();
    return d.state;
  });
}

function openOrNull(box: SecretBox, sealed: string): string | null {
  try {
    return box.open(sealed);
  } catch {
    return null;
  }
}
