import { requiredEnv, runMain, serveUntilSignalled } from './child-server';
import { buildApp } from '../src/api/app';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { SecretBox } from '../src/infra/secret-box';

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
  const databaseUrl = env('BENCH_DATABASE_URL');
  const orm = await createOrm({ url: databaseUrl, poolMax: Number(env('BENCH_POOL_MAX')) });
  const changeFeed = new ChangeFeed(databaseUrl);
  await changeFeed.start();
  const app = await buildApp({
    orm,
    config: { docsUrl: 'https://docs.vigil.invalid', publicBaseUrl: 'http://127.0.0.1', BODY_LIMIT_BYTES: 1_048_576 },
    changeFeed,
    secretBox: new SecretBox(Buffer.from(env('BENCH_MASTER_KEY'), 'hex')),
  });
  await serveUntilSignalled(app, [() => changeFeed.close(), () => orm.close()]);
}

runMain(main);
