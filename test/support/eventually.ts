/**
 * Retries `check` until it stops throwing or `withinMs` passes, for effects that travel through
 * PostgreSQL's change notifications to another connection (milliseconds, but not synchronous).
 */
export async function eventually<T>(check: () => Promise<T>, withinMs = 2000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
