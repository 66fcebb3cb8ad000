import {
  DEFAULT_SECRET_PREFIX,
  SECRET_LIST_ENV,
  SECRET_PREFIX_ENV,
  secretRefResolver,
  secretRefRule,
} from '../../src/agent/secret-refs';

// Which `*_ref` names the agent resolves, whatever a `write:metrics` key asks for.
describe('secretRefRule', () => {
  it('by default allows only names with the VIGIL_SECRET_ prefix (and more after it)', () => {
    const rule = secretRefRule({});
    expect(DEFAULT_SECRET_PREFIX).toBe('VIGIL_SECRET_');
    expect(rule.allows('VIGIL_SECRET_DB')).toBe(true);
    expect(rule.allows('VIGIL_SECRET_')).toBe(false);
    expect(rule.allows('AWS_SECRET_ACCESS_KEY')).toBe(false);
    expect(rule.allows('vigil_secret_db')).toBe(false);
    expect(rule.allows('X_VIGIL_SECRET_DB')).toBe(false);
    expect(rule.description).toContain('VIGIL_SECRET_*');
  });

  it('takes another prefix from VIGIL_AGENT_SECRET_PREFIX (trimmed), which replaces the default', () => {
    const rule = secretRefRule({ [SECRET_PREFIX_ENV]: ' PROBE_ ' });
    expect(rule.allows('PROBE_TOKEN')).toBe(true);
    expect(rule.allows('VIGIL_SECRET_DB')).toBe(false);
    expect(rule.description).toContain('PROBE_*');
  });

  it('allows the names listed in VIGIL_AGENT_SECRETS (comma-separated, spaces and empties ignored), exactly', () => {
    const rule = secretRefRule({ [SECRET_LIST_ENV]: ' DB_DSN, ,LOKI_AUTH,' });
    expect(rule.allows('DB_DSN')).toBe(true);
    expect(rule.allows('LOKI_AUTH')).toBe(true);
    expect(rule.allows('DB')).toBe(false);
    expect(rule.allows('')).toBe(false);
    expect(rule.allows('VIGIL_SECRET_STILL_OK')).toBe(true);
    expect(rule.description).toContain(SECRET_LIST_ENV);
  });

  it('a blank prefix turns the prefix rule off: only the list counts, and an empty name never passes', () => {
    const listed = secretRefRule({ [SECRET_PREFIX_ENV]: '  ', [SECRET_LIST_ENV]: 'ONLY_THIS' });
    expect(listed.allows('ONLY_THIS')).toBe(true);
    expect(listed.allows('VIGIL_SECRET_DB')).toBe(false);
    expect(listed.allows('')).toBe(false);
    expect(listed.allows('ANYTHING')).toBe(false);
    const none = secretRefRule({ [SECRET_PREFIX_ENV]: '' });
    expect(['', 'A', 'VIGIL_SECRET_DB', 'PATH'].some((n) => none.allows(n))).toBe(false);
    expect(none.description).toContain('none set');
  });

  it('never allows the agent token, any VIGIL_AGENT_* setting or VIGIL_API_URL, even listed or prefixed', () => {
    const rule = secretRefRule({
      [SECRET_PREFIX_ENV]: 'VIGIL_',
      [SECRET_LIST_ENV]: 'VIGIL_AGENT_TOKEN,VIGIL_API_URL,VIGIL_AGENT_SECRETS,VIGIL_AGENT_SECRET_PREFIX',
    });
    for (const name of [
      'VIGIL_AGENT_TOKEN',
      'VIGIL_API_URL',
      'VIGIL_AGENT_SECRETS',
      'VIGIL_AGENT_SECRET_PREFIX',
      'VIGIL_AGENT_ANYTHING',
    ]) {
      expect([name, rule.allows(name)]).toEqual([name, false]);
    }
    expect(rule.allows('VIGIL_SECRET_DB')).toBe(true);
    expect(secretRefRule({ [SECRET_PREFIX_ENV]: 'VIGIL_AGENT_' }).allows('VIGIL_AGENT_TOKEN')).toBe(false);
  });
});

describe('secretRefResolver', () => {
  const env = {
    VIGIL_SECRET_DB: 'postgres://db',
    LISTED: 'listed-value',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    VIGIL_AGENT_TOKEN: 'agent-token',
    VIGIL_API_URL: 'http://api',
    [SECRET_LIST_ENV]: 'LISTED,VIGIL_AGENT_TOKEN',
  };

  it('answers the host value of an allowed name and nothing for a refused one, reporting each refused name once with the rule', () => {
    const refused: Array<[string, string]> = [];
    const resolve = secretRefResolver(env, (name, rule) => refused.push([name, rule]));
    expect(resolve('VIGIL_SECRET_DB')).toBe('postgres://db');
    expect(resolve('LISTED')).toBe('listed-value');
    expect(resolve('VIGIL_SECRET_UNSET')).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      expect(resolve('AWS_SECRET_ACCESS_KEY')).toBeUndefined();
      expect(resolve('VIGIL_AGENT_TOKEN')).toBeUndefined();
      expect(resolve('VIGIL_API_URL')).toBeUndefined();
    }
    expect(refused.map(([name]) => name)).toEqual(['AWS_SECRET_ACCESS_KEY', 'VIGIL_AGENT_TOKEN', 'VIGIL_API_URL']);
    expect(refused[0]![1]).toContain('never VIGIL_AGENT_*');
    expect(JSON.stringify(refused)).not.toContain('aws-secret');
    expect(JSON.stringify(refused)).not.toContain('agent-token');
  });

  it('an allowed name is not reported (an unset allowed name is the probe’s usual missing-variable case)', () => {
    const refused: string[] = [];
    const resolve = secretRefResolver(env, (name) => refused.push(name));
    resolve('VIGIL_SECRET_DB');
    resolve('VIGIL_SECRET_UNSET');
    expect(refused).toEqual([]);
  });
});
