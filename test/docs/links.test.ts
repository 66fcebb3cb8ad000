import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Every relative link of the README and docs/ resolves: the file exists, and a `#fragment` names a
 * heading of that file (GitHub's anchor rules: lower case, punctuation but `-` and `_` dropped, spaces to hyphens,
 * repeated headings numbered) or an explicit `<a id>`/`name`.
 */
const ROOT = path.join(__dirname, '..', '..');
const markdownIn = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(ROOT, dir, f));
const DOCS = [path.join(ROOT, 'README.md'), ...markdownIn('docs'), ...markdownIn('docs/api')];

/** GitHub's heading anchor for `text`. */
export function slugOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function withoutCode(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length));
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    // Link text in a heading keeps its words, not its target.
    const base = slugOf(heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

function linksOf(file: string): { target: string; line: number }[] {
  const text = withoutCode(readFileSync(file, 'utf8'));
  const out: { target: string; line: number }[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    out.push({ target, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

describe('relative links in the README and docs/', () => {
  it('finds the documents and their links (the check is not vacuous)', () => {
    expect(DOCS.length).toBeGreaterThan(25);
    expect(DOCS.reduce((n, f) => n + linksOf(f).length, 0)).toBeGreaterThan(50);
  });

  it('every relative link names an existing file, and every fragment a heading of it', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const { target, line } of linksOf(file)) {
        const [pathPart, fragment] = target.split('#') as [string, string | undefined];
        const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
        const where = `${path.relative(ROOT, file)}:${line} → ${target}`;
        if (!existsSync(resolved)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (
          fragment &&
          resolved.endsWith('.md') &&
          statSync(resolved).isFile() &&
          !anchorsOf(resolved).has(decodeURIComponent(fragment))
        ) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('computes anchors the way GitHub does', () => {
    expect(slugOf('Locations and confirmed status')).toBe('locations-and-confirmed-status');
    expect(slugOf('The `vigil` command-line tool')).toBe('the-vigil-command-line-tool');
    expect(slugOf('What `npm start` does')).toBe('what-npm-start-does');
    expect(slugOf('Alerting and on-call')).toBe('alerting-and-on-call');
  });
});
