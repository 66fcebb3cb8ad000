/**
 * One entry point for the sender: the vendor request for a channel's type and destination.
 * Email is not an HTTP request (see emailMessage); the generic `webhook` type keeps its
 * Standard Webhooks signing elsewhere.
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import { discordRequest } from './discord';
import { OPSGENIE_API_URLS, opsgenieRequest } from './opsgenie';
import { PAGERDUTY_EVENTS_URL, pagerdutyRequest } from './pagerduty';
import { slackRequest } from './slack';
import { teamsRequest } from './teams';

import type { VendorChannelType } from '../channel-types';
export type { VendorChannelType };

/**
 * A channel's (unsealed) destination. slack/teams/discord: `url` (the webhook URL).
 * pagerduty: `routing_key` (the integration key). opsgenie: `api_key` and `region` (default 'us').
 * slack may also hold `signing_secret` (the Slack app's): its buttons are then interactive.
 */
export interface ChannelDestination {
  url?: string;
  signing_secret?: string;
  routing_key?: string;
  api_key?: string;
  region?: 'us' | 'eu';
}

/** Vendor base URLs: settings (PAGERDUTY_EVENTS_URL, OPSGENIE_API_URL, OPSGENIE_EU_API_URL), not per channel. */
export interface VendorEndpoints {
  pagerdutyEventsUrl: string;
  opsgenieApiUrl: string;
  opsgenieEuApiUrl: string;
}

export const DEFAULT_VENDOR_ENDPOINTS: Readonly<VendorEndpoints> = Object.freeze({
  pagerdutyEventsUrl: PAGERDUTY_EVENTS_URL,
  opsgenieApiUrl: OPSGENIE_API_URLS.us,
  opsgenieEuApiUrl: OPSGENIE_API_URLS.eu,
});

/** A destination lacking what its type needs: a configuration error retrying cannot fix. */
export class ChannelDestinationError extends Error {
  constructor(
    readonly type: VendorChannelType,
    readonly field: keyof ChannelDestination,
  ) {
    super(`a ${type} channel needs ${field}`);
    this.name = 'ChannelDestinationError';
  }
}

function need(
  type: VendorChannelType,
  destination: ChannelDestination,
  field: 'url' | 'routing_key' | 'api_key',
): string {
  const value = destination[field];
  if (!value) throw new ChannelDestinationError(type, field);
  return value;
}

export function channelRequest(
  type: VendorChannelType,
  destination: ChannelDestination,
  msg: AlertMessage,
  endpoints: VendorEndpoints = DEFAULT_VENDOR_ENDPOINTS,
): ChannelRequest {
  switch (type) {
    case 'slack':
      return slackRequest(need(type, destination, 'url'), msg, { interactive: Boolean(destination.signing_secret) });
    case 'teams':
      return teamsRequest(need(type, destination, 'url'), msg);
    case 'discord':
      return discordRequest(need(type, destination, 'url'), msg);
    case 'pagerduty':
      return pagerdutyRequest(endpoints.pagerdutyEventsUrl, need(type, destination, 'routing_key'), msg);
    case 'opsgenie':
      return opsgenieRequest(
        destination.region === 'eu' ? endpoints.opsgenieEuApiUrl : endpoints.opsgenieApiUrl,
        need(type, destination, 'api_key'),
        msg,
      );
  }
}

export { discordRequest, DISCORD_LIMITS, escapeDiscord } from './discord';
export { emailMessage, type EmailMessage } from './email';
export { escapeHtml } from './message-text';
export {
  OPSGENIE_API_URLS,
  OPSGENIE_LIMITS,
  opsgeniePriority,
  opsgenieRequest,
  type OpsgeniePriority,
} from './opsgenie';
export {
  PAGERDUTY_EVENTS_URL,
  PAGERDUTY_LIMITS,
  pagerdutyEventAction,
  pagerdutyRequest,
  pagerdutySeverity,
  type PagerDutySeverity,
} from './pagerduty';
export { escapeMrkdwn, SLACK_LIMITS, slackRequest } from './slack';
export { TEAMS_LIMITS, teamsRequest } from './teams';
