import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type AttemptRow,
  cancelPendingDelivery,
  loadDeliveryForAttempt,
  storeAttempt,
} from '../../db/repositories/webhook-delivery-repository';
import type { SecretBox } from '../../crypto/secret-box';
import { standardWebhookHeaders } from '../../crypto/webhook-signing';
import { type RetryPolicy, parseRetryAfter, retryDelayMs, verdictForStatus } from '../../domain/webhook-retry';
import type { WebhookPoster } from '../shared/ports';

export interface AttemptDeps {
  box: SecretBox;
  poster: WebhookPoster;
  /** Longest wait for a receiver's answer. */
  timeoutMs: number;
}

export interface AttemptInput {
  deliveryId: string;
  /** 1-based; the same number on an activity retry overwrites that attempt's record. */
  attempt: number;
  policy: RetryPolicy;
  /** Since the first attempt started. */
  elapsedMs: number;
  /** [0, 1): spreads retries. */
  jitter: number;
}

export interface AttemptOutcome {
  state: string;
  /** How long to wait before the next attempt; null when the delivery is finished. */
  retryInMs: number | null;
}

/**
 * One signed POST of a delivery, recorded; answers when to try again. Receivers deduplicate on
 * `webhook-id`, and the same attempt number overwrites its record, so a retried activity is safe.
 */
export async function attemptDelivery(
  em: () => EntityManager,
  deps: AttemptDeps,
  input: AttemptInput,
): Promise<AttemptOutcome> {
  const prep = await prepareAttempt(em(), deps.box, input.deliveryId, new Date());
  if ('finished' in prep) return { state: prep.finished, retryInMs: null };
  const { url, messageId, body, secrets } = prep.send;
  const attemptedAt = new Date();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const headers = {
    'user-agent': 'Vigil-Webhooks/1.0',
    ...standardWebhookHeaders(secrets, messageId, timestamp, body),
  };
  const r = await deps.poster.post(url, headers, body, deps.timeoutMs);
  // A refused receiver address stays refused: no point retrying it for a day.
  const verdict = r.error?.startsWith('target_not_public:')
    ? 'give_up'
    : r.statusCode === null
      ? 'retry'
      : verdictForStatus(r.statusCode);
  const retryInMs =
    verdict === 'retry'
      ? retryDelayMs(
          input.policy,
          input.attempt,
          input.elapsedMs + r.latencyMs,
          input.jitter,
          parseRetryAfter(r.retryAfter, Date.now()),
        )
      : null;
  const state = await recordAttempt(em(), input.deliveryId, {
    number: input.attempt,
    attemptedAt,
    statusCode: r.statusCode,
    latencyMs: r.latencyMs,
    error: r.error ?? (verdict === 'succeeded' ? null : `HTTP ${r.statusCode}`),
    succeeded: verdict === 'succeeded',
    nextAttemptAt: retryInMs === null ? null : new Date(Date.now() + retryInMs),
  });
  return { state, retryInMs };
}

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
