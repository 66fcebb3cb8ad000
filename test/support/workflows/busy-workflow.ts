/** Workflow code that keeps the sandbox busy for a while in one synchronous stretch (deadlock-check test). */
export async function busyWorkflow(iterations: number): Promise<number> {
  let x = 0;
  for (let i = 0; i < iterations; i++) x = (x + i) % 1_000_003;
  return x;
}
