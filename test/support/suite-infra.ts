import type { ResolvedDatabase } from '../../src/launchers/postgres';
import type { RunningTemporal } from '../../src/launchers/temporal-dev-server';

export interface SuiteInfra {
  db: ResolvedDatabase;
  temporal: RunningTemporal | null;
  /** The workflow bundle every worker of the suite loads (VIGIL_TEST_WORKFLOW_BUNDLE). */
  workflowBundle: string | null;
  /** The compiled sources child processes run (VIGIL_TEST_BUILD_DIR). */
  compiledBuild: string | null;
}

const KEY = Symbol.for('vigil.test.suite-infra');

/** globalSetup and globalTeardown run in the same process; this carries the handles between them. */
export function setSuiteInfra(infra: SuiteInfra): void {
  (globalThis as Record<symbol, unknown>)[KEY] = infra;
}

export function getSuiteInfra(): SuiteInfra | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as SuiteInfra | undefined;
}
