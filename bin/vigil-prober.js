#!/usr/bin/env node
'use strict';
// A Vigil probe location (`vigil-prober`): the TypeScript source in a development checkout (tsx present), the compiled build otherwise.
const path = require('node:path');

// VIGIL_BUILD_DIR: a compiled build in dist/'s layout to run instead (the test suite compiles one per run).
const build = process.env.VIGIL_BUILD_DIR;
let prober;
if (build) prober = require(path.join(path.resolve(build), 'src', 'cli', 'prober.js'));
else try {
  require.resolve('tsx/cjs');
  require('tsx/cjs');
  prober = require(path.join(__dirname, '..', 'src', 'cli', 'prober.ts'));
} catch (err) {
  if (err && err.code !== 'MODULE_NOT_FOUND') throw err;
  prober = require(path.join(__dirname, '..', 'dist', 'src', 'cli', 'prober.js'));
}
prober.main().catch((err) => {
  console.error(`vigil-prober: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
