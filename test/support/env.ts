import { deriveLinkKey } from '../../src/infra/signed-links';
import { parseMasterKey } from '../../src/infra/master-key';
import { SecretBox } from '../../src/infra/secret-box';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through jest (its global setup starts PostgreSQL and Temporal)`);
  return value;
}

export const testDatabaseUrl = () => required('VIGIL_TEST_DATABASE_URL');
export const testTemporalAddress = () => required('VIGIL_TEST_TEMPORAL_ADDRESS');
/** The suite's prebuilt workflow bundle (global setup), or undefined: bundle from source. */
export const testWorkflowBundle = () => process.env.VIGIL_TEST_WORKFLOW_BUNDLE || undefined;

/** The suite's master key (global setup makes one per run); API and worker must share it. */
export const testSecretBox = () => new SecretBox(parseMasterKey(required('VIGIL_MASTER_KEY')));
/** The key the suite's API and worker both sign subscriber links with. */
export const testLinkKey = () => deriveLinkKey(parseMasterKey(required('VIGIL_MASTER_KEY')));
