import { prose } from './prose';

/** What the operations of src/api/routes/services.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createService: prose(
    'Accepts an `Idempotency-Key` header: a retry with the same key and body within 24 hours replays ',
    'the first response.',
  ),
  updateService: prose('Changes only the fields sent; `null` clears a nullable field.'),
  deleteService: prose(
    "Soft delete, with the service's metrics (they stop running). Repeating it answers 200 with the ",
    'same deleted service. 409 in_use while an SLO or a status page still uses the service or one of ',
    'its metrics.',
  ),
};
