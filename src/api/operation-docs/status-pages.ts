import { prose } from './prose';

/** What the operations of src/api/routes/status-pages.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createStatusPage: prose(
    'The page is public at once at `<subdomain>.<STATUS_HOST>` with its Atom and RSS feeds. `groups` ',
    'orders what it shows: services (status is the worst of their metrics), single metrics, and SLOs ',
    '(attainment). Accepts an `Idempotency-Key` header.',
  ),
  updateStatusPage: prose(
    'Changes only the fields sent; `null` clears a nullable field. `groups` replaces the whole ',
    'layout.',
  ),
  deleteStatusPage: prose(
    'Soft delete: the subdomain answers 404 at once and can be reused. 409 `in_use` while the page ',
    'has pending or confirmed subscribers (delete them first). Repeating it answers 200.',
  ),
  deleteSubscriber: prose(
    'Erases the address and its sending history for good (not a soft delete); answers the subscriber ',
    'as it was.',
  ),
  importSubscribers: prose(
    'Up to 10,000 rows as JSON (`subscribers`) or CSV text (`csv`, header row ',
    '`email,components,customer_id`). Each row is checked on its own: bad rows come back in `errors` ',
    'with their 1-based number and never stop the others; addresses already on the page are left as ',
    'they are. New rows get a confirmation email unless `skip_confirmation` attests the list already ',
    'consented.',
  ),
  createViewerToken: prose(
    "A JWT that shows the page (and its JSON summary) to one customer with that customer's ",
    'restricted incidents. Open `url`, or send the token as `?viewer_token=`, a `Bearer` header, or ',
    'the `vigil_viewer` cookie. Feeds never include restricted incidents. An expired or foreign ',
    'token falls back to the public view.',
  ),
};
