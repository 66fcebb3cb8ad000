import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTE_SCOPES } from '../../src/api/route-scopes';
import { ConfigSchema } from '../../src/config';
import { ERROR_CATALOG } from '../../src/domain/error-catalog';
import { PLANS, PLAN_IDS } from '../../src/domain/plans';

/**
 * The documents fail here when they drift from the code: the scope table, the error catalog, the
 * plan limits and the configuration table are checked against the tables in src/.
 */
const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const apiGuide = read('docs/api/conventions.md');
const configuration = read('docs/configuration.md');

/** The rows of the markdown table whose header row starts with `firstHeader`, as trimmed cells. */
function table(doc: string, firstHeader: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\|\\s*${firstHeader}\\s*\\|`).test(l));
  if (start < 0) throw new Error(`no table with the header "${firstHeader}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** The backticked names in a cell: "`read:metrics` or `write:config`" → ["read:metrics", "write:config"]. */
const codes = (cell: string | undefined) => [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs/api/conventions.md', () => {
  const scopeRows = table(apiGuide, 'operationId');
  const byOperation = new Map(scopeRows.map((r) => [codes(r[0])[0] ?? '', r]));

  it.each(Object.entries(ROUTE_SCOPES))(
    'lists %s in the scope table with the scope(s) it needs',
    (operationId, need) => {
      const row = byOperation.get(operationId);
      if (!row) throw new Error(`${operationId} is missing from the scope table in docs/api/conventions.md`);
      const documented = row[3] ?? '';
      if (need === 'public' || need === 'agent') expect([operationId, documented]).toEqual([operationId, need]);
      else expect([operationId, codes(documented).sort()]).toEqual([operationId, [...need].sort()]);
    },
  );

  it('lists no operation the scope table in src/api/route-scopes.ts does not have', () => {
    const stale = [...byOperation.keys()].filter((id) => !(id in ROUTE_SCOPES));
    expect({ notInRouteScopes: stale }).toEqual({ notInRouteScopes: [] });
  });

  it('lists every error token of src/domain/error-catalog.ts with its status, and no other', () => {
    const rows = table(apiGuide, '`title` \\| Status');
    const documented = Object.fromEntries(rows.map((r) => [codes(r[0])[0] ?? r[0], Number(r[1])]));
    const expected = Object.fromEntries(Object.entries(ERROR_CATALOG).map(([token, e]) => [token, e.status]));
    expect(documented).toEqual(expected);
  });

  it('states the rate limits of every plan in src/domain/plans.ts', () => {
    const rows = table(apiGuide, 'Plan \\| Per minute');
    for (const id of PLAN_IDS) {
      const row = rows.find((r) => codes(r[0])[0] === id);
      const { perMinute, perDay } = PLANS[id].rateLimit;
      const expected = [perMinute, perDay].map((n) => n.toLocaleString('en-US'));
      expect([id, row?.slice(1, 3)]).toEqual([id, expected]);
    }
  });
});

describe('README.md', () => {
  it('documents every variable of ConfigSchema (src/config.ts) in docs/configuration.md, and leaves the reference there', () => {
    const documented = new Set(table(configuration, 'Variable \\| Default').map((r) => codes(r[0])[0]));
    const missing = Object.keys(ConfigSchema.shape).filter((name) => !documented.has(name));
    expect({ missingFromConfigurationDoc: missing }).toEqual({ missingFromConfigurationDoc: [] });
    expect(readme).not.toMatch(/^\| Variable \| Default/m);
    expect(readme).toContain('(docs/configuration.md)');
  });

  it('stays a first page: at most 150 lines, linking only inside the repository', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((t) => /^[a-z]+:/i.test(t) || t.startsWith('..'))).toEqual([]);
  });

  it('gives the two commands: one that starts the service, one that runs the tests', () => {
    const quickStart = readme.slice(
      readme.indexOf('## Quick start'),
      readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1),
    );
    expect(quickStart).toMatch(/^npm ci && npm start\b/m);
    expect(quickStart).toMatch(/^npm ci && npm test\b/m);
    // CI runs the same test command.
    expect(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test\b/m);
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    // Before jest: the type check, the linter and the formatter's check.
    expect(scripts.test).toMatch(/^bash scripts\/static-checks\.sh && jest/);
    const checks = readFileSync(path.join(ROOT, 'scripts', 'static-checks.sh'), 'utf8');
    for (const tool of [
      'npx tsc -p tsconfig.json --noEmit',
      'npx eslint --max-warnings 0 src test bench',
      'npx prettier --check',
    ])
      expect(checks).toContain(tool);
    expect(scripts.start).toMatch(/cli\/start/);
  });
});
