import { requiredEnv, runMain } from './child-server';
import { serveBenchApi } from './api-server';

/**
 * The Vigil API process of the ingest benchmark: the real API (agent-token auth, body validation,
 * evaluation, flips, outbox) on the bench's database, as the API process of `vigil start` runs it
 * (without request logging, as in bench/api-overhead). Ingest never reaches Temporal, so none is
 * connected. Prints "listening <port>" when ready; closes on SIGTERM/SIGINT.
 *
 *   node dist/bench/ingest-support.js   (configured by bench/ingest.ts through the environment)
 */
export interface IngestProcessEnv {
  BENCH_DATABASE_URL: string;
  /** The API's PostgreSQL pool size (DATABASE_POOL_MAX in production, default 10). */
  BENCH_POOL_MAX: string;
  /** 64 hex digits. */
  BENCH_MASTER_KEY: string;
}

const env = (name: keyof IngestProcessEnv) => requiredEnv(name, 'bench/ingest.ts');

async function main(): Promise<void> {
  await serveBenchApi({
    databaseUrl: env('BENCH_DATABASE_URL'),
    poolMax: Number(env('BENCH_POOL_MAX')),
    masterKeyHex: env('BENCH_MASTER_KEY'),
  });
}

runMain(main);
