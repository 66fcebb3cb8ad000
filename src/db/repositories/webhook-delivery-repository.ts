import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../raw-sql';

/**
 * The hot path of a webhook delivery in plain SQL: one read before the POST, one statement after
 * it. Each attempt used to cost eight round trips and three hydrated entities, which capped
 * deliveries per second well below what Temporal and the receiver could do.
 */

/** A delivery with its subscription and event, as one attempt needs them. */
export interface DeliveryForAttempt {
  state: string;
  url: string;
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  subscriptionDeletedAt: Date | null;
  subscriptionDisabledAt: Date | null;
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  payload: unknown;
}

export async function loadDeliveryForAttempt(
  em: EntityManager,
  deliveryId: string,
): Promise<DeliveryForAttempt | null> {
  const rows = await rawRows<DeliveryForAttempt>(
    em,
    `select d.state, s.url, s.sealed_secret as "sealedSecret", s.sealed_previous_secret as "sealedPreviousSecret",
            s.previous_secret_expires_at as "previousSecretExpiresAt", s.deleted_at as "subscriptionDeletedAt",
            s.disabled_at as "subscriptionDisabledAt", e.id as "eventId", e.type as "eventType",
            e.created_at as "eventCreatedAt", e.payload
       from webhook_deliveries d
       join webhook_subscriptions s on s.id = d.subscription_id
       join outbox_events e on e.id = d.event_id
      where d.id = ?`,
    [deliveryId],
  );
  const row = rows[0];
  if (!row) return null;
  // MikroORM's driver hands timestamps over as PostgreSQL text.
  return {
    ...row,
    previousSecretExpiresAt: asDate(row.previousSecretExpiresAt),
    subscriptionDeletedAt: asDate(row.subscriptionDeletedAt),
    subscriptionDisabledAt: asDate(row.subscriptionDisabledAt),
    eventCreatedAt: asDate(row.eventCreatedAt)!,
  };
}

function asDate(v: Date | string | null): Date | null {
  return v === null || v instanceof Date ? v : new Date(v);
}

/** Cancels a delivery still pending (its webhook was disabled or deleted); answers its state afterwards. */
export async function cancelPendingDelivery(
  em: EntityManager,
  deliveryId: string,
  reason: string,
  now: Date,
): Promise<string | null> {
  const rows = await rawRows<{ state: string | null }>(
    em,
    `with canceled as (
       update webhook_deliveries set state = 'canceled', next_attempt_at = null, completed_at = ?, updated_at = ?, last_error = ?
        where id = ? and state = 'pending' returning state
     )
     select coalesce((select state from canceled), (select state from webhook_deliveries where id = ?)) as state`,
    [now, now, reason, deliveryId, deliveryId],
  );
  return rows[0]?.state ?? null;
}

export interface AttemptRow {
  number: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  succeeded: boolean;
  /** When the next attempt is due; null when this one was the last. */
  nextAttemptAt: Date | null;
}

/**
 * Stores one attempt and the delivery's new state in one statement. The same attempt number
 * again overwrites its record (an activity retry), so this is idempotent. Answers the
 * delivery's state afterwards, null when the delivery does not exist.
 */
export async function storeAttempt(em: EntityManager, deliveryId: string, a: AttemptRow): Promise<string | null> {
  const outcome = a.succeeded ? 'succeeded' : a.nextAttemptAt ? 'retry' : 'failed';
  const rows = await rawRows<{ state: string }>(
    em,
    `with attempt as (
       insert into webhook_attempts (id, organization_id, delivery_id, number, attempted_at, status_code, latency_ms, error, succeeded)
       select ?, d.organization_id, d.id, ?, ?, ?, ?, ?, ? from webhook_deliveries d where d.id = ?
       on conflict (delivery_id, number) do update set
         organization_id = excluded.organization_id, attempted_at = excluded.attempted_at, status_code = excluded.status_code,
         latency_ms = excluded.latency_ms, error = excluded.error, succeeded = excluded.succeeded
     ), input as (select ?::text as outcome, ?::timestamptz as attempted_at, ?::timestamptz as next_attempt_at)
     update webhook_deliveries d set
       attempt_count = greatest(d.attempt_count, ?), last_status_code = ?, last_error = ?, updated_at = i.attempted_at,
       state = case i.outcome when 'succeeded' then 'succeeded' when 'failed' then 'failed' else d.state end,
       next_attempt_at = case i.outcome when 'retry' then i.next_attempt_at else null end,
       completed_at = case i.outcome when 'retry' then d.completed_at else i.attempted_at end
       from input i
      where d.id = ?
      returning d.state`,
    [
      randomUUID(),
      a.number,
      a.attemptedAt,
      a.statusCode,
      a.latencyMs,
      a.error,
      a.succeeded,
      deliveryId,
      outcome,
      a.attemptedAt,
      a.nextAttemptAt,
      a.number,
      a.statusCode,
      a.error,
      deliveryId,
    ],
  );
  return rows[0]?.state ?? null;
}
