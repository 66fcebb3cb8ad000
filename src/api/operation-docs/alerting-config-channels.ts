import { prose } from './prose';

/** What the operations of src/api/routes/alerting-config/channels.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  getNotificationChannel: prose(
    'Secrets (URLs, keys) are never shown after creation; `secret_hint` tells channels apart.',
  ),
  createNotificationChannel: prose(
    'Where alerts go. The body is `name`, `type` and the fields of that type at the top level:\n',
    '- `email`: `addresses` (1 to 20);\n',
    '- `slack`, `teams`, `discord`: `url`, the incoming-webhook (Teams: Workflows) URL;\n',
    '- `webhook`: `url`; messages are signed with the Standard Webhooks scheme, and the response ',
    'carries the generated `signing_secret`, once;\n',
    '- `pagerduty`: `routing_key` (Events API v2 integration key, 32 characters);\n',
    '- `opsgenie`: `api_key`, and `region` `us` (default) or `eu`.\n',
    '\n',
    'URLs and keys are sealed at rest and never answered again (`secret_hint` shows the host or the ',
    'last four characters). URLs obey the webhook rules: http or https, and a public address when ',
    'the message is sent. Accepts an `Idempotency-Key` (a replay shows the current signing secret).',
  ),
  updateNotificationChannel: prose(
    "Changes only the fields sent: `name`, `enabled`, and the fields of the channel's type ",
    '(`addresses`, `region`); a secret field sent (`url`, `routing_key`, `api_key`) replaces the ',
    'stored one. The type cannot change. A webhook channel keeps its signing secret.',
  ),
  deleteNotificationChannel: prose(
    'Soft delete; repeating it answers 200 with the same channel. Refused with 409 `in_use` while an ',
    'escalation policy targets it (`referenced_by.escalation_policies`).',
  ),
  listNotificationSends: prose(
    'Every message to the channel (alert actions and tests), newest first, each with every attempt ',
    '(time, status code, latency, error).',
  ),
};
