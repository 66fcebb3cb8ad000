import { readFileSync } from 'node:fs';
import path from 'node:path';

const { missingOptional } = require('../../scripts/complete-lockfile.js') as {
  missingOptional: (lock: unknown) => { dep: string }[];
};

describe('package-lock.json', () => {
  it('lists every optional platform package, so npm ci accepts it (run scripts/complete-lockfile.js after npm install)', () => {
    const lock = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package-lock.json'), 'utf8'));
    expect(missingOptional(lock).map((m) => m.dep)).toEqual([]);
  });
});
