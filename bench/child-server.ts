import type { FastifyInstance } from 'fastify';

/**
 * The tail every benchmark server process shares: listen on a loopback port, print
 * "listening <port>" for the parent, and on SIGTERM/SIGINT close the app and then `closers` in
 * order (worker, feeds, connections, ORM) before exiting.
 */
export async function serveUntilSignalled(app: FastifyInstance, closers: Array<() => Promise<unknown>>): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no port');
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      for (const c of closers) await c();
    })().then(
      () => process.exit(0),
      (err) => {
        console.error('[vigil] shutdown failed:', err);
        process.exit(1);
      },
    ));
  process.on('SIGTERM', () => void close());
  process.on('SIGINT', () => void close());
  process.stdout.write(`listening ${addr.port}\n`);
}

/** Runs a server process's main, exiting non-zero with the error if it fails to start. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** A setting the parent benchmark passes through the environment; missing means this process was started by hand. */
export function requiredEnv(name: string, startedBy: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (this process is started by ${startedBy})`);
  return v;
}
