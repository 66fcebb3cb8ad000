import type { HealthStatus } from './thresholds';

const RANK: Record<Exclude<HealthStatus, 'no_data'>, number> = { unhealthy: 0, degraded: 1, healthy: 2 };

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * The overview's order: services with a status, worst first (unhealthy, degraded, healthy), then
 * by name; services without data apart, by name, for the end of the page.
 */
export function overviewOrder<T extends { name: string; status: HealthStatus }>(
  services: readonly T[],
): { measured: T[]; noData: T[] } {
  const measured = services.filter((s) => s.status !== 'no_data');
  const noData = services.filter((s) => s.status === 'no_data');
  measured.sort(
    (a, b) =>
      RANK[a.status as keyof typeof RANK] - RANK[b.status as keyof typeof RANK] ||
      byName.compare(a.name, b.name) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  noData.sort((a, b) => byName.compare(a.name, b.name));
  return { measured, noData };
}
