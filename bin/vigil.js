#!/usr/bin/env node
'use strict';
// Runs the TypeScript source in a development checkout (tsx present), the compiled CLI otherwise.
const path = require('node:path');

let cli;
try {
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
