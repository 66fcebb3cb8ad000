import { prose } from './prose';

/** What the operations of src/api/routes/webhooks.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  getWebhook: prose('The secret is never shown again after creation (rotate it to get a new one).'),
  createWebhook: prose(
    'Events of the chosen types are POSTed as `{ id, type, created_at, data }` and signed with the ',
    'Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The response ',
    'carries the secret, once. Accepts an `Idempotency-Key` (a replay shows the current secret).',
  ),
  updateWebhook: prose(
    'Changes only the fields sent. `enabled: false` stops deliveries: new events are not queued and ',
    'those still retrying are canceled at their next attempt.',
  ),
  deleteWebhook: prose('Soft delete; repeating it answers 200 with the same webhook.'),
  rotateWebhookSecret: prose(
    'Answers the new secret, once. For 24 hours the previous secret signs too (two `v1,` entries in ',
    '`webhook-signature`), so receivers can switch without rejecting deliveries.',
  ),
  testWebhook: prose(
    'Queues a `webhook.test` event for this webhook alone (202, the new delivery), whatever its ',
    '`event_types`: `data` is `{ webhook_id, message, requested_by }`. It is signed, attempted and ',
    'retried like any delivery and listed among its deliveries; no other webhook receives it and no ',
    'subscriber is emailed.',
  ),
  listWebhookDeliveries: prose(
    'Newest first, each with every attempt (time, status code, latency, error). Filters `state` and ',
    '`event_type`.',
  ),
  redeliverWebhookDelivery: prose(
    'Queues a new delivery of the same event with the same `webhook-id` (202). Refused while the ',
    'original is still being attempted.',
  ),
};
