/**
 * Scopes an API key can carry. The spec names read:metrics, write:metrics, write:config,
 * write:incidents and read:change_events; the rest complete the read/write pairs.
 */
export const SCOPES = [
  'read:metrics',
  'write:metrics',
  'read:config',
  'write:config',
  'read:incidents',
  'write:incidents',
  'read:change_events',
  'write:change_events',
  'read:sla',
  'write:sla',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A route needs one of `anyOf` (usually one scope; the probe test accepts two). */
export interface ScopeRequirement {
  anyOf: readonly Scope[];
}

export function missingScope(have: readonly string[], need: ScopeRequirement): string | null {
  return need.anyOf.some((s) => have.includes(s)) ? null : need.anyOf.join(' or ');
}
