import { buildApp } from '../src/api/app';
import { ChangeFeed } from '../src/db/change-feed';
import { createOrm } from '../src/db/orm';
import { SecretBox } from '../src/crypto/secret-box';
import { serveUntilSignalled } from './child-server';
import { benchAppDeps } from './support/vigil-process';

/**
 * The real API without Temporal, on a benchmark's database, with its change feed so the caches
 * are live (as the API process of `vigil start` runs it, without request logging).
 */
export async function serveBenchApi(opts: {
  databaseUrl: string;
  poolMax: number;
  masterKeyHex: string;
  statusHost?: string;
}): Promise<void> {
  const orm = await createOrm({ url: opts.databaseUrl, poolMax: opts.poolMax });
  const changeFeed = new ChangeFeed(opts.databaseUrl);
  await changeFeed.start();
  const app = await buildApp(
    benchAppDeps(orm, changeFeed, new SecretBox(Buffer.from(opts.masterKeyHex, 'hex')), opts.statusHost),
  );
  await serveUntilSignalled(app, [() => changeFeed.close(), () => orm.close()]);
}
