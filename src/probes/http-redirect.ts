import { ProbeFailure } from './types';

export const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface Hop {
  url: URL;
  method: string;
  body: string | undefined;
}

export const isRedirect = (status: number): boolean => REDIRECT_STATUSES.has(status);

/**
 * The request after a redirect answer, or ProbeFailure: redirect_invalid (no single Location that
 * parses as a URL), redirect_scheme_not_allowed (not http/https), url_credentials_not_allowed
 * (user:password@ in the target), http_error after MAX_REDIRECTS hops. 303, and 301/302 after a
 * POST, continue with GET and no body (as browsers do); 307/308 repeat the request as it was.
 */
export function nextHop(current: Hop, status: number, location: string | string[] | undefined, hopsSoFar: number): Hop {
  if (hopsSoFar >= MAX_REDIRECTS)
    throw new ProbeFailure('http_error', { cause: 'too_many_redirects', redirects: hopsSoFar });
  if (typeof location !== 'string' || location.trim() === '') throw new ProbeFailure('redirect_invalid', { status });
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    throw new ProbeFailure('redirect_invalid', { status });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProbeFailure('redirect_scheme_not_allowed', { status, scheme: url.protocol.slice(0, -1).slice(0, 32) });
  }
  if (url.username || url.password) throw new ProbeFailure('url_credentials_not_allowed', { status });
  url.hash = '';
  const toGet = status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
  return toGet ? { url, method: current.method === 'HEAD' ? 'HEAD' : 'GET', body: undefined } : { ...current, url };
}
