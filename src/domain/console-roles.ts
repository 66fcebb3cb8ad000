import type { Scope } from './scopes';

/** Console roles, each a fixed set of the API's scopes, so a page may do what the API would. */
export const CONSOLE_ROLES = ['owner', 'operator', 'finance', 'viewer'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

const READS: Scope[] = ['read:metrics', 'read:config', 'read:incidents', 'read:sla', 'read:alerts'];

export const ROLE_SCOPES: Readonly<Record<ConsoleRole, readonly Scope[]>> = {
  owner: [...READS, 'write:metrics', 'write:config', 'write:incidents', 'write:sla', 'write:alerts'],
  // Operators run incidents, maintenance, metrics and configuration; they read SLA statements but do not act on them.
  operator: [...READS, 'write:metrics', 'write:config', 'write:incidents', 'write:alerts'],
  // Finance reviews and approves SLA statements; it reads the rest and changes none of it.
  finance: [...READS, 'write:sla'],
  viewer: READS,
};

export const ROLE_LABELS: Readonly<Record<ConsoleRole, string>> = {
  owner: 'Owner: everything',
  operator: 'Operator: incidents, maintenance, metrics, configuration',
  finance: 'Finance: SLA statements',
  viewer: 'Viewer: reads only',
};

export function isConsoleRole(value: string): value is ConsoleRole {
  return (CONSOLE_ROLES as readonly string[]).includes(value);
}

export function roleCan(role: ConsoleRole, scope: Scope): boolean {
  return ROLE_SCOPES[role].includes(scope);
}

/** Sign-in links work for 15 minutes, once. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** A session ends after 12 hours without a request, and after 7 days in any case. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_MAX_MS = 7 * 24 * 3_600_000;
