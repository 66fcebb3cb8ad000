/**
 * The hostile values the cases are built from: odd strings and numbers, malformed ids, content
 * types, invalid JSON, forged cursors, limits, dates, emails and URLs.
 */
import { Raw } from './encoding';

/** The API's body limit (BODY_LIMIT_BYTES); bodies just over it must be refused, not read. */
export const BODY_LIMIT = 1_048_576;

export const MB_STRING = 'x'.repeat(1_000_000);
export const HUGE_ARRAY = new Raw(`[${'1,'.repeat(99_999)}1]`);
export const DEEP = new Raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
export const DEEP_OBJECT = new Raw(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
export const ODD_STRINGS = [
  'abc\u200f\u202eRTL\u202c',
  'zw\u200djoin\u200b\u2060\ufeff',
  'lone \ud800 surrogate',
  'low \udc00 first',
  'nul \u0000 byte',
  '\u0000',
  'emoji 👩‍👩‍👧‍👦 🏳️‍🌈',
  'combining e\u0301\u0301\u0301\u0301\u0301',
  'ctrl \u0001\u0007\u001b[31m\u007f',
  'line\u2028sep\u2029para',
  '\ufffe\uffff non-characters',
  '𝕳𝖊𝖑𝖑𝖔 ＦＵＬＬＷＩＤＴＨ',
  "'; drop table services; --",
  '{{7*7}} ${7*7} <script>alert(1)</script>',
  '%s%n%x %00',
  '../../../../etc/passwd',
];
export const HOSTILE_NUMBERS: unknown[] = [
  -1,
  0,
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 53) - 1,
  0.5,
  1e-320,
  new Raw('1e999'),
  new Raw('-1e999'),
  new Raw('-0'),
  new Raw('1E+2'),
  '7',
  'NaN',
  'Infinity',
];
export const MALFORMED_IDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '%7B0195b3c4-0000-7000-8000-000000000001%7D',
  '0195b3c4000070008000000000000001',
  '0195b3c4-0000-7000-8000-00000000000g',
  '%200195b3c4-0000-7000-8000-000000000001',
  '-1',
  '1e308',
  'null',
  '%00',
  '%2e%2e%2f%2e%2e',
  '%E2%80%AE0195b3c4',
  '%F0%9F%92%A9',
  "1'%20or%20'1'%3D'1",
  'a'.repeat(101),
  '%ED%A0%80',
  '%zz',
  '%C0%AF',
  '%EF%BF%BE',
];
/** Malformed ids as body values. */
export const BAD_ID_VALUES = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '{0195b3c4-0000-7000-8000-000000000001}',
  '0195b3c4000070008000000000000001',
  ' 0195b3c4-0000-7000-8000-000000000001',
  '0195b3c4-0000-7000-8000-00000000000\u0000',
  "1' or '1'='1",
  '-1',
  'a'.repeat(5000),
];
export const CONTENT_TYPES: (string | null)[] = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=fz',
  null,
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'text/yaml',
  '',
  'application/octet-stream',
];
export const INVALID_JSON = [
  '{',
  '{"a":}',
  '{}x',
  '\ufeff{}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":1,}',
  '{"a":undefined}',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"',
  '\u0000',
];

/** Base64url of a cursor's JSON, as the API encodes its own. */
export const forged = (c: unknown, i: unknown) => Buffer.from(JSON.stringify({ c, i })).toString('base64url');
export const FOREIGN_UUID = '0195b3c4-0000-7000-8000-000000000001';
export const GARBAGE_CURSORS = [
  'garbage',
  '',
  '%00',
  'a'.repeat(600),
  Buffer.from('{"c":1}').toString('base64url'),
  forged('+275760-09-13T00:00:00.000Z', FOREIGN_UUID),
  forged('-271821-04-20T00:00:00.000Z', FOREIGN_UUID),
  forged('0000-01-01T00:00:00.000Z', FOREIGN_UUID),
  forged('1', FOREIGN_UUID),
  forged('2026-01-01T00:00:00.000Z', '00000000-0000-0000-0000-000000000000'),
  forged('2026-01-01T00:00:00.000Z', 'not-a-uuid'),
  forged(['x'], { a: 1 }),
];
export const HOSTILE_LIMITS = [
  '-1',
  '0',
  '1e9',
  'abc',
  '',
  '1e999',
  '-0',
  '0x10',
  '1.5',
  '99999999999999999999999',
  'NaN',
  ' 5',
];
export const DATE_TIMES = [
  '2026-02-30T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2026-13-01T25:61:61.000Z',
  '1970-01-01T00:00:00.000Z',
  '2026-11-22T06:40:46.123+01:00',
  '+275760-09-13T00:00:00.000Z',
];
export const EMAILS = [
  'a@b',
  '@',
  `${'x'.repeat(400)}@example.com`,
  'a@[127.0.0.1]',
  '"a b"@example.com',
  'ü@exämple.com',
  'a@example.com\r\nBcc: x@example.com',
];
export const URLS = [
  'javascript:alert(1)',
  'http://169.254.169.254/latest/meta-data',
  'file:///etc/passwd',
  'http://[::1]:99999/',
  `https://${'a'.repeat(2100)}.example.com`,
  'https://exa mple.com',
  'https://xn--80ak6aa92e.com/\u0000',
];
