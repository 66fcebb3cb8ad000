import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../../src/launchers/postgres';
import { stopSharedBrowser } from './browser';
import { removeCompiledBuild } from './compiled-build';
import { dropOwnDatabases } from './own-database';
import { getSuiteInfra } from './suite-infra';

export default async function globalTeardown(): Promise<void> {
  await stopSharedBrowser();
  const infra = getSuiteInfra();
  if (!infra) return;
  await infra.temporal?.stop();
  // The dev server's SQLite file (global-setup.ts), made for this run only.
  await rm(path.join(os.tmpdir(), `vigil-test-temporal-${process.pid}`), { recursive: true, force: true });
  if (infra.workflowBundle) await rm(infra.workflowBundle, { force: true });
  if (infra.compiledBuild) await removeCompiledBuild(infra.compiledBuild);
  if (!process.env.VIGIL_TEST_KEEP_DATABASE) {
    // The databases files made for themselves (own-database.ts), then the suite's.
    await dropOwnDatabases(infra.db.url);
    await dropDatabase(infra.db.url);
  }
  await infra.db.stop();
}
