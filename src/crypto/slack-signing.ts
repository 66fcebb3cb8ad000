import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Slack's request signing (https://api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature` is `v0=` and the hex HMAC-SHA256, keyed with the app's signing secret, of
 * `v0:<X-Slack-Request-Timestamp>:<raw body>`. A timestamp more than five minutes from now is
 * refused, so a captured request cannot be replayed later.
 */
export const SLACK_MAX_CLOCK_SKEW_S = 5 * 60;

export type SlackSignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'bad_signature' };

export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

export function verifySlackRequest(
  signingSecret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  rawBody: string,
  nowMs: number,
): SlackSignatureCheck {
  if (!timestamp || !signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_MAX_CLOCK_SKEW_S)
    return { ok: false, reason: 'stale' };
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, rawBody));
  const given = Buffer.from(signature);
  // timingSafeEqual needs equal lengths; the length of a v0 signature is no secret.
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { ok: true }
    : { ok: false, reason: 'bad_signature' };
}
