import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * One-click links in alert notifications (issue 26): acknowledge or resolve an alert without
 * signing in. Stateless and signed like subscriber links (base64url claims "." HMAC-SHA256), bound
 * to one alert and one action, valid 24 hours; the id `j` lets the API record a use so that each
 * link acts once (alert_action_uses).
 */
export type AlertLinkAction = 'acknowledge' | 'resolve';

export interface AlertLinkClaims {
  alertId: string;
  action: AlertLinkAction;
  tokenId: string;
  expiresAtMs: number;
}

export type AlertLinkCheck = { ok: true; claims: AlertLinkClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

export const ALERT_LINK_TTL_MS = 24 * 3600 * 1000;
const B64URL = /^[A-Za-z0-9_-]+$/;
const MAC_BYTES = 32;

export function signAlertLink(key: Buffer, alertId: string, action: AlertLinkAction, nowMs: number): string {
  const body = Buffer.from(JSON.stringify({ a: alertId, x: action, j: randomUUID(), e: nowMs + ALERT_LINK_TTL_MS })).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export function verifyAlertLink(key: Buffer, token: string, nowMs: number): AlertLinkCheck {
  const parts = token.split('.');
  const [body, sig] = parts;
  if (parts.length !== 2 || !body || !sig || !B64URL.test(body) || !B64URL.test(sig)) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== MAC_BYTES || given.toString('base64url') !== sig) return { ok: false, reason: 'malformed' };
  if (!timingSafeEqual(given, mac(key, body))) return { ok: false, reason: 'bad_signature' };
  let raw: { a?: unknown; x?: unknown; j?: unknown; e?: unknown };
  try {
    raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof raw.a !== 'string' || (raw.x !== 'acknowledge' && raw.x !== 'resolve') || typeof raw.j !== 'string' || typeof raw.e !== 'number') return { ok: false, reason: 'malformed' };
  if (nowMs >= raw.e) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { alertId: raw.a, action: raw.x, tokenId: raw.j, expiresAtMs: raw.e } };
}

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest();
}
