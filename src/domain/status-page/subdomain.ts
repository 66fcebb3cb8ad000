/** A DNS label: lower-case letters, digits and inner hyphens, 3..63 characters. */
export const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

/** Labels kept for the service itself, so a page can never pose as it. */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'app',
  'admin',
  'status',
  'docs',
  'mail',
  'smtp',
  'help',
  'support',
  'billing',
  'login',
  'auth',
  'vigil',
  'static',
  'assets',
  'cdn',
]);

export function subdomainProblem(value: string): string | null {
  if (!SUBDOMAIN_PATTERN.test(value))
    return 'Use 3 to 63 lower-case letters, digits and hyphens, not starting or ending with a hyphen';
  if (value.includes('--')) return 'Consecutive hyphens are not allowed';
  if (RESERVED_SUBDOMAINS.has(value)) return `"${value}" is reserved`;
  return null;
}

/**
 * The subdomain a request's Host header names under `statusHost` (port ignored), or null when
 * the host is not a page host (reserved names never are: no page can have one, and the service
 * may serve its own hosts there).
 */
export function subdomainOfHost(host: string | undefined, statusHost: string): string | null {
  if (!host) return null;
  const name = host.replace(/:\d+$/, '').toLowerCase().replace(/\.$/, '');
  const suffix = `.${statusHost.toLowerCase()}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  return SUBDOMAIN_PATTERN.test(label) && !RESERVED_SUBDOMAINS.has(label) ? label : null;
}
