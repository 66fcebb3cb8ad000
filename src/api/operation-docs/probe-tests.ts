import { prose } from './prose';

/** What the operations of src/api/routes/probe-tests.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  getProbeTest: prose(
    '200 with the result; 202 while pending or running; 502 probe_test_failed; 504 ',
    'probe_test_expired once 2 minutes have passed without an answer.',
  ),
};
