import { prose } from './prose';

/** What the operations of src/api/routes/alerts.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listAlerts: prose(
    'Newest first, each with its timeline (triggered, every notification level, escalations, ',
    'acknowledgement by whom, resolution). Filters: `state` (`open` = not resolved), `rule_id`, ',
    '`since`.',
  ),
  snoozeAlert: prose(
    'Acknowledges the alert for `minutes`; if it still fires when the snooze ends, escalation starts ',
    'again from the first level.',
  ),
  testNotificationChannel: prose(
    'Sends one test message through the channel’s real format (one attempt, no retry) and answers ',
    'what the receiver said: `state` (succeeded or failed), `status_code`, `error`, the first 1,000 ',
    'characters of its `response` and `latency_ms`. Recorded among the channel’s sends.',
  ),
  getAlertActionLink: prose(
    'The acknowledge/resolve link in an alert notification (email, Slack, Teams, Discord) opens this ',
    'page; its button POSTs to the same URL. Signed, valid 24 hours, one use per action; no API key. ',
    'A GET never acts, so link scanners and chat unfurls cannot acknowledge anything. Each link is ',
    'bound to the console user or channel its notification went to: once that user is disabled or ',
    'removed, or the channel deleted, the link answers 403.',
  ),
  useAlertActionLink: prose(
    'Acknowledges or resolves the alert the link names, once, in the name of the user or channel it ',
    'was sent to (`acknowledged_by`, the timeline); a second use, an expired or a forged link ',
    'answers a page that says so (410 or 400), a link whose user was disabled or removed (or whose ',
    'channel was deleted) 403.',
  ),
};
