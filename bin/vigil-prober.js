#!/usr/bin/env node
'use strict';
// A Vigil probe location (`vigil-prober`); bin/load-entry.js picks the build or the source.
const prober = require('./load-entry')('src/cli/prober');
prober.main().catch((err) => {
  console.error(`vigil-prober: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
