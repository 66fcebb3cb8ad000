export interface Stats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles. */
export function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s.at(-1) ?? NaN };
}
