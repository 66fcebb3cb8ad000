import { rm } from 'node:fs/promises';
import { dropDatabase } from '../../src/launchers/postgres';
import { removeCompiledBuild } from './compiled-build';
import { getSuiteInfra } from './suite-infra';

export default async function globalTeardown(): Promise<void> {
  const infra = getSuiteInfra();
  if (!infra) return;
  await infra.temporal?.stop();
  if (infra.workflowBundle) await rm(infra.workflowBundle, { force: true });
  if (infra.compiledBuild) await removeCompiledBuild(infra.compiledBuild);
  if (!process.env.VIGIL_TEST_KEEP_DATABASE) await dropDatabase(infra.db.url);
  await infra.db.stop();
}
