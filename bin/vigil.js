#!/usr/bin/env node
'use strict';
// Runs the TypeScript source in a development checkout (tsx present), the compiled CLI otherwise.
const path = require('node:path');

// VIGIL_BUILD_DIR: a compiled build in dist/'s layout to run instead (the test suite compiles one per run).
const build = process.env.VIGIL_BUILD_DIR;
let cli;
if (build) cli = require(path.join(path.resolve(build), 'src', 'cli', 'vigil.js'));
else try {
  require.resolve('tsx/cjs');
  require('tsx/cjs');
  cli = require(path.join(__dirname, '..', 'src', 'cli', 'vigil.ts'));
} catch (err) {
  if (err && err.code !== 'MODULE_NOT_FOUND') throw err;
  cli = require(path.join(__dirname, '..', 'dist', 'src', 'cli', 'vigil.js'));
}
cli.main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
