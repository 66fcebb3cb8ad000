import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { startTemporalDevServer } from '../launchers/temporal-dev-server';
import { registerSearchAttributes } from '../temporal/search-attributes';

export interface TemporalServer {
  address: string;
  /** Null when Vigil did not start the server (TEMPORAL_ADDRESS). */
  uiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * TEMPORAL_ADDRESS when set (search attributes registered there); otherwise the dev server from
 * the pinned Temporal CLI, its SQLite file under the data dir so workflows survive a restart.
 */
export async function ensureTemporalServer(config: Config, log: Logger): Promise<TemporalServer> {
  if (config.TEMPORAL_ADDRESS) {
    await registerSearchAttributes(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
    return { address: config.TEMPORAL_ADDRESS, uiUrl: null, stop: async () => {} };
  }
  const dir = path.join(config.dataDir, 'temporal');
  const server = await startTemporalDevServer({
    cacheDir: config.VIGIL_CACHE_DIR,
    dbFile: path.join(dir, 'temporal.db'),
    port: config.TEMPORAL_PORT,
    uiPort: config.TEMPORAL_UI_PORT,
    namespace: config.TEMPORAL_NAMESPACE,
    logFile: path.join(dir, 'server.log'),
    // The server's own output is in server.log; only our progress lines go to the service log.
    log: (line) => {
      if (line.trim() && !line.startsWith('time=')) log.info(line);
    },
  });
  return { address: server.address, uiUrl: server.uiUrl, stop: () => server.stop() };
}
