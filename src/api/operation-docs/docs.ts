import { prose } from './prose';

/** What the operations of src/api/routes/docs.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  getSlaVerificationGuide: prose(
    'Public. docs/sla-verification.md as a page: checking statement.json and statement.jws with the ',
    '`vigil` tool or with OpenSSL alone.',
  ),
  getReasonCatalog: prose(
    'Public. Every code of the catalog with `reason_label`, `reason_hint` and `reason_class` ',
    '(`target`: counts as down; `measurement`: a gap in the evidence), the codes with a variable ',
    "part, and the older agents' codes. `/docs/reasons` is the same as a page.",
  ),
};
