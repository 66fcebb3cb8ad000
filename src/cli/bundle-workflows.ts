import path from 'node:path';
import { writeWorkflowBundle } from '../composition/workflow-bundle';

/**
 * Prebuilds the workflow bundle for production workers (set VIGIL_WORKFLOW_BUNDLE to its path),
 * so a worker starts without running webpack. Usage: node dist/src/cli/bundle-workflows.js [out]
 */
async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
  const size = await writeWorkflowBundle(out);
  console.log(`workflow bundle written to ${out} (${(size / 1024).toFixed(0)} KiB)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
