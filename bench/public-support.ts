import Fastify from 'fastify';
import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import { buildApp } from '../src/api/app';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { SecretBox } from '../src/infra/secret-box';

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
  const databaseUrl = env('BENCH_DATABASE_URL');
  const orm = await createOrm({ url: databaseUrl, poolMax: Number(env('BENCH_POOL_MAX')) });
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const app = await buildApp({
    orm,
    config: { docsUrl: 'https://docs.vigil.invalid', publicBaseUrl: 'http://127.0.0.1', BODY_LIMIT_BYTES: 1_048_576, STATUS_HOST: env('BENCH_STATUS_HOST') },
    changeFeed,
    secretBox: new SecretBox(Buffer.from(env('BENCH_MASTER_KEY'), 'hex')),
  });
  await serveUntilSignalled(app, [() => changeFeed.close(), () => orm.close()]);
}

runMain(main);
