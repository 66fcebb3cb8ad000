import type { SecretBox } from '../../crypto/secret-box';

/** What a channel keeps sealed: never answered after creation. */
export interface ChannelSecret {
  /** Slack, Teams, Discord and webhook channels: the URL to POST to (it carries the vendor's token). */
  url?: string;
  /** PagerDuty Events API v2 integration (routing) key. */
  routing_key?: string;
  /** Opsgenie API integration key. */
  api_key?: string;
  /**
   * Webhook channels: the Standard Webhooks signing secret (`whsec_…`) Vigil signs with.
   * Slack channels (optional): the Slack app's signing secret Vigil verifies button presses with.
   */
  signing_secret?: string;
}

export function sealChannelSecret(box: SecretBox, secret: ChannelSecret): string {
  return box.seal(JSON.stringify(secret));
}

export function openChannelSecret(box: SecretBox, sealed: string | null): ChannelSecret {
  return sealed ? (JSON.parse(box.open(sealed)) as ChannelSecret) : {};
}

/** Enough to tell two channels apart without revealing the secret: the host, or the key's last four characters. */
export function secretHint(secret: ChannelSecret): string | null {
  if (secret.url) {
    try {
      return new URL(secret.url).host;
    } catch {
      return null;
    }
  }
  const key = secret.routing_key ?? secret.api_key;
  return key ? `…${key.slice(-4)}` : null;
}
