import { prose } from './prose';

/** What the operations of src/api/routes/inbound.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  pingHeartbeat: prose(
    'POST or GET the heartbeat URL a heartbeat metric answered on creation. The metric’s value is ',
    'the seconds since the last ping.',
  ),
  receiveAlerts: prose(
    'Point an Alertmanager `webhook_configs` receiver or a Grafana webhook contact point at the ',
    'alert URL an alert metric answered on creation. The metric’s value is the worst firing alert: 0 ',
    '(none firing → healthy), 1 (degraded), 2 (unhealthy), from the `severity` (or `priority`) label ',
    'unless source_config.severity_mapping says otherwise. With source_config.heartbeat_alert (e.g. ',
    '`Watchdog`) the metric is no_data `alert_heartbeat_missing` when that always-firing alert has ',
    'not arrived for heartbeat_timeout_seconds (default 600).',
  ),
  receiveAlertsDeprecated: prose(
    'The alert URL as alert metrics created before `/v1/inbound-alerts/{token}` answered it: the ',
    'same operation as `receiveAlerts`, kept working for senders already configured with it. `id` is ',
    'the alert URL’s secret (`al_…`), not an alert id.',
  ),
};
