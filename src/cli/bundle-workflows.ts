import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * Prebuilds the workflow bundle for production workers (set VIGIL_WORKFLOW_BUNDLE to its path),
 * so a worker starts without running webpack. Usage: node dist/src/cli/bundle-workflows.js [out]
 */
async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows') });
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, code);
  console.log(`workflow bundle written to ${out} (${(code.length / 1024).toFixed(0)} KiB)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
