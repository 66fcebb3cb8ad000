import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './organization';
import { OutboxEventSchema } from './outbox-event';

/** Where an organization wants its events POSTed, and which ones. Secrets are sealed (AES-256-GCM). */
export const WebhookSubscriptionSchema = defineEntity({
  name: 'WebhookSubscription',
  tableName: 'webhook_subscriptions',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    url: p.text(),
    description: p.text().nullable(),
    /** Stable handle for config as code; unique among the organization's live webhook subscriptions. */
    configKey: p.string().length(100).nullable(),
    eventTypes: p.array().columnType('text[]'),
    sealedSecret: p.text(),
    /** The secret before the last rotation; still signs until `previousSecretExpiresAt`. */
    sealedPreviousSecret: p.text().nullable(),
    previousSecretExpiresAt: p.datetime(3).nullable(),
    disabledAt: p.datetime(3).nullable(),
    deletedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'webhook_subscriptions_live_config_key_unique',
      expression:
        'create unique index webhook_subscriptions_live_config_key_unique on webhook_subscriptions (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
  ],
});
export type WebhookSubscription = InferEntity<typeof WebhookSubscriptionSchema>;

/** One event on its way to one subscription; `webhook:<id>` is its Temporal workflow. */
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    subscription: p.manyToOne(WebhookSubscriptionSchema).mapToPk().deleteRule('cascade'),
    event: p.manyToOne(OutboxEventSchema).mapToPk().deleteRule('cascade'),
    eventType: p.string().length(64),
    /** pending, succeeded, failed or canceled. */
    state: p.string().length(16),
    attemptCount: p.integer(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    nextAttemptAt: p.datetime(3).nullable(),
    /** Set once its workflow is known to run; the outbox sweep starts the ones left unset. */
    workflowStartedAt: p.datetime(3).nullable(),
    redeliveryOf: p.uuid().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['subscription', 'createdAt', 'id'] },
    {
      name: 'webhook_deliveries_unstarted_index',
      expression:
        'create index webhook_deliveries_unstarted_index on webhook_deliveries (created_at) where workflow_started_at is null',
    },
    {
      name: 'webhook_deliveries_event_subscription_unique',
      expression:
        'create unique index webhook_deliveries_event_subscription_unique on webhook_deliveries (event_id, subscription_id) where redelivery_of is null',
    },
  ],
});
export type WebhookDelivery = InferEntity<typeof WebhookDeliverySchema>;

/** One POST of a delivery: when, what came back, how long it took. */
export const WebhookAttemptSchema = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    delivery: p.manyToOne(WebhookDeliverySchema).mapToPk().deleteRule('cascade'),
    number: p.integer(),
    attemptedAt: p.datetime(3),
    statusCode: p.integer().nullable(),
    latencyMs: p.integer(),
    error: p.text().nullable(),
    succeeded: p.boolean(),
  },
  uniques: [{ properties: ['delivery', 'number'] }],
});
export type WebhookAttempt = InferEntity<typeof WebhookAttemptSchema>;
