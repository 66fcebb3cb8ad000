import { createHmac } from 'node:crypto';
import { deriveLinkKey, signLinkToken, verifyLinkToken } from '../../src/crypto/signed-links';

const master = Buffer.alloc(32, 7);
const key = deriveLinkKey(master);
const now = Date.parse('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;
const subscriberId = '0b8d3f0a-7a52-4d0e-9b7e-7f1f3c5e9c11';

describe('signed subscriber links', () => {
  it('round-trips a confirm token as a url-safe string', () => {
    const token = signLinkToken(key, { purpose: 'confirm', subscriberId, expiresAtMs: now + 48 * HOUR });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(verifyLinkToken(key, token, 'confirm', now)).toEqual({ ok: true, subscriberId });
  });

  it('derives a 32-byte key that depends on the master key and the label', () => {
    expect(key).toHaveLength(32);
    expect(deriveLinkKey(master).equals(key)).toBe(true);
    expect(deriveLinkKey(master, 'vigil/other/v1').equals(key)).toBe(false);
    expect(deriveLinkKey(Buffer.alloc(32, 8)).equals(key)).toBe(false);
  });

  it('answers bad_signature when the payload or the signature was changed', () => {
    const token = signLinkToken(key, { purpose: 'unsubscribe', subscriberId, expiresAtMs: null });
    const [body, sig] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ p: 'unsubscribe', s: 'someone-else', e: null })).toString('base64url');
    expect(verifyLinkToken(key, `${forged}.${sig}`, 'unsubscribe', now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const flipped = Buffer.from(sig, 'base64url');
    flipped[0]! ^= 1;
    expect(verifyLinkToken(key, `${body}.${flipped.toString('base64url')}`, 'unsubscribe', now)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('answers bad_signature for a token signed with another master key', () => {
    const other = deriveLinkKey(Buffer.alloc(32, 9));
    const token = signLinkToken(other, { purpose: 'confirm', subscriberId, expiresAtMs: null });
    expect(verifyLinkToken(key, token, 'confirm', now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('answers wrong_purpose when a confirm token is used to unsubscribe and the other way round', () => {
    const confirm = signLinkToken(key, { purpose: 'confirm', subscriberId, expiresAtMs: now + HOUR });
    const unsubscribe = signLinkToken(key, { purpose: 'unsubscribe', subscriberId, expiresAtMs: null });
    expect(verifyLinkToken(key, confirm, 'unsubscribe', now)).toEqual({ ok: false, reason: 'wrong_purpose' });
    expect(verifyLinkToken(key, unsubscribe, 'confirm', now)).toEqual({ ok: false, reason: 'wrong_purpose' });
  });

  it('answers expired from the expiry instant on', () => {
    const token = signLinkToken(key, { purpose: 'confirm', subscriberId, expiresAtMs: now + 48 * HOUR });
    expect(verifyLinkToken(key, token, 'confirm', now + 48 * HOUR - 1).ok).toBe(true);
    expect(verifyLinkToken(key, token, 'confirm', now + 48 * HOUR)).toEqual({ ok: false, reason: 'expired' });
  });

  it('never expires a token signed with a null expiry', () => {
    const token = signLinkToken(key, { purpose: 'unsubscribe', subscriberId, expiresAtMs: null });
    expect(verifyLinkToken(key, token, 'unsubscribe', now + 100 * 365 * 24 * HOUR)).toEqual({ ok: true, subscriberId });
  });

  const valid = signLinkToken(key, { purpose: 'confirm', subscriberId, expiresAtMs: null });
  const [validBody, validSig] = valid.split('.') as [string, string];
  it.each([
    ['empty', ''],
    ['no dot', 'abc'],
    ['three parts', `${valid}.x`],
    ['empty signature', `${validBody}.`],
    ['empty payload', `.${validSig}`],
    ['not base64url', `${validBody}.${validSig.slice(0, -1)}+`],
    ['short signature', `${validBody}.${validSig.slice(0, 10)}`],
    ['padded signature', `${validBody}.${validSig}=`],
  ])('answers malformed for a %s token', (_name, token) => {
    expect(verifyLinkToken(key, token, 'confirm', now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('answers malformed for a correctly signed payload of the wrong shape', () => {
    for (const payload of [
      'not json',
      '[1]',
      '{"p":"confirm","s":"","e":null}',
      '{"p":"delete","s":"x","e":null}',
      '{"p":"confirm","s":"x","e":"soon"}',
    ]) {
      const body = Buffer.from(payload).toString('base64url');
      const sig = createHmac('sha256', key).update(body).digest('base64url');
      expect(verifyLinkToken(key, `${body}.${sig}`, 'confirm', now)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses to sign an empty subscriber id or a non-integer expiry', () => {
    expect(() => signLinkToken(key, { purpose: 'confirm', subscriberId: '', expiresAtMs: null })).toThrow();
    expect(() => signLinkToken(key, { purpose: 'confirm', subscriberId, expiresAtMs: Number.NaN })).toThrow();
  });
});
