import type { Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export type RecordType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'NS' | 'SRV' | 'CAA';

/**
 * The answers to one query, each as the strings an `expected_value` may name:
 * A/AAAA the address; CNAME/NS the name; MX the exchange or `priority exchange`; TXT the
 * record's strings joined; SRV the target or `priority weight port target`; CAA the value,
 * `flags tag value` or `flags tag "value"`.
 */
export async function queryAnswers(resolver: Resolver, name: string, type: RecordType): Promise<string[][]> {
  switch (type) {
    case 'A':
      return (await resolver.resolve4(name)).map((a) => [a]);
    case 'AAAA':
      return (await resolver.resolve6(name)).map((a) => [a]);
    case 'CNAME':
      return (await resolver.resolveCname(name)).map((n) => [n]);
    case 'NS':
      return (await resolver.resolveNs(name)).map((n) => [n]);
    case 'MX':
      return (await resolver.resolveMx(name)).map((r) => [r.exchange, `${r.priority} ${r.exchange}`]);
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => [chunks.join('')]);
    case 'SRV':
      return (await resolver.resolveSrv(name)).map((r) => [r.name, `${r.priority} ${r.weight} ${r.port} ${r.name}`]);
    case 'CAA':
      return (await resolver.resolveCaa(name)).map((r) => {
        const [tag, value] = (Object.entries(r) as [string, unknown][]).find(([k]) => k !== 'critical') ?? ['', ''];
        return [String(value), `${r.critical} ${tag} ${String(value)}`, `${r.critical} ${tag} "${String(value)}"`];
      });
  }
}

const NAME_TYPES: readonly RecordType[] = ['CNAME', 'NS', 'MX', 'SRV'];

/**
 * Whether `expected` is among the answers. Addresses compare in normalised form (`::10` equals
 * `0:0::10`), names case-insensitively and without a trailing dot; TXT and CAA values exactly.
 */
export function answersInclude(answers: string[][], expected: string, type: RecordType): boolean {
  const norm = normaliser(type);
  const want = norm(expected.trim());
  return answers.some((forms) => forms.some((f) => norm(f) === want));
}

function normaliser(type: RecordType): (s: string) => string {
  if (type === 'A' || type === 'AAAA') return (s) => (ipaddr.isValid(s) ? ipaddr.parse(s).toNormalizedString() : s);
  if (NAME_TYPES.includes(type)) return (s) => s.toLowerCase().replace(/\.(?= |$)/g, '');
  return (s) => s;
}
