#!/usr/bin/env node
'use strict';
/*
 * The npm registry reachable from our machines serves only linux-x64 builds of packages with
 * per-platform binaries (@swc/core-*, @unrs/resolver-binding-*), so `npm install` leaves the
 * other platforms' optional packages out of package-lock.json, and npm 11's `npm ci` then
 * refuses the lockfile as out of sync. This adds an entry (version, os, cpu, optional) for each
 * missing one; npm ci skips them on other platforms without fetching anything.
 * Run after `npm install` changes the lockfile: node scripts/complete-lockfile.js
 */
const fs = require('node:fs');
const path = require('node:path');

const OSES = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  return { os: OSES.find((o) => parts.includes(o)), cpu: CPUS.find((c) => parts.includes(c)) };
}

function missingOptional(lock) {
  const pk = lock.packages;
  const out = [];
  for (const [where, entry] of Object.entries(pk)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies || {})) {
      const nested = where ? `${where}/node_modules/${dep}` : `node_modules/${dep}`;
      if (!pk[nested] && !pk[`node_modules/${dep}`]) out.push({ key: `node_modules/${dep}`, dep, version });
    }
  }
  return out;
}

module.exports = { missingOptional };

if (require.main === module) {
  const file = path.join(__dirname, '..', 'package-lock.json');
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  const missing = missingOptional(lock);
  for (const { key, dep, version } of missing) {
    const { os, cpu } = platformOf(dep);
    lock.packages[key] = { version, optional: true, ...(cpu ? { cpu: [cpu] } : {}), ...(os ? { os: [os] } : {}) };
  }
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${missing.length} entries`);
}
