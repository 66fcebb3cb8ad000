#!/usr/bin/env node
'use strict';
// The Vigil agent: the TypeScript source in a development checkout (tsx present), the compiled build otherwise.
const path = require('node:path');

// VIGIL_BUILD_DIR: a compiled build in dist/'s layout to run instead (the test suite compiles one per run).
const build = process.env.VIGIL_BUILD_DIR;
let agent;
if (build) agent = require(path.join(path.resolve(build), 'src', 'agent', 'main.js'));
else try {
  require.resolve('tsx/cjs');
  require('tsx/cjs');
  agent = require(path.join(__dirname, '..', 'src', 'agent', 'main.ts'));
} catch (err) {
  if (err && err.code !== 'MODULE_NOT_FOUND') throw err;
  agent = require(path.join(__dirname, '..', 'dist', 'src', 'agent', 'main.js'));
}
agent.main().catch((err) => {
  console.error(`vigil-agent: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
