import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * One-click links in alert notifications: acknowledge or resolve an alert without signing in.
 * Stateless and signed (HMAC-SHA256, truncated to 128 bits), bound to one alert, one action and
 * the one recipient the notification went to (a console user or a channel), valid 24 hours. The
 * recipient lets the API refuse a link whose user has since been disabled and record who acted;
 * the random token id lets it record a use, so that each link acts once (alert_action_uses).
 * Packed in binary so the token stays a short URL segment (94 characters): alert uuid (16 bytes),
 * action (1), token id (16), expiry in Unix seconds (4), recipient kind (1), recipient uuid (16),
 * MAC (16).
 */
export type AlertLinkAction = 'acknowledge' | 'resolve';

/** Whom the notification carrying the link was sent to. */
export interface AlertLinkRecipient {
  kind: 'user' | 'channel';
  id: string;
}

export interface AlertLinkClaims {
  alertId: string;
  action: AlertLinkAction;
  tokenId: string;
  expiresAtMs: number;
  recipient: AlertLinkRecipient;
}

export type AlertLinkCheck =
  { ok: true; claims: AlertLinkClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

export const ALERT_LINK_TTL_MS = 24 * 3600 * 1000;
const BODY_BYTES = 16 + 1 + 16 + 4 + 1 + 16;
const MAC_BYTES = 16;
const ACTIONS: readonly AlertLinkAction[] = ['acknowledge', 'resolve'];
const RECIPIENT_KINDS: readonly AlertLinkRecipient['kind'][] = ['user', 'channel'];

export function signAlertLink(
  key: Buffer,
  alertId: string,
  action: AlertLinkAction,
  recipient: AlertLinkRecipient,
  nowMs: number,
): string {
  const body = Buffer.alloc(BODY_BYTES);
  Buffer.from(alertId.replace(/-/g, ''), 'hex').copy(body, 0);
  body.writeUInt8(ACTIONS.indexOf(action), 16);
  randomBytes(16).copy(body, 17);
  body.writeUInt32BE(Math.floor((nowMs + ALERT_LINK_TTL_MS) / 1000), 33);
  body.writeUInt8(RECIPIENT_KINDS.indexOf(recipient.kind), 37);
  Buffer.from(recipient.id.replace(/-/g, ''), 'hex').copy(body, 38);
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

export function verifyAlertLink(key: Buffer, token: string, nowMs: number): AlertLinkCheck {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: 'malformed' };
  const raw = Buffer.from(token, 'base64url');
  // Only the canonical spelling is accepted, so each link has exactly one token. Links of the
  // earlier layout (no recipient) are refused as malformed: nobody could be held to them.
  if (raw.length !== BODY_BYTES + MAC_BYTES || raw.toString('base64url') !== token)
    return { ok: false, reason: 'malformed' };
  const body = raw.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(raw.subarray(BODY_BYTES), mac(key, body))) return { ok: false, reason: 'bad_signature' };
  const action = ACTIONS[body.readUInt8(16)];
  const kind = RECIPIENT_KINDS[body.readUInt8(37)];
  if (!action || !kind) return { ok: false, reason: 'malformed' };
  const expiresAtMs = body.readUInt32BE(33) * 1000;
  if (nowMs >= expiresAtMs) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    claims: {
      alertId: uuidOf(body.subarray(0, 16)),
      action,
      tokenId: body.subarray(17, 33).toString('hex'),
      expiresAtMs,
      recipient: { kind, id: uuidOf(body.subarray(38, 54)) },
    },
  };
}

function uuidOf(b: Buffer): string {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function mac(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
}
