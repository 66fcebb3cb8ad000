/**
 * The one list of URL parts that carry a credential, and their redaction for logs. Anyone who
 * reads a request log must not be able to replay a heartbeat or alert token, a viewer token, a
 * console sign-in or invitation link, or a subscriber's confirm or unsubscribe link.
 * test/api/log-redaction.test.ts checks every route that takes such a part against this list, and
 * sends each one in the URL forms below.
 *
 * A rule matches the path as the router reads it, and more: the router (find-my-way) strips an
 * absolute-form target's `http://host`, decodes `%xx` and ignores a trailing slash; a request that
 * it would not route (`//v1/…`, `/V1/…`, `/v1/heartbeats;x/…`, `/v1/a/../heartbeats/…`) is logged
 * all the same, so matching also decodes every escape (`%2F` too), ignores case, empty segments
 * and `;` parameters, resolves `.` and `..`, splits on `\` as some clients and proxies do, and
 * finds a rule anywhere in the path (status pages are routed under a prefix). What is replaced is
 * the raw segment as it arrived, so the rest of the line stays as the client sent it.
 */
export const REDACTED = '[REDACTED]';

/**
 * Route templates (as registered, the last `:name` marks the secret segment). `/v1/alerts/:id` is
 * the former alert webhook URL, whose `:id` is the token (the route shares the alerts' template);
 * its rule also hides alert ids in `/v1/alerts/{id}/…` lines.
 */
export const SECRET_PATH_ROUTES = [
  '/v1/heartbeats/:token',
  '/v1/inbound-alerts/:token',
  '/v1/alerts/:id',
  '/v1/alert-actions/:token',
  '/console/sign-in/:token',
] as const;

/** Query parameters whose value is a credential, on any route. */
export const SECRET_QUERY_PARAMS = ['token', 'viewer_token', 'access_token', 'sig', 'signature'] as const;

/** Each route's segments before its secret one, lowercased. */
const PATH_RULES: string[][] = SECRET_PATH_ROUTES.map((route) => {
  const [prefix, rest] = route.split(/:\w+/) as [string, string | undefined];
  if (rest) throw new Error(`secret segment must end the route template: ${route}`);
  return prefix
    .split('/')
    .filter(Boolean)
    .map((s) => s.toLowerCase());
});
const QUERY = new Set<string>(SECRET_QUERY_PARAMS);
/** The last static segment of each rule: a path holding none of them, and no escape, matches no rule. */
const RULE_ENDS = [...new Set(PATH_RULES.map((r) => r[r.length - 1]!))];

/** Every valid `%xx` decoded (as bytes, then UTF-8); a malformed escape stays as it is. */
function decoded(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/(%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** A path segment as matching sees it, with the span of the raw text it came from. */
interface Segment {
  key: string;
  start: number;
  end: number;
}

/** The path's segments: as sent (empty ones dropped), and with `.` and `..` resolved. */
function segmentsOf(url: string, from: number, to: number): { sent: Segment[]; resolved: Segment[] } {
  const sent: Segment[] = [];
  const resolved: Segment[] = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i < to && url[i] !== '/' && url[i] !== '\\') continue;
    if (i > start) {
      // A decoded `/` (from %2F) splits the raw segment into several that share its span.
      for (const part of decoded(url.slice(start, i)).split(/[/\\]/)) {
        const key = part.split(';')[0]!.trim().toLowerCase();
        if (key === '') continue;
        const seg = { key, start, end: i };
        sent.push(seg);
        if (key === '..') resolved.pop();
        else if (key !== '.') resolved.push(seg);
      }
    }
    start = i + 1;
  }
  return { sent, resolved };
}

/** Raw spans of every secret segment, wherever a rule's segments precede one. */
function secretSpans(segments: Segment[]): [number, number][] {
  const spans: [number, number][] = [];
  for (let at = 0; at < segments.length; at++) {
    for (const rule of PATH_RULES) {
      const secret = segments[at + rule.length];
      if (secret && rule.every((s, k) => segments[at + k]!.key === s)) spans.push([secret.start, secret.end]);
    }
  }
  return spans;
}

/** The end of an absolute-form target's scheme and authority (0 for an origin-form path), with any user:password in it. */
function authorityOf(url: string): { end: number; userinfo: [number, number] | null } {
  const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(url);
  if (!scheme) return { end: 0, userinfo: null };
  const from = scheme[0].length;
  let end = from;
  while (end < url.length && !'/\\?#'.includes(url[end]!)) end++;
  const at = url.lastIndexOf('@', end - 1);
  return { end, userinfo: at >= from ? [from, at] : null };
}

function redactQuery(query: string): string {
  return query
    .split(/([&;])/)
    .map((pair) => {
      if (pair === '&' || pair === ';') return pair;
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      const name = decoded(rawName.replace(/\+/g, ' ')).trim().toLowerCase();
      if (QUERY.has(name)) return `${rawName}=${REDACTED}`;
      // A value that is itself a URL (a `next=` after sign-in) may carry a secret too.
      const value = eq === -1 ? '' : decoded(pair.slice(eq + 1).replace(/\+/g, ' '));
      return /[/\\?]/.test(value) && redactUrl(value) !== value ? `${rawName}=${REDACTED}` : pair;
    })
    .join('');
}

/** The URL (request target, as a request line carries it) with every secret part replaced. */
export function redactUrl(url: string): string {
  const authority = authorityOf(url);
  let pathEnd = url.length;
  for (const c of ['?', '#']) {
    const i = url.indexOf(c, authority.end);
    if (i !== -1 && i < pathEnd) pathEnd = i;
  }
  const lower = url.slice(authority.end, pathEnd).toLowerCase();
  const mayMatch = lower.includes('%') || RULE_ENDS.some((end) => lower.includes(end));
  const { sent, resolved } = mayMatch ? segmentsOf(url, authority.end, pathEnd) : { sent: [], resolved: [] };
  const spans = [...secretSpans(sent), ...secretSpans(resolved)];
  if (authority.userinfo) spans.push(authority.userinfo);
  let out = '';
  let last = 0;
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    if (start < last) continue; // the same raw segment, matched twice
    out += `${url.slice(last, start)}${REDACTED}`;
    last = end;
  }
  out += url.slice(last, pathEnd);
  return pathEnd === url.length ? out : `${out}${url[pathEnd]}${redactQuery(url.slice(pathEnd + 1))}`;
}

/**
 * Free text (an error message, a log message) with every URL in it redacted: each run of
 * non-space characters that holds a `/` is redacted from the start of its path or scheme.
 */
export function redactText(text: string): string {
  if (!text.includes('/') && !text.includes('\\')) return text;
  return text.replace(/[^\s"'<>()`]+/g, (word) => {
    const at = word.search(/[a-z][a-z\d+.-]*:\/\/|[/\\]/i);
    if (at === -1) return word;
    return word.slice(0, at) + redactUrl(word.slice(at));
  });
}
