import { createHmac, randomBytes } from 'node:crypto';

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` value of the Standard Webhooks scheme: `v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<body>` with the secret's key bytes, one entry per secret (space-separated),
 * so receivers keep verifying while a rotated secret is phased out.
 */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The headers of one Standard Webhooks message: JSON body, its id, when it was signed and the signature. */
export function standardWebhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secrets, id, timestampSeconds, body),
  };
}
