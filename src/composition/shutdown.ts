/**
 * Runs the registered closers in reverse order on SIGINT/SIGTERM; a second signal exits at once.
 */
export function onShutdown(closers: Array<() => Promise<void>>, log: (msg: string) => void): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    log(`${signal}: stopping…`);
    let code = 0;
    for (const close of [...closers].reverse()) {
      try {
        await close();
      } catch (err) {
        code = 1;
        log(`while stopping: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    log('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
