/** How the benchmarks put load on Vigil: a bounded number of requests in flight. */

/** fn(0..n-1), at most `concurrency` at once; the first failure fails the whole. */
export async function forEach(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
}
