/**
 * Which environment variables a check's `*_ref` fields (`header_refs`, `metadata_refs`,
 * `auth_ref`, `url_ref`, `connection_string_ref`, `ca_cert_ref`, client certificate refs) may name
 * on this agent. Anyone with `write:metrics` chooses both the ref and the URL a probe test goes to,
 * so the agent resolves only variables its operator marked as sendable: names starting with
 * VIGIL_AGENT_SECRET_PREFIX (default VIGIL_SECRET_) and names listed in VIGIL_AGENT_SECRETS
 * (comma-separated). Never its own token, the API URL or any VIGIL_AGENT_* setting, whatever
 * the two settings say. A refused name resolves to nothing: the probe answers its usual
 * missing-variable reason (`header_ref_missing`, `db_dsn_missing`, …).
 */
export const SECRET_PREFIX_ENV = 'VIGIL_AGENT_SECRET_PREFIX';
export const SECRET_LIST_ENV = 'VIGIL_AGENT_SECRETS';
export const DEFAULT_SECRET_PREFIX = 'VIGIL_SECRET_';

/** Never sendable: the agent's own settings (its token among them). */
const NEVER = (name: string): boolean => name.startsWith('VIGIL_AGENT_') || name === 'VIGIL_API_URL';

export interface SecretRefRule {
  allows(name: string): boolean;
  /** The rule in words, for the agent's log when it refuses a name. */
  readonly description: string;
}

export function secretRefRule(env: Readonly<Record<string, string | undefined>>): SecretRefRule {
  // Set but blank: no prefix rule at all (only the list). Unset: the default prefix.
  const prefix = (env[SECRET_PREFIX_ENV] ?? DEFAULT_SECRET_PREFIX).trim();
  const listed = new Set(
    (env[SECRET_LIST_ENV] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  const parts = [prefix ? `named ${prefix}*` : null, listed.size ? `listed in ${SECRET_LIST_ENV}` : null].filter(
    (p) => p !== null,
  );
  return {
    allows: (name) =>
      !NEVER(name) && ((prefix !== '' && name.startsWith(prefix) && name.length > prefix.length) || listed.has(name)),
    description: `the agent resolves only variables ${parts.length ? parts.join(' or ') : `named by ${SECRET_PREFIX_ENV} or ${SECRET_LIST_ENV} (none set)`}, never VIGIL_AGENT_*`,
  };
}

/**
 * The `env` a probe's refs resolve through on this agent: the host's value for an allowed name,
 * nothing for a refused one (reported once per name through `onRefused`).
 */
export function secretRefResolver(
  env: Readonly<Record<string, string | undefined>>,
  onRefused: (name: string, rule: string) => void,
): (name: string) => string | undefined {
  const rule = secretRefRule(env);
  const reported = new Set<string>();
  return (name) => {
    if (rule.allows(name)) return env[name];
    if (!reported.has(name)) {
      if (reported.size >= 1_000) reported.clear();
      reported.add(name);
      onRefused(name, rule.description);
    }
    return undefined;
  };
}
