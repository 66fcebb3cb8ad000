import type { SourceConfigOf } from '../domain/source-config';
import { type ProbeContext, ProbeFailure } from './types';

export interface RequestHeaders {
  /** Plain headers from `headers` (plus a default User-Agent): sent on every hop. */
  plain: Record<string, string>;
  /** Resolved `header_refs`: sent to the configured URL's origin only, never across a redirect to another origin. */
  secret: Record<string, string>;
}

const USER_AGENT = 'Vigil-Probe/1';
/** Control characters (HTAB aside, as HTTP allows it) and anything a header cannot carry (over U+00FF). */
const INVALID_HEADER_VALUE = /[\x00-\x08\x0a-\x1f\x7f]|[^\x00-\xff]/;

/**
 * The request headers of an HTTP probe. `header_refs` name environment variables resolved with
 * ctx.env on an agent; a cloud run neither resolves nor sends them. Unset or blank →
 * header_ref_missing, a line break or control character → header_ref_invalid (metadata: header
 * and variable name, never the value).
 */
export function requestHeaders(config: SourceConfigOf<'http'>, ctx: ProbeContext): RequestHeaders {
  const plain: Record<string, string> = { ...config.headers };
  const named = [...Object.keys(plain), ...Object.keys(config.header_refs ?? {})];
  if (!named.some((h) => h.toLowerCase() === 'user-agent')) plain['user-agent'] = USER_AGENT;
  const secret: Record<string, string> = {};
  if (ctx.mode === 'cloud') return { plain, secret };
  for (const [header, ref] of Object.entries(config.header_refs ?? {})) {
    const value = ctx.env(ref);
    if (value === undefined || value.trim() === '')
      throw new ProbeFailure('header_ref_missing', { header, header_ref: ref });
    if (INVALID_HEADER_VALUE.test(value)) throw new ProbeFailure('header_ref_invalid', { header, header_ref: ref });
    secret[header] = value;
  }
  return { plain, secret };
}
