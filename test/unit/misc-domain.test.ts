import { looksLikeApiKey } from '../../src/domain/api-key-format';
import { ERROR_CATALOG } from '../../src/domain/error-catalog';
import { isUuid } from '../../src/domain/ids';
import { missingScope } from '../../src/domain/scopes';
import { parseIsoMs } from '../../src/domain/time';
import { generateApiKey, hashApiKey } from '../../src/usecases/organizations/api-keys';

describe('API keys', () => {
  it('are vgl_pub_ plus 40 base62 characters, all different, hashed with SHA-256', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) expect(k).toMatch(/^vgl_pub_[0-9A-Za-z]{40}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(hashApiKey('vgl_pub_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(looksLikeApiKey(keys[0]!)).toBe(true);
    expect(looksLikeApiKey('vgl_pub_short')).toBe(false);
    expect(looksLikeApiKey(`vgl_agt_${'a'.repeat(40)}`)).toBe(false);
  });
});

describe('scopes', () => {
  it('needs one of the listed scopes', () => {
    expect(missingScope(['write:config'], { anyOf: ['write:metrics', 'write:config'] })).toBeNull();
    expect(missingScope(['read:metrics'], { anyOf: ['write:metrics', 'write:config'] })).toBe(
      'write:metrics or write:config',
    );
  });
});

describe('dates and ids', () => {
  it('accepts RFC 3339 UTC with exactly three fractional digits only', () => {
    expect(parseIsoMs('2026-11-22T06:40:46.123Z')?.getTime()).toBe(Date.UTC(2026, 10, 22, 6, 40, 46, 123));
    for (const bad of [
      '2026-11-22T06:40:46Z',
      '2026-11-22T06:40:46.1234Z',
      '2026-11-22T06:40:46.123+01:00',
      '2026-02-30T00:00:00.000Z',
    ]) {
      expect(parseIsoMs(bad)).toBeNull();
    }
  });

  it('recognises UUIDs', () => {
    expect(isUuid('7f1f3c5e-7a52-4d0e-9b7e-0b8d3f0a9c11')).toBe(true);
    expect(isUuid('7f1f3c5e7a524d0e9b7e0b8d3f0a9c11')).toBe(false);
  });
});

describe('error catalog', () => {
  it('has snake_case tokens with 4xx/5xx statuses and a summary each', () => {
    for (const [token, e] of Object.entries(ERROR_CATALOG)) {
      expect(token).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(e.status).toBeGreaterThanOrEqual(400);
      expect(e.summary.length).toBeGreaterThan(10);
    }
  });
});
