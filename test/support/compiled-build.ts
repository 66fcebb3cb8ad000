import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..');

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(full)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * The sources the suite's child processes run (src/, and test/support/ for the worker child),
 * compiled once per run into `<repo>/.test-build-<run>/`, in dist's layout and at its depth (the
 * API finds docs/ from there as from dist/): esbuild's per-file
 * transform, the same one tsx applies when a bin loads the sources, done once instead of in
 * every spawned bin (a tsx start cost a CLI run about 1 s of CPU more). Inside the checkout, so
 * node_modules resolve as they do for dist/. The bins run it through VIGIL_BUILD_DIR.
 */
export async function writeCompiledBuild(run: string): Promise<string> {
  const outdir = path.join(ROOT, `.test-build-${run}`);
  const entryPoints = [
    ...(await tsFiles(path.join(ROOT, 'src'))),
    ...(await tsFiles(path.join(ROOT, 'test', 'support'))),
  ];
  await build({
    entryPoints,
    outdir,
    outbase: ROOT,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  return outdir;
}

export async function removeCompiledBuild(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
