import type { Severity } from './incident-state';

/** What an incident does to one affected service, in Statuspage's words. */
export const IMPACTS = ['degraded_performance', 'partial_outage', 'major_outage'] as const;
export type Impact = (typeof IMPACTS)[number];

export const IMPACT_LABELS: Record<Impact, string> = {
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

/** The impact of a service the operator gave none: the incident's severity says it (docs/decisions.md). */
export const IMPACT_OF_SEVERITY: Record<Severity, Impact> = {
  minor: 'degraded_performance',
  major: 'partial_outage',
  critical: 'major_outage',
};

export interface ServiceImpact {
  service_id: string;
  impact: Impact;
}

/** Explicit impacts as stored: service id (lower case) → impact. */
export type ImpactMap = Record<string, Impact>;

export function isImpact(x: unknown): x is Impact {
  return typeof x === 'string' && (IMPACTS as readonly string[]).includes(x);
}

/** One entry per affected service, in their order: the explicit impact, or the severity's. */
export function serviceImpacts(
  affected: readonly string[],
  explicit: ImpactMap | null | undefined,
  severity: string,
): ServiceImpact[] {
  const fallback = IMPACT_OF_SEVERITY[severity as Severity] ?? 'degraded_performance';
  return affected.map((id) => ({ service_id: id, impact: explicit?.[id.toLowerCase()] ?? fallback }));
}

/** The explicit impacts of a list, keyed by lower-case id, kept only for services in `affected`. */
export function impactMap(list: readonly ServiceImpact[], affected: readonly string[]): ImpactMap {
  const keep = new Set(affected.map((a) => a.toLowerCase()));
  const map: ImpactMap = {};
  for (const x of list) if (keep.has(x.service_id.toLowerCase())) map[x.service_id.toLowerCase()] = x.impact;
  return map;
}

/** The services of `extra` not already in `base` (case-insensitive), appended in their order. */
export function unionServices(base: readonly string[], extra: readonly string[]): string[] {
  const seen = new Set(base.map((b) => b.toLowerCase()));
  const out = [...base];
  for (const id of extra) {
    if (seen.has(id.toLowerCase())) continue;
    seen.add(id.toLowerCase());
    out.push(id);
  }
  return out;
}

export function sameImpactMaps(a: ImpactMap | null | undefined, b: ImpactMap): boolean {
  const x = a ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(b).length && keys.every((k) => x[k] === b[k]);
}
