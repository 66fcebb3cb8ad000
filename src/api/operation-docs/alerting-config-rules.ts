import { prose } from './prose';

/** What the operations of src/api/routes/alerting-config/rules.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  createAlertRule: prose(
    'What raises an alert, one per rule and subject, escalated by `escalation_policy_id` with a ',
    '`severity`. Kinds:\n',
    '- `metric_status`: a metric (`subject_id`, required) becomes unhealthy (or degraded, with ',
    '`include_degraded`);\n',
    '- `service_status`: a service, or every service (`subject_id` null);\n',
    '- `status_page_status`: any service on a status page (`subject_id`, required);\n',
    '- `slo_burn`: an SLO, or every SLO, burning its error budget;\n',
    '- `agent_offline`: an agent, or every agent;\n',
    '- `heartbeat_missed`: a heartbeat metric, or every one;\n',
    '- `location_offline`: a probe location (its id, e.g. `eu-central`), or every one;\n',
    '- `sla_review_overdue`: an SLA statement waiting in review longer than ',
    '`settings.reminder_hours` (default 24).\n',
    '\n',
    '`auto_resolve` (default true) resolves the alert when the subject recovers. Accepts an ',
    '`Idempotency-Key`.',
  ),
  updateAlertRule: prose(
    'Changes only the fields sent (`settings` replaced whole); the kind cannot change. `enabled: ',
    'false` stops the rule raising alerts.',
  ),
  deleteAlertRule: prose('Soft delete; repeating it answers 200 with the same rule. Its alerts keep their history.'),
};
