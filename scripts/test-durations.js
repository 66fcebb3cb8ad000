'use strict';
// Renews test/support/test-durations.json (what test/support/sequencer.js orders the suite by)
// from a full run's jest JSON result:  npx jest --json --outputFile=/tmp/jest.json; node scripts/test-durations.js /tmp/jest.json
const fs = require('node:fs');
const path = require('node:path');

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/test-durations.js <jest --json output>');
  process.exit(2);
}
const root = path.join(__dirname, '..');
const result = JSON.parse(fs.readFileSync(file, 'utf8'));
const files = {};
for (const t of result.testResults) {
  const seconds = (t.endTime - t.startTime) / 1000;
  if (Number.isFinite(seconds) && seconds > 0) files[path.relative(root, t.name).split(path.sep).join('/')] = Math.round(seconds * 10) / 10;
}
const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = path.join(root, 'test', 'support', 'test-durations.json');
fs.writeFileSync(out, `${JSON.stringify({ measured: new Date(result.startTime).toISOString().slice(0, 10), files: sorted }, null, 2)}\n`);
const total = Object.values(files).reduce((a, b) => a + b, 0);
console.log(`${Object.keys(files).length} files, ${Math.round(total)} s in all, written to ${path.relative(root, out)}`);
