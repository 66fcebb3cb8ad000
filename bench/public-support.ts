import Fastify from 'fastify';
import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import { serveBenchApi } from './api-server';

/**
 * A server process of the public status page benchmark. BENCH_MODE=bare: a plain Fastify route
 * answering {} (the baseline, as in bench/api-overhead); BENCH_MODE=vigil: the real API with its
 * change feed, so the public pages' caches are live as in the API process of `vigil start`
 * (without request logging). Prints "listening <port>" when ready; closes on SIGTERM/SIGINT.
 *
 *   node dist/bench/public-support.js   (configured by bench/public.ts through the environment)
 */
export interface PublicProcessEnv {
  BENCH_MODE: 'bare' | 'vigil';
  /** The rest: vigil mode only. */
  BENCH_DATABASE_URL?: string;
  BENCH_POOL_MAX?: string;
  /** 64 hex digits. */
  BENCH_MASTER_KEY?: string;
  BENCH_STATUS_HOST?: string;
}

const env = (name: keyof PublicProcessEnv) => requiredEnv(name, 'bench/public.ts');

async function main(): Promise<void> {
  if (env('BENCH_MODE') === 'bare') {
    const app = Fastify({ logger: false });
    app.get('/', async () => ({}));
    return serveUntilSignalled(app, []);
  }
  await serveBenchApi({
    databaseUrl: env('BENCH_DATABASE_URL'),
    poolMax: Number(env('BENCH_POOL_MAX')),
    masterKeyHex: env('BENCH_MASTER_KEY'),
    statusHost: env('BENCH_STATUS_HOST'),
  });
}

runMain(main);
