import { prose } from './prose';

/** What the operations of src/api/routes/alerting-config/silences.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listSilences: prose('Newest first; `state` filters by what each is now (scheduled, active, expired).'),
  createSilence: prose(
    'Silences alerts of the `rule_ids` and of the `service_ids` from `starts_at` (default now) until ',
    '`ends_at`: an alert raised meanwhile is recorded as suppressed, not dropped, and nobody is ',
    'notified. `created_by` records the API key. Accepts an `Idempotency-Key`.',
  ),
  deleteSilence: prose(
    'Ends the silence now (`ends_at`, and the `starts_at` of one not yet started, become now; ',
    '`state` expired) and deletes it, answering the silence; repeating it answers the same. It then ',
    'no longer lists.',
  ),
};
