import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../composition/logger';
import { runProber } from '../composition/prober-process';
import { onShutdown } from '../composition/shutdown';

/**
 * Production entry `vigil-prober`: one probe location. Needs TEMPORAL_ADDRESS and VIGIL_LOCATION
 * (plus TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, VIGIL_LOCATION_LABEL, VIGIL_PROBE_SOURCE_ADDRESS,
 * LOCATION_HEARTBEAT_SECONDS and the CLOUD_PROBE_* settings); never DATABASE_URL.
 */
export async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, 'vigil-prober');
  const closers: Array<() => Promise<void>> = [];
  onShutdown(closers, (m) => log.info(m));
  const prober = await runProber(config, log);
  closers.push(() => prober.shutdown());
  // Started by `npm start` (VIGIL_LOCATIONS): tell it we are registered, and stop with it.
  if (process.send) {
    process.send({ type: 'prober-ready', location: prober.location.id });
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  }
  // A worker that fails (not one stopped by a signal) ends the process; a supervisor restarts it.
  prober.running.catch((err) => {
    log.fatal({ err }, 'the prober worker failed');
    process.exit(1);
  });
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
