'use strict';
// Orders test files longest first, so that both workers finish together. jest does that from
// its own timing cache, which a fresh clone (CI) does not have: it then falls back to file
// size, and a slow but short file (a browser crawl, a fault test) started last kept one
// worker busy minutes after the other had finished. test-durations.json holds each file's
// seconds from a full run (`node scripts/test-durations.js <jest --json output>` renews it);
// jest's own timing wins where it has one; a file in neither (a new one) runs first, by jest's rule.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./test-durations.json');

const root = path.join(__dirname, '..', '..');

class DurationSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = durations.files[path.relative(root, test.path).split(path.sep).join('/')];
    return seconds == null ? undefined : seconds * 1000;
  }
}

module.exports = DurationSequencer;
