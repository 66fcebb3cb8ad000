/**
 * Scopes an API key can carry. The spec names read:metrics, write:metrics, write:config,
 * write:incidents and read:change_events; the rest complete the read/write pairs.
 * `read:change_events` is reserved (spec §5): a key can carry it, but no route needs it yet;
 * change events are read with read:incidents and written with write:incidents.
 */
export const SCOPES = [
  'read:metrics',
  'write:metrics',
  'read:config',
  'write:config',
  'read:incidents',
  'write:incidents',
  'read:change_events',
  'read:sla',
  'write:sla',
  'read:alerts',
  'write:alerts',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Names keys once carried that are scopes no longer, with the scope that took their place. */
const RETIRED_SCOPES: ReadonlyMap<string, Scope> = new Map([['write:change_events', 'write:incidents']]);

/** Null when every name is a scope; otherwise a message naming the others (and what replaced a retired one). */
export function unknownScopesMessage(names: readonly string[]): string | null {
  const bad = names.filter((s) => !isScope(s));
  if (!bad.length) return null;
  const hints = bad.flatMap((s) => {
    const instead = RETIRED_SCOPES.get(s);
    return instead ? [` ${s} is no longer a scope: use ${instead}.`] : [];
  });
  return `Unknown scope(s): ${bad.join(', ')}.${hints.join('')} Scopes: ${SCOPES.join(', ')}`;
}

/** A route needs one of `anyOf` (usually one scope; the probe test accepts two). */
export interface ScopeRequirement {
  anyOf: readonly Scope[];
}

export function missingScope(have: readonly string[], need: ScopeRequirement): string | null {
  return need.anyOf.some((s) => have.includes(s)) ? null : need.anyOf.join(' or ');
}
