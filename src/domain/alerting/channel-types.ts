/**
 * Where an alert can be sent: the one list of channel types. The vendors are the types whose
 * message is a vendor's HTTP payload (src/domain/alerting/channel-formats); email goes through the
 * mailer and a webhook is Vigil's own signed JSON. Which secret each type carries is decided by
 * `FIELD_TYPES` in src/usecases/alerting/channels.ts, from these lists.
 */
export const CHANNEL_TYPES = ['email', 'slack', 'teams', 'discord', 'webhook', 'pagerduty', 'opsgenie'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const VENDOR_CHANNEL_TYPES = [
  'slack',
  'teams',
  'discord',
  'pagerduty',
  'opsgenie',
] as const satisfies readonly ChannelType[];
export type VendorChannelType = (typeof VENDOR_CHANNEL_TYPES)[number];

/** The chat vendors whose channel is an incoming-webhook URL. */
export const URL_CHANNEL_TYPES = ['slack', 'teams', 'discord', 'webhook'] as const satisfies readonly ChannelType[];

export const isVendorChannelType = (type: string): type is VendorChannelType =>
  (VENDOR_CHANNEL_TYPES as readonly string[]).includes(type);
