import { requiredEnv, runMain } from './child-server';
import { serveBenchApi } from './api-server';

/**
 * The Vigil API process of the benchmarks that need no Temporal: the real API on the bench's
 * database, with its change feed, as the API process of `vigil start` runs it (without request
 * logging). bench/config.ts drives config-as-code through it (an apply has no Schedule to sync,
 * since the document's metrics run on an agent); bench/ingest.ts drives ingest (agent-token auth,
 * body validation, evaluation, flips, outbox), which never reaches Temporal.
 * Prints "listening <port>" when ready; closes on SIGTERM/SIGINT.
 *
 *   node dist/bench/api-process.js   (configured by its driver through the environment)
 */
export interface ApiProcessEnv {
  BENCH_DATABASE_URL: string;
  /** The API's PostgreSQL pool size (DATABASE_POOL_MAX in production, default 10). */
  BENCH_POOL_MAX: string;
  /** 64 hex digits. */
  BENCH_MASTER_KEY: string;
}

const env = (name: keyof ApiProcessEnv) => requiredEnv(name, 'bench/config.ts or bench/ingest.ts');

async function main(): Promise<void> {
  await serveBenchApi({
    databaseUrl: env('BENCH_DATABASE_URL'),
    poolMax: Number(env('BENCH_POOL_MAX')),
    masterKeyHex: env('BENCH_MASTER_KEY'),
  });
}

runMain(main);
