/**
 * Retries `check` until it stops throwing or `withinMs` passes, for effects that travel through
 * PostgreSQL's change notifications, Temporal or a real agent. It polls every 20 ms for the first
 * two seconds, then every `everyMs` (200 by default), so long waits stay well inside the
 * organization's API rate limit.
 */
export async function eventually<T>(check: () => Promise<T>, withinMs = 2000, everyMs = 200): Promise<T> {
  const started = Date.now();
  const deadline = started + withinMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, Date.now() - started < 2_000 ? 20 : everyMs));
    }
  }
}
