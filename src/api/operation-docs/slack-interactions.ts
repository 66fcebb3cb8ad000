import { prose } from './prose';

/** What the operations of src/api/routes/slack-interactions.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  receiveSlackInteraction: prose(
    'Set as the Slack app’s Interactivity Request URL for a Slack channel with a `signing_secret`. ',
    'Slack posts `payload=<JSON>` (`application/x-www-form-urlencoded`) when someone presses the ',
    'message’s Acknowledge or Resolve button (`action_id` `vigil_acknowledge`/`vigil_resolve`, ',
    '`value` the one-click token).\n',
    '\n',
    'The request must carry `X-Slack-Request-Timestamp` (within 5 minutes of now) and ',
    '`X-Slack-Signature` (`v0=` and the hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the ',
    'signing secret), else 401. The alert is acknowledged or resolved once per button, in the name ',
    'of `Slack user @<username> (<user id>) in channel “<channel name>”`; a second press, an expired ',
    'or foreign button answers 200 with a sentence saying so (Slack shows an error for anything ',
    'else).\n',
    '\n',
    'Slack shows nobody this answer, so once it is sent the same sentence is posted to the press’s ',
    '`response_url` as an ephemeral message (`{"response_type": "ephemeral", "replace_original": ',
    'false, "text": …}`) that only the person who pressed sees: “Acknowledged … — by Slack user @… ',
    'at <time>”, or why nothing was done. It goes through the same address checks as channel ',
    'messages; if it fails it is logged, and the acknowledgement or resolution stands.',
  ),
};
