import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';

/**
 * Bundles the workflow code from its sources into `file`, for workers started with
 * VIGIL_WORKFLOW_BUNDLE (production images, and every worker of the test suite), so a worker
 * starts without running webpack. Answers the bundle's size in bytes.
 */
export async function writeWorkflowBundle(file: string, opts: { quiet?: boolean } = {}): Promise<number> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    ...(opts.quiet ? { logger: new DefaultLogger('WARN') } : {}),
  });
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, code);
  return code.length;
}
