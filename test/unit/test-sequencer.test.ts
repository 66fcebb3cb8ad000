import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The suite's own ordering (jest.config.js testSequencer): a fresh clone has no jest timing cache.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require('../support/sequencer.js') as new (options: object) => { sort(tests: FakeTest[]): FakeTest[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const durations = require('../support/test-durations.json') as { files: Record<string, number> };

interface FakeTest {
  path: string;
  duration?: number;
  context: { config: { cacheDirectory: string; id: string; haste: object; rootDir: string }; hasteFS: { getSize(p: string): number } };
}

const root = path.join(__dirname, '..', '..');

describe('test sequencer', () => {
  let cacheDirectory: string;
  beforeAll(() => {
    cacheDirectory = mkdtempSync(path.join(os.tmpdir(), 'vigil-sequencer-'));
  });
  afterAll(() => rmSync(cacheDirectory, { recursive: true, force: true }));

  const test = (rel: string, size: number): FakeTest => ({
    path: path.join(root, rel),
    context: { config: { cacheDirectory, id: 'sequencer-test', haste: {}, rootDir: root }, hasteFS: { getSize: () => size } },
  });

  it('starts the longest files first by the recorded durations, whatever their size, when jest has no timings', () => {
    const timed = Object.entries(durations.files).sort(([, a], [, b]) => b - a);
    expect(timed.length).toBeGreaterThan(50);
    const [slowest, , middle] = timed;
    const fastest = timed[timed.length - 1]!;
    // Sizes say the opposite of the durations: the fallback jest uses without a cache would get it wrong.
    const tests = [test(fastest[0], 90_000), test(middle![0], 50_000), test(slowest![0], 1_000)];
    const order = new Sequencer({}).sort(tests).map((t) => path.relative(root, t.path));
    expect(order).toEqual([slowest![0], middle![0], fastest[0]]);
  });

  it('holds seconds per test file', () => {
    for (const [file, seconds] of Object.entries(durations.files)) {
      expect(file).toMatch(/^test\/.+\.test\.ts$/);
      expect(seconds).toBeGreaterThan(0);
    }
  });
});
