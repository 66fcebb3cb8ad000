import { requiredEnv, runMain } from './child-server';
import { serveBenchApi } from './api-server';

/**
 * The Vigil API process of the config-as-code benchmark: the real API (POST /v1/config/apply,
 * GET /v1/config/export, and the single-item endpoints of the baseline) on the bench's database,
 * with its change feed, as the API process of `vigil start` runs it (without request logging).
 * No Temporal: the document's metrics run on an agent, so an apply has no Schedule to sync.
 * Prints "listening <port>" when ready; closes on SIGTERM/SIGINT.
 *
 *   node dist/bench/config-support.js   (configured by bench/config.ts through the environment)
 */
export interface ConfigProcessEnv {
  BENCH_DATABASE_URL: string;
  /** The API's PostgreSQL pool size (DATABASE_POOL_MAX in production, default 10). */
  BENCH_POOL_MAX: string;
  /** 64 hex digits. */
  BENCH_MASTER_KEY: string;
}

const env = (name: keyof ConfigProcessEnv) => requiredEnv(name, 'bench/config.ts');

async function main(): Promise<void> {
  await serveBenchApi({
    databaseUrl: env('BENCH_DATABASE_URL'),
    poolMax: Number(env('BENCH_POOL_MAX')),
    masterKeyHex: env('BENCH_MASTER_KEY'),
  });
}

runMain(main);
