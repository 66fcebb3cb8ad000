#!/usr/bin/env node
'use strict';
// The Vigil CLI (`vigil`); bin/load-entry.js picks the build or the source.
const cli = require('./load-entry')('src/cli/vigil');
cli.main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
