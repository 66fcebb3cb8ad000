import { prose } from './prose';

/** What the operations of src/api/routes/public-pages.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  subscribeToStatusPage: prose(
    'Double opt-in: answers 202 and emails a confirmation link (valid 48 hours); nothing is sent to ',
    'the address until it is followed. The answer is the same whether or not the address was already ',
    'subscribed. Limited per client address and per page per hour (429 `subscribe_limited`).',
  ),
};
