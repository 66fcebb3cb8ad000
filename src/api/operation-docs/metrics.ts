import { prose } from './prose';

/** What the operations of src/api/routes/metrics.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listMetrics: prose('Newest first; filters `service_id`, `status`, `agent_id`.'),
  getMetric: prose(
    'Status, `current_value` (null while no_data), `reason`, `reason_label`, `reason_hint`, the last ',
    'sample time and the latest samples.',
  ),
  listMetricFlips: prose(
    'Newest first. Each flip is dated when the change began (the first of the rounds that confirmed ',
    'it: confirmation never hides downtime), with `confirmed_at`, how many consecutive rounds ',
    'confirmed it and every location’s vote in each of those rounds. Flips rebuilt from imported or ',
    'late history carry no rounds.',
  ),
  createMetric: prose(
    'source_config is validated by the same rules as the probe test. Thresholds are required except ',
    'for manual and alert metrics. Without agent_id, HTTP/TCP/DNS/TLS/ping checks run from the cloud ',
    'on a Temporal Schedule; other types need an agent. Heartbeat and alert metrics answer their ',
    'inbound URL once.',
  ),
  updateMetric: prose('Changes only the fields sent; the agent picks up the change at once.'),
  deleteMetric: prose(
    'Soft delete; repeating it answers 200 with the same metric. 409 in_use while an SLO measures it.',
  ),
  setMetricStatus: prose(
    'Manual metrics only: the status holds until set again. The metric shows the worse of it and ',
    'what open incidents on its service say (critical/major → unhealthy, minor → degraded); a change ',
    'is a status flip and a `metric.status_changed` event.',
  ),
  importMetricSamples: prose(
    'History from before `SAMPLE_MAX_AGE` (e.g. from another monitoring tool): 1–50,000 samples per ',
    'call (body up to 16 MiB), evaluated against the metric’s thresholds like live samples and ',
    'stored as imported. Idempotent on (metric, `sampled_at`): a sample already stored is accepted ',
    'again but stores and counts nothing. Samples stamped more than 60 s ahead of the server’s clock ',
    '(`sampled_in_future`) or older than the sample retention (`METRIC_SAMPLE_RETENTION_DAYS`, 400 ',
    'days by default: `sampled_before_retention`) are rejected one by one. The metric’s status flips ',
    'are rebuilt from the earliest new sample on, so timelines, uptime, SLOs and statements see the ',
    'history; historical flips send no `metric.status_changed` event, and the metric’s latest ',
    'outcome moves only when a sample is newer than its `last_sample_at`.',
  ),
};
