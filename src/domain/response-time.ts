/**
 * Which metrics measure a response time in ms (spec §4.1 value semantics), and the ranges the
 * service page charts them over, each with the bucket its points average.
 */

const LATENCY_BY_DEFAULT = new Set(['tcp', 'dns']);
const LATENCY_INTERPRETATIONS: Record<string, { default: string; latency: readonly string[] }> = {
  icmp: { default: 'latency', latency: ['latency'] },
  grpc: { default: 'health_state', latency: ['latency'] },
  websocket: { default: 'handshake_latency', latency: ['handshake_latency', 'round_trip_latency'] },
};

/** A metric whose value is a response time: http without json_path, tcp, dns, and the latency readings of icmp, grpc and websocket; or any metric in ms. */
export function isResponseTimeMetric(m: {
  source_type: string;
  source_config: Record<string, unknown>;
  unit: string | null;
}): boolean {
  if (m.unit === 'ms') return true;
  if (m.source_type === 'http' || m.source_type === 'mtls_http')
    return m.source_config.json_path === undefined || m.source_config.json_path === null;
  if (LATENCY_BY_DEFAULT.has(m.source_type)) return true;
  const i = LATENCY_INTERPRETATIONS[m.source_type];
  if (!i) return false;
  const chosen = typeof m.source_config.interpretation === 'string' ? m.source_config.interpretation : i.default;
  return i.latency.includes(chosen);
}

export const CHART_RANGES = {
  '24h': { label: '24 h', ms: 86_400_000, bucketMs: 15 * 60_000 },
  '7d': { label: '7 d', ms: 7 * 86_400_000, bucketMs: 2 * 3_600_000 },
  '30d': { label: '30 d', ms: 30 * 86_400_000, bucketMs: 6 * 3_600_000 },
} as const;
export type ChartRange = keyof typeof CHART_RANGES;

export function isChartRange(v: unknown): v is ChartRange {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(CHART_RANGES, v);
}

/** The range's span ending at `now`, its start aligned down to a whole bucket (so buckets line up between page views). */
export function chartWindow(range: ChartRange, now: Date): { from: number; to: number; bucketMs: number } {
  const r = CHART_RANGES[range];
  const to = now.getTime();
  const from = Math.floor((to - r.ms) / r.bucketMs) * r.bucketMs;
  return { from, to, bucketMs: r.bucketMs };
}
