import { prose } from './prose';

/** What the operations of src/api/routes/health.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  getReadiness: prose('200 when every dependency answers within 2 s, otherwise 503 with the failing checks.'),
};
