import { z } from 'zod';
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '../../domain/event-types';
import { DELIVERY_STATES } from '../../usecases/webhooks/views';
import { DateTime, ListQuery, Uuid } from './common';

const Url = z
  .url({ protocol: /^https?$/, error: 'Must be an http or https URL' })
  .max(2048)
  .describe('Where deliveries are POSTed (http or https).');
const EventTypes = z
  .array(z.enum(SUBSCRIBABLE_EVENT_TYPES))
  .min(1)
  .max(SUBSCRIBABLE_EVENT_TYPES.length)
  .describe(
    'The events this webhook receives. `webhook.test` is not among them: every webhook receives a test when one is requested (testWebhook).',
  );
const Description = z.string().max(1000).nullable();
const Secret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, 'Expected whsec_ followed by 24 to 64 bytes in base64')
  .describe('Bring your own Standard Webhooks secret (`whsec_…`); generated when omitted.');

export const WebhookCreateBody = z
  .strictObject({
    url: Url,
    event_types: EventTypes,
    description: Description.optional(),
    enabled: z.boolean().optional().describe('Default true.'),
    secret: Secret.optional(),
  })
  .meta({ id: 'WebhookCreate' });

export const WebhookPatchBody = z
  .strictObject({
    url: Url.optional(),
    event_types: EventTypes.optional(),
    description: Description.optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'WebhookPatch' });

export const WebhookSchema = z
  .object({
    id: Uuid,
    config_key: z
      .string()
      .nullable()
      .describe('Its handle in configuration documents (config as code); null when created otherwise'),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    disabled_at: DateTime.nullable(),
    previous_secret_expires_at: DateTime.nullable().describe(
      'Until then the secret before the last rotation signs too (a second `v1,` entry).',
    ),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'Webhook' });

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().describe('The signing secret (`whsec_…`). Shown only in this response: store it now.'),
}).meta({ id: 'WebhookWithSecret' });

export const DeliverySchema = z
  .object({
    id: Uuid,
    webhook_id: Uuid,
    event_id: Uuid.describe('Also the `webhook-id` header and the body `id`: deduplicate on it.'),
    event_type: z.string(),
    state: z.enum(DELIVERY_STATES),
    attempt_count: z.int(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: DateTime.nullable(),
    redelivery_of: Uuid.nullable(),
    created_at: DateTime,
    completed_at: DateTime.nullable(),
    attempts: z.array(
      z.object({
        number: z.int(),
        attempted_at: DateTime,
        status_code: z.int().nullable(),
        latency_ms: z.int(),
        error: z
          .string()
          .nullable()
          .describe('Network failure (`ECONNREFUSED: …`, `ETIMEDOUT: …`) or `HTTP <status>`; never the response body.'),
        succeeded: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery' });

export const DeliveryListQuery = ListQuery.extend({
  state: z.enum(DELIVERY_STATES).optional().describe('Only deliveries in this state'),
  event_type: z.enum(EVENT_TYPES).optional().describe('Only deliveries of this event type'),
});

export const DeliveryParams = z.object({
  id: z.string().describe('Webhook id (UUID)'),
  deliveryId: z.string().describe('Delivery id (UUID)'),
});
