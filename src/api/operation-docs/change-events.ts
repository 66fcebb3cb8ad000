import { prose } from './prose';

/** What the operations of src/api/routes/change-events.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listChangeEvents: prose(
    'Newest `occurred_at` first. Filter by `service_id`, `kind`, and the time range `since` ',
    '(inclusive) to `until` (exclusive).',
  ),
  createChangeEvent: prose(
    'Deploys, configuration changes and feature flags, typically posted from CI pipelines. Send an ',
    '`Idempotency-Key` (for example the pipeline run id) so a retried step records the change once.',
  ),
};
