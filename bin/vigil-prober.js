#!/usr/bin/env node
'use strict';
// A Vigil probe location (`vigil-prober`): the TypeScript source in a development checkout (tsx present), the compiled build otherwise.
const path = require('node:path');

let prober;
try {
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
