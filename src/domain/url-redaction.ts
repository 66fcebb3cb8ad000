/**
 * The one list of URL parts that carry a credential, and their redaction for logs. Anyone who
 * reads a request log must not be able to replay a heartbeat or alert token, a viewer token, a
 * console sign-in or invitation link, or a subscriber's confirm or unsubscribe link.
 * test/api/log-redaction.test.ts checks every route that takes such a part against this list.
 */
export const REDACTED = '[REDACTED]';

/** Route templates (as registered, `:name` marks the secret segment). */
export const SECRET_PATH_ROUTES = ['/v1/heartbeats/:token', '/v1/alerts/:token', '/v1/alert-actions/:token', '/console/sign-in/:token'] as const;

/** Query parameters whose value is a credential, on any route. */
export const SECRET_QUERY_PARAMS = ['token', 'viewer_token', 'access_token', 'sig', 'signature'] as const;

const PATH_RULES = SECRET_PATH_ROUTES.map((route) => {
  const [prefix, rest] = route.split(/:\w+/) as [string, string | undefined];
  if (rest) throw new Error(`secret segment must end the route template: ${route}`);
  return prefix;
});
const QUERY = new Set<string>(SECRET_QUERY_PARAMS);

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The URL (path and query, as a request line carries it) with every secret part replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? null : url.slice(q + 1);
  for (const prefix of PATH_RULES) {
    // Any prefix of the path matching the route (trailing parts and unmatched routes included).
    if (path.startsWith(prefix) && path.length > prefix.length) {
      const end = path.indexOf('/', prefix.length);
      path = `${prefix}${REDACTED}${end === -1 ? '' : path.slice(end)}`;
    }
  }
  if (query === null) return path;
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = decoded(eq === -1 ? pair : pair.slice(0, eq));
    return QUERY.has(name.toLowerCase()) ? `${eq === -1 ? pair : pair.slice(0, eq)}=${REDACTED}` : pair;
  });
  return `${path}?${parts.join('&')}`;
}
