#!/usr/bin/env node
'use strict';
// The Vigil agent (`vigil-agent`); bin/load-entry.js picks the build or the source.
const agent = require('./load-entry')('src/agent/main');
agent.main().catch((err) => {
  console.error(`vigil-agent: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
