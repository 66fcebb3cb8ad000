import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { CustomerSchema } from './customer';
import { OrganizationSchema } from './organization';
import { OutboxEventSchema } from './outbox-event';

/** What a page shows, in order: groups of components (services, metrics, SLOs). */
export interface PageLayout {
  groups: { name: string | null; components: { kind: 'service' | 'metric' | 'slo'; id: string }[] }[];
}

/** A public status page served at `<subdomain>.<STATUS_HOST>`. */
export const StatusPageSchema = defineEntity({
  name: 'StatusPage',
  tableName: 'status_pages',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    subdomain: p.string().length(63),
    title: p.string().length(200),
    /** Stable handle for config as code; unique among the organization's live status pages. */
    configKey: p.string().length(100).nullable(),
    description: p.text().nullable(),
    timeZone: p.string().length(64),
    branding: p.json<{ logo_url: string | null; accent_color: string | null; header_color: string | null }>(),
    links: p.json<{ label: string; url: string }[]>(),
    layout: p.json<PageLayout>(),
    /** HS256 secret that signs viewer tokens minted by the API (sealed with the master key). */
    sealedViewerSecret: p.text(),
    /** The organization's own public key (PEM, SPKI) for viewer tokens it signs itself; null: none. */
    viewerPublicKey: p.text().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    deletedAt: p.datetime(3).nullable(),
  },
  indexes: [
    { properties: ['organization', 'createdAt', 'id'] },
    {
      name: 'status_pages_live_config_key_unique',
      expression:
        'create unique index status_pages_live_config_key_unique on status_pages (organization_id, config_key) where deleted_at is null and config_key is not null',
    },
    {
      name: 'status_pages_subdomain_live_unique',
      expression:
        'create unique index status_pages_subdomain_live_unique on status_pages (subdomain) where deleted_at is null',
    },
  ],
});
export type StatusPage = InferEntity<typeof StatusPageSchema>;

/** An email address subscribed to one page; `pending` until the confirmation link is followed. */
export const SubscriberSchema = defineEntity({
  name: 'Subscriber',
  tableName: 'status_page_subscribers',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    page: p.manyToOne(StatusPageSchema).mapToPk().deleteRule('cascade'),
    /** Lower-cased. */
    email: p.string().length(320),
    /** Services the subscriber chose; empty: everything on the page. */
    components: p.array().columnType('uuid[]'),
    /** Set when a signed-in customer subscribed (or an import named one): also gets that customer's incidents. */
    customer: p.manyToOne(CustomerSchema).mapToPk().deleteRule('set null').nullable(),
    /** pending, confirmed or unsubscribed. */
    state: p.string().length(16),
    /** form, api or import. */
    source: p.string().length(16),
    confirmationSentAt: p.datetime(3).nullable(),
    confirmedAt: p.datetime(3).nullable(),
    unsubscribedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
  uniques: [{ properties: ['page', 'email'] }],
  indexes: [
    { properties: ['page', 'createdAt', 'id'] },
    {
      name: 'status_page_subscribers_confirmed_index',
      expression:
        "create index status_page_subscribers_confirmed_index on status_page_subscribers (organization_id) where state = 'confirmed'",
    },
  ],
});
export type Subscriber = InferEntity<typeof SubscriberSchema>;

/** One email of one event to one subscriber: what was sent, when, or why not. */
export const SubscriberEmailSchema = defineEntity({
  name: 'SubscriberEmail',
  tableName: 'subscriber_emails',
  properties: {
    id: p.uuid().primary(),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    event: p.manyToOne(OutboxEventSchema).mapToPk().deleteRule('cascade'),
    subscriber: p.manyToOne(SubscriberSchema).mapToPk().deleteRule('cascade'),
    /** pending, sent, failed or skipped. */
    state: p.string().length(16),
    attempts: p.integer(),
    nextAttemptAt: p.datetime(3),
    messageId: p.string().length(255).nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(3),
    sentAt: p.datetime(3).nullable(),
  },
  uniques: [{ properties: ['event', 'subscriber'] }],
  indexes: [{ properties: ['event', 'state', 'nextAttemptAt'] }],
});
export type SubscriberEmail = InferEntity<typeof SubscriberEmailSchema>;

/** An event that owes subscribers email; `notify:<event>` is its workflow, started from here. */
export const NotificationRunSchema = defineEntity({
  name: 'NotificationRun',
  tableName: 'notification_runs',
  properties: {
    event: p.oneToOne(OutboxEventSchema).primary().mapToPk().deleteRule('cascade'),
    organization: p.manyToOne(OrganizationSchema).mapToPk().deleteRule('cascade'),
    eventType: p.string().length(64),
    workflowStartedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
  indexes: [
    {
      name: 'notification_runs_unstarted_index',
      expression:
        'create index notification_runs_unstarted_index on notification_runs (created_at) where workflow_started_at is null',
    },
  ],
});
export type NotificationRun = InferEntity<typeof NotificationRunSchema>;
