import path from 'node:path';
import { deriveLinkKey } from '../../src/crypto/signed-links';
import { parseMasterKey } from '../../src/infra/master-key';
import { SecretBox } from '../../src/crypto/secret-box';

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the suite through jest (its global setup starts PostgreSQL and Temporal)`);
  return value;
}

export const testDatabaseUrl = () => required('VIGIL_TEST_DATABASE_URL');
export const testTemporalAddress = () => required('VIGIL_TEST_TEMPORAL_ADDRESS');
/** The suite's prebuilt workflow bundle (global setup), or undefined: bundle from source. */
export const testWorkflowBundle = () => process.env.VIGIL_TEST_WORKFLOW_BUNDLE || undefined;
/**
 * What a child process adds to its environment to run the suite's compiled sources (global
 * setup); nothing outside the suite's setup, where the bins fall back to tsx.
 */
export const compiledBuildEnv = (): Record<string, string> =>
  process.env.VIGIL_TEST_BUILD_DIR ? { VIGIL_BUILD_DIR: process.env.VIGIL_TEST_BUILD_DIR } : {};
/** `node <this>` runs a source file (`src/cli/api.ts`, `test/support/worker-child.ts`): its compiled copy, or under tsx without one. */
export function nodeArgsFor(sourceFromRoot: string): string[] {
  const dir = process.env.VIGIL_TEST_BUILD_DIR;
  return dir
    ? [path.join(dir, sourceFromRoot.replace(/\.ts$/, '.js'))]
    : ['-r', 'tsx/cjs', path.join(__dirname, '..', '..', sourceFromRoot)];
}

/** The suite's master key (global setup makes one per run); API and worker must share it. */
export const testSecretBox = () => new SecretBox(parseMasterKey(required('VIGIL_MASTER_KEY')));
/** The key the suite's API and worker both sign subscriber links with. */
export const testLinkKey = () => deriveLinkKey(parseMasterKey(required('VIGIL_MASTER_KEY')));
