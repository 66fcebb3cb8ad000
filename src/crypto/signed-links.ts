import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens for the links in subscriber emails (confirm, unsubscribe): stateless, so a link
 * works without a lookup table, and bound to one purpose so a confirm link never unsubscribes.
 * Format: base64url(JSON claims) "." base64url(HMAC-SHA256 over the first part).
 */

export type LinkPurpose = 'confirm' | 'unsubscribe';

export type LinkCheck =
  | { ok: true; subscriberId: string }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'wrong_purpose' | 'expired' };

interface Payload {
  p: LinkPurpose;
  s: string;
  e: number | null;
}

const PURPOSES: readonly string[] = ['confirm', 'unsubscribe'] satisfies LinkPurpose[];
const B64URL = /^[A-Za-z0-9_-]+$/;
const MAC_BYTES = 32;

/** Derives a purpose-specific HMAC key from the master key (HKDF-SHA256, info = label). */
export function deriveLinkKey(master: Buffer, label = 'vigil/subscriber-links/v1'): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, MAC_BYTES));
}

export function signLinkToken(
  key: Buffer,
  claims: { purpose: LinkPurpose; subscriberId: string; expiresAtMs: number | null },
): string {
  if (!PURPOSES.includes(claims.purpose)) throw new Error(`unknown link purpose ${String(claims.purpose)}`);
  if (!claims.subscriberId) throw new Error('subscriberId must not be empty');
  if (claims.expiresAtMs !== null && !Number.isSafeInteger(claims.expiresAtMs))
    throw new Error('expiresAtMs must be an integer or null');
  const payload: Payload = { p: claims.purpose, s: claims.subscriberId, e: claims.expiresAtMs };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export function verifyLinkToken(key: Buffer, token: string, purpose: LinkPurpose, nowMs: number): LinkCheck {
  const parts = typeof token === 'string' ? token.split('.') : [];
  const [body, sig] = parts;
  if (parts.length !== 2 || !body || !sig || !B64URL.test(body) || !B64URL.test(sig)) return fail('malformed');
  const given = Buffer.from(sig, 'base64url');
  // Only the canonical encoding is accepted, so each token has exactly one spelling.
  if (given.length !== MAC_BYTES || given.toString('base64url') !== sig) return fail('malformed');
  if (!timingSafeEqual(given, mac(key, body))) return fail('bad_signature');

  const payload = parsePayload(body);
  if (!payload) return fail('malformed');
  if (payload.p !== purpose) return fail('wrong_purpose');
  if (payload.e !== null && nowMs >= payload.e) return fail('expired');
  return { ok: true, subscriberId: payload.s };
}

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

function fail(reason: 'malformed' | 'bad_signature' | 'wrong_purpose' | 'expired'): LinkCheck {
  return { ok: false, reason };
}

function parsePayload(body: string): Payload | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { p, s, e } = value as Record<string, unknown>;
  if (typeof p !== 'string' || !PURPOSES.includes(p)) return null;
  if (typeof s !== 'string' || s === '') return null;
  if (e !== null && typeof e !== 'number') return null;
  return { p: p as LinkPurpose, s, e };
}
