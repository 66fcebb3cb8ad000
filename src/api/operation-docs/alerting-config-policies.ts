import { prose } from './prose';

/** What the operations of src/api/routes/alerting-config/policies.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createEscalationPolicy: prose(
    'Ordered `levels`: an alert notifies level 1\'s `targets` (`{ "type": "channel", "id" }`, `{ ',
    '"type": "schedule", "id" }`: whoever is on call, `{ "type": "user", "email" }`: a console ',
    'user), waits `delay_minutes`, then notifies the next level, until acknowledged or resolved. ',
    "After the last level the whole policy runs `repeat` more times (0 to 10; the last level's delay ",
    'is the wait before a repeat). Accepts an `Idempotency-Key`.',
  ),
  updateEscalationPolicy: prose(
    'Changes only the fields sent; `levels` is replaced whole. An alert already escalating reads the ',
    'policy again whenever it re-reads its subject (a change of the subject, the end of a snooze or ',
    'of a suppression), and from then on walks the new levels.',
  ),
  deleteEscalationPolicy: prose(
    'Soft delete; repeating it answers 200 with the same policy. Refused with 409 `in_use` while an ',
    'alert rule (enabled or not) escalates by it (`referenced_by.alert_rules`).',
  ),
};
