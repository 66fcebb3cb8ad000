// Runs the longest test files first (their durations as recorded in test/durations.json), so that
// on a clean clone, where jest has no timing cache, no long file starts last while the other
// worker sits idle. Files not listed run after, in jest's own order.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const durations = (() => {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'durations.json'), 'utf8'));
  } catch {
    return {};
  }
})();

class LongestFirst extends Sequencer {
  sort(tests) {
    const rootOf = (t) => t.context.config.rootDir;
    const seconds = (t) => durations[path.relative(rootOf(t), t.path).split(path.sep).join('/')];
    const known = tests.filter((t) => seconds(t) !== undefined).sort((a, b) => seconds(b) - seconds(a));
    const unknown = super.sort(tests.filter((t) => seconds(t) === undefined));
    return [...known, ...unknown];
  }
}

module.exports = LongestFirst;
