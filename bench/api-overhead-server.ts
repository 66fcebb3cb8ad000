import { randomBytes } from 'node:crypto';
import { runMain } from './child-server';
import Fastify from 'fastify';
import { buildApp } from '../src/api/app';
import { secretBox } from '../src/composition/adapters';
import { loadConfig } from '../src/config';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { withoutTemporal } from '../test/support/app-deps';

/**
 * One server process of the api-overhead benchmark: `bare` is a plain Fastify route answering {},
 * `vigil` is the real API (auth, rate limit, PostgreSQL). Prints "listening <port>" when ready.
 */
async function main(): Promise<void> {
  const [mode, port, databaseUrl] = process.argv.slice(2);
  if (mode === 'bare') {
    const app = Fastify({ logger: false });
    app.get('/', async () => ({}));
    await app.listen({ host: '127.0.0.1', port: Number(port) });
  } else {
    const orm = await createOrm({ url: databaseUrl!, poolMax: 10 });
    const changeFeed = new ChangeFeed(databaseUrl!);
    await changeFeed.start();
    const config = loadConfig({ VIGIL_MASTER_KEY: process.env.VIGIL_MASTER_KEY ?? '0'.repeat(64) });
    const app = await buildApp({
      ...withoutTemporal(config.publicBaseUrl),
      linkKey: randomBytes(32),
      orm,
      config,
      changeFeed,
      secretBox: secretBox(config),
    });
    await app.listen({ host: '127.0.0.1', port: Number(port) });
  }
  process.stdout.write(`listening ${port}\n`);
}

runMain(main);
