import { prose } from './prose';

/** What the operations of src/api/routes/customers.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createCustomer: prose(
    'Accepts an `Idempotency-Key` header: a retry with the same key and body within 24 hours replays ',
    'the first response.',
  ),
  updateCustomer: prose('Changes only the fields sent; `null` clears a nullable field.'),
  deleteCustomer: prose('Soft delete. Repeating it answers 200 with the same deleted customer.'),
};
