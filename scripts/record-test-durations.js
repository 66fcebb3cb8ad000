#!/usr/bin/env node
// Writes test/durations.json (seconds per test file) from a jest JSON result, for the suite's
// longest-first order (test/support/sequencer.js):
//   npx jest --json --outputFile=/tmp/jest.json && node scripts/record-test-durations.js /tmp/jest.json
const fs = require('node:fs');
const path = require('node:path');

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/record-test-durations.js <jest JSON result>');
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const result = JSON.parse(fs.readFileSync(file, 'utf8'));
const durations = {};
for (const t of result.testResults) {
  const rel = path.relative(root, t.name).split(path.sep).join('/');
  durations[rel] = Math.round((t.endTime - t.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(durations).sort((a, b) => b[1] - a[1]));
fs.writeFileSync(path.join(root, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
const total = Object.values(durations).reduce((s, x) => s + x, 0);
console.log(`test/durations.json: ${Object.keys(durations).length} files, ${total.toFixed(0)} s in all`);
